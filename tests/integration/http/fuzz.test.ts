import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { Browser, signedInBrowser, startTestServer, type TestServer } from '../../support/test-server.ts';
import { listRoutes, sampleUrl } from '../../support/routes.ts';
import { AUTH_REQUEST_SCHEMAS } from '../../../src/lib/auth.schema.ts';
import { startFakeIyzico, type FakeIyzico } from '../../support/fake-iyzico.ts';

/**
 * Generated inputs against every endpoint that takes a body or a query. No 5xx, and no body leaking
 * a stack trace, SQL, or a secret. `npm test` runs a sample of 20 fresh inputs per endpoint (new
 * ones every run); `npm run test:sweep` (`FUZZ_RUNS=1000`, in CI too) runs 1,000 each.
 */
const RUNS_PER_ENDPOINT = Number(process.env.FUZZ_RUNS ?? 20);
const SECRET = 'test-secret-test-secret-test-secret-42';
const LEAKS = [
  /at \w+ \(.*:\d+:\d+\)/,
  /\bat (file|node):/,
  /\b(SELECT|INSERT|UPDATE|DELETE)\b.+\b(FROM|INTO|SET)\b/,
  /syntax error at or near/i,
  /violates .* constraint/,
  /postgres(ql)?:\/\//i,
  new RegExp(SECRET),
  /whsec_/,
  /sk_(test|live)_/,
];

let server: TestServer;
let admin: Browser;
let iyzico: FakeIyzico;

beforeAll(async () => {
  // iyzico's callback and webhook are fuzzed against a configured provider (a local fake of its API).
  iyzico = await startFakeIyzico();
  server = await startTestServer(iyzico.settings);
  admin = await signedInBrowser(server, {
    role: 'admin',
    email: 'fuzz-admin@example.com',
    password: 'fuzz password 1',
    fullName: 'Fuzz',
  });
}, 60_000);
afterAll(async () => {
  await server.stop();
  await iyzico.stop();
});

// Values of every JSON shape, biased towards what breaks parsers and queries.
const nasty = fc.oneof(
  fc.constantFrom(
    "'; DROP TABLE users; --",
    '%00',
    '\u0000',
    '<script>alert(1)</script>',
    '../../etc/passwd',
    'İıŞşĞğ',
    '𝕏'.repeat(50),
    'a'.repeat(5000),
    '',
    ' ',
    '-1',
    '1e309',
    'NaN',
    'null',
    '{}',
    '[]',
    '__proto__',
    'constructor',
  ),
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 100 }),
);
const anyJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    nasty,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(
        nasty,
        fc.constantFrom(
          'email',
          'password',
          'courseId',
          'fullName',
          'language',
          'name',
          'token',
          'slug',
          'title',
          'priceMinor',
          '__proto__',
        ),
      ),
      tie('value'),
      { maxKeys: 6 },
    ),
  ),
})).value;
const body = fc.oneof(
  anyJson.map((value) => ({ type: 'application/json', text: JSON.stringify(value) ?? 'null' })),
  fc
    .record(
      {
        email: nasty,
        password: nasty,
        courseId: nasty,
        fullName: nasty,
        language: nasty,
        token: nasty,
        name: nasty,
        subject: nasty,
        message: nasty,
      },
      { requiredKeys: [] },
    )
    .map((value) => ({ type: 'application/json', text: JSON.stringify(value) })),
  fc.string({ maxLength: 300 }).map((text) => ({ type: 'application/json', text })),
  fc.string({ maxLength: 300 }).map((text) => ({ type: 'application/x-www-form-urlencoded', text })),
  fc.string({ maxLength: 300 }).map((text) => ({ type: 'text/plain', text })),
  // Raw hostility: nesting deeper than any parser's stack, invalid UTF-8, megabytes, odd types.
  fc.record({ depth: fc.integer({ min: 33, max: 20_000 }), open: fc.constantFrom('[', '{"a":') }).map(({ depth, open }) => ({
    type: 'application/json',
    text: open.repeat(depth) + (open === '[' ? ']'.repeat(depth) : '1' + '}'.repeat(depth)),
  })),
  fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => ({ type: 'application/json', text: Buffer.from(bytes) })),
  fc.constantFrom(
    { type: 'application/json', text: JSON.stringify({ email: 'a@example.com', name: 'x'.repeat(200_000) }) },
    { type: 'application/json; charset=latin1', text: '{"email":"\u00e9@example.com"}' },
    { type: 'multipart/form-data; boundary=x', text: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--' },
    { type: '', text: '{}' },
  ),
);

function checkResponse(where: string, status: number, text: string, type?: string | null): void {
  expect(status, where).toBeLessThan(500);
  // An API answers its errors in JSON, never with an HTML page.
  if (type !== undefined && status >= 400) expect(type ?? '', where).toMatch(/application\/json/);
  for (const leak of LEAKS) expect(text, `${where}: ${leak}`).not.toMatch(leak);
}

// better-auth's catch-all route stands for every endpoint it answers: each is fuzzed on its own.
const AUTH_PATHS = [
  ...Object.keys(AUTH_REQUEST_SCHEMAS),
  '/sign-out',
  '/revoke-sessions',
  '/revoke-other-sessions',
  '/delete-user',
];
const writeEndpoints = listRoutes()
  .flatMap((route) =>
    route.kind === 'endpoint'
      ? route.methods
          .filter((method) => method !== 'GET')
          .flatMap((method) =>
            route.pattern === '/api/auth/[...all]'
              ? AUTH_PATHS.map((all) => ({ method, pattern: route.pattern, all: all.slice(1) }))
              : [{ method, pattern: route.pattern, all: '' }],
          )
      : [],
  )
  .filter((endpoint) => endpoint.pattern !== '/api/stripe/webhook');

describe('fuzzing', () => {
  it.each(writeEndpoints)(
    `$method $pattern $all survives ${RUNS_PER_ENDPOINT} generated bodies`,
    async ({ method, pattern, all }) => {
      await fc.assert(
        fc.asyncProperty(body, nasty, async (generated, param) => {
          const url = sampleUrl(pattern, {
            id: encodeURIComponent(param) || 'x',
            paymentId: encodeURIComponent(param) || 'x',
            provider: 'iyzico',
            all,
          });
          const response = await admin.request(url, {
            method,
            headers: { 'content-type': generated.type },
            body: generated.text,
          });
          checkResponse(
            `${method} ${url} ${generated.type} ${String(generated.text).slice(0, 80)}`,
            response.status,
            await response.text(),
            url.startsWith('/api/') ? response.headers.get('content-type') : undefined,
          );
        }),
        { numRuns: RUNS_PER_ENDPOINT },
      );
    },
    300_000,
  );

  it(`GET query strings: catalogue (filters, display currency, order), search pages, checkout pages, subscription links and Admin → Import's page survive ${RUNS_PER_ENDPOINT} generated inputs each`, async () => {
    const targets = [
      '/api/courses?',
      '/en/courses?',
      '/tr/checkout/success?',
      '/api/password-reset?',
      '/en/dev/mailbox?',
      '/en/subscribe/confirm?',
      '/tr/subscription?',
      '/api/admin/subscribers?',
      '/en/admin/import?',
      '/en/admin/mail?',
      '/tr/admin/mail/automatic?',
    ];
    for (const target of targets) {
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(
            fc.constantFrom(
              'search',
              'category',
              'language',
              'difficulty',
              'maxPrice',
              'currency',
              'sort',
              'page',
              'lang',
              'session_id',
              'token',
              'to',
              'utm_source',
              'utm_medium',
              'utm_campaign',
              'ref',
              'q',
              'status',
              'done',
              'id',
              'part',
            ),
            // Currency-shaped values too, so the display-currency paths are reached, not only refused.
            fc.oneof(
              nasty,
              fc.constantFrom('USD', 'EUR', 'TRY', 'usd', 'TRY ', 'GBP', 'price-asc', 'price-desc', '20000', '20001', '4.5'),
            ),
            { maxKeys: 5 },
          ),
          async (params) => {
            const url = target + new URLSearchParams(params).toString();
            const response = await admin.request(url);
            checkResponse(url, response.status, await response.text());
          },
        ),
        { numRuns: RUNS_PER_ENDPOINT },
      );
    }
  }, 300_000);

  it(`the Stripe webhook refuses ${RUNS_PER_ENDPOINT} unsigned or badly signed bodies with 400 and writes nothing`, async () => {
    const before = await db()
      .selectFrom('payment_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await fc.assert(
      fc.asyncProperty(body, fc.option(fc.string({ maxLength: 120 })), async (generated, signature) => {
        const response = await server.fetch('/api/stripe/webhook', {
          method: 'POST',
          headers: { 'content-type': generated.type, ...(signature === null ? {} : { 'stripe-signature': signature }) },
          body: generated.text,
        });
        expect(response.status).toBe(400);
      }),
      { numRuns: RUNS_PER_ENDPOINT },
    );
    const after = await db()
      .selectFrom('payment_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  }, 300_000);
});
