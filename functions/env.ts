import { z } from 'zod';

const BucketName = z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3–63 of a-z, 0-9, . and -)');
const SUPABASE_REPLACED = z
  .never({
    error:
      "Supabase Storage is now reached through its S3 endpoint: set S3_ENDPOINT, S3_BUCKET (the private bucket), S3_PUBLIC_BUCKET, S3_PUBLIC_URL and the S3 keys instead (README, 'Files in object storage')",
  })
  .optional();

/** Every environment variable the server reads, checked once. `.env.example` documents each. */
const BaseEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  // The server log's level; by default warn under tests and info elsewhere (functions/log.ts).
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  HOST: z.string().min(1).default('localhost'),
  PORT: z.coerce.number().int().min(1).max(65535).default(4321),
  PUBLIC_SITE_URL: z.url().optional(),
  DATABASE_URL: z.url().optional(),
  // A session-mode or direct connection beside a transaction pooler's DATABASE_URL: LISTEN and migrations.
  DATABASE_DIRECT_URL: z.url().optional(),
  PGPORT: z.coerce.number().int().min(1).max(65535).optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  BETTER_AUTH_SECRET: z.string().min(32, 'must be at least 32 characters (e.g. `openssl rand -base64 32`)').optional(),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  AUTH_RATE_LIMIT: z.enum(['on', 'off']).optional(),
  /** Course page views counted for the funnel (decision 45); `off` only to measure what counting costs. */
  FUNNEL_COUNTING: z.enum(['on', 'off']).default('on'),
  SMTP_URL: z.url().optional(),
  MAIL_FROM: z.string().min(3).default('MicroCourses <no-reply@microcourses.example>'),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, 'must look like sk_test_… or sk_live_…')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z.string().startsWith('whsec_', 'must start with whsec_').optional(),
  // Points the Stripe client at another host (tests use a local fake); never set in production.
  STRIPE_API_URL: z.url().optional(),
  // iyzico (Türkiye): the merchant panel's API and secret keys, and its sandbox or live API address.
  IYZICO_API_KEY: z.string().min(1).max(200).optional(),
  IYZICO_SECRET_KEY: z.string().min(1).max(200).optional(),
  IYZICO_BASE_URL: z.url().default('https://sandbox-api.iyzipay.com'),
  // VIES, the EU's VAT number check (REST API); tests point it at a local fake.
  VIES_URL: z.url().default('https://ec.europa.eu/taxation_customs/vies/rest-api'),
  // Developer tools (dev mailbox, e-mail previews, crash page, demo payments): see functions/dev-tools.ts.
  DEV_TOOLS: z.enum(['on', 'off']).optional(),
  // Set only by the test and bench harnesses, which run production servers on plain-http loopback.
  PRODUCTION_CHECKS: z.enum(['test-harness']).optional(),
  DEMO_PAYMENTS: z.never({ error: 'was replaced by DEV_TOOLS=on (see .env.example)' }).optional(),
  // How often each server looks for scheduled blog posts whose time came: well inside the promised
  // minute by default; tests make it short.
  BLOG_SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
  // How often each server looks for background work: buyers to notify, the hourly image sweep.
  JOBS_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(2_000),
  // The page cache's memory, in MB (functions/http/page-cache.ts pageCacheBytes); unset: a sixteenth of
  // the memory the process may use (a container's limit, else the machine's), between 16 and 64 MB.
  PAGE_CACHE_MB: z.coerce.number().int().min(1).max(4096).optional(),
  // S3-compatible object storage for covers and course PDFs (functions/storage/s3.ts); S3_BUCKET set →
  // used instead of the local disk. README's "Files in object storage" says what each provider needs.
  S3_BUCKET: BucketName.optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).max(64).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).max(300).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).max(300).optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  S3_PUBLIC_BUCKET: BucketName.optional(),
  S3_PUBLIC_URL: z.url().optional(),
  // The Supabase Storage adapter gave way to the S3 one on Supabase's S3 endpoint (decision 39).
  SUPABASE_URL: SUPABASE_REPLACED,
  SUPABASE_SERVICE_ROLE_KEY: SUPABASE_REPLACED,
  SUPABASE_BUCKET_PUBLIC: SUPABASE_REPLACED,
  SUPABASE_BUCKET_PRIVATE: SUPABASE_REPLACED,
  // Sign-in with an OpenID Connect provider (functions/auth/identity-providers.ts): Google by its two
  // keys, any other provider by its issuer, keys and the name its button shows. None set: no button.
  GOOGLE_CLIENT_ID: z.string().min(1).max(300).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).max(300).optional(),
  OIDC_ISSUER: z
    .url()
    .refine((value) => /^https?:\/\//.test(value), "must be an http(s) URL (the provider's issuer)")
    .optional(),
  OIDC_CLIENT_ID: z.string().min(1).max(300).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).max(300).optional(),
  OIDC_NAME: z.string().trim().min(1).max(40).optional(),
});

const EnvSchema = BaseEnvSchema.superRefine((value, context) => {
  if (value.NODE_ENV === 'production' && value.AUTH_RATE_LIMIT === 'off') {
    context.addIssue({ code: 'custom', path: ['AUTH_RATE_LIMIT'], message: 'cannot be off in production' });
  }
  if (value.NODE_ENV === 'production' && value.DEV_TOOLS === 'on' && value.PRODUCTION_CHECKS !== 'test-harness') {
    context.addIssue({
      code: 'custom',
      path: ['DEV_TOOLS'],
      message: 'cannot be on in production: the dev mailbox shows every sign-in link and demo payments give courses away',
    });
  }
  if (value.STRIPE_SECRET_KEY && !value.STRIPE_WEBHOOK_SECRET) {
    context.addIssue({
      code: 'custom',
      path: ['STRIPE_WEBHOOK_SECRET'],
      message: 'is required with STRIPE_SECRET_KEY (from `stripe listen` or the dashboard)',
    });
  }
  if (Boolean(value.IYZICO_API_KEY) !== Boolean(value.IYZICO_SECRET_KEY)) {
    context.addIssue({
      code: 'custom',
      path: [value.IYZICO_API_KEY ? 'IYZICO_SECRET_KEY' : 'IYZICO_API_KEY'],
      message: 'IYZICO_API_KEY and IYZICO_SECRET_KEY go together (iyzico merchant panel → Settings)',
    });
  }
  for (const issue of s3Problems(value)) context.addIssue({ code: 'custom', ...issue });
  if (Boolean(value.GOOGLE_CLIENT_ID) !== Boolean(value.GOOGLE_CLIENT_SECRET)) {
    context.addIssue({
      code: 'custom',
      path: [value.GOOGLE_CLIENT_ID ? 'GOOGLE_CLIENT_SECRET' : 'GOOGLE_CLIENT_ID'],
      message: 'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET go together (Google sign-in)',
    });
  }
  const oidc = {
    OIDC_ISSUER: value.OIDC_ISSUER,
    OIDC_CLIENT_ID: value.OIDC_CLIENT_ID,
    OIDC_CLIENT_SECRET: value.OIDC_CLIENT_SECRET,
    OIDC_NAME: value.OIDC_NAME,
  };
  const oidcSet = Object.entries(oidc).filter(([, set]) => set);
  if (oidcSet.length > 0 && oidcSet.length < 4) {
    for (const [name] of Object.entries(oidc).filter(([, set]) => !set)) {
      context.addIssue({
        code: 'custom',
        path: [name],
        message: 'OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and OIDC_NAME go together (OpenID sign-in)',
      });
    }
  }
  if (value.NODE_ENV === 'production' && !value.BETTER_AUTH_SECRET) {
    context.addIssue({
      code: 'custom',
      path: ['BETTER_AUTH_SECRET'],
      message: 'is required in production (e.g. `openssl rand -base64 32`)',
    });
  }
});

export type Env = z.infer<typeof EnvSchema>;

/** What an S3 configuration lacks or contradicts, each named by its variable. */
function s3Problems(value: z.infer<typeof BaseEnvSchema>): { path: string[]; message: string }[] {
  const problems = [];
  if (value.S3_BUCKET && !(value.S3_ACCESS_KEY_ID && value.S3_SECRET_ACCESS_KEY))
    problems.push({
      path: [value.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'],
      message:
        'S3_BUCKET needs S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (an access key allowed to read, write and delete in it)',
    });
  for (const name of ['S3_ACCESS_KEY_ID', 'S3_ENDPOINT', 'S3_PUBLIC_BUCKET', 'S3_PUBLIC_URL'] as const)
    if (value[name] && !value.S3_BUCKET) problems.push({ path: ['S3_BUCKET'], message: `is required with ${name}` });
  if (value.S3_PUBLIC_BUCKET && value.S3_PUBLIC_BUCKET === value.S3_BUCKET)
    problems.push({ path: ['S3_PUBLIC_BUCKET'], message: 'must differ from S3_BUCKET: course PDFs are never public' });
  return problems;
}

let cached: Env | undefined;

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = EnvSchema.safeParse(blankToUndefined(source));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

export function env(): Env {
  cached ??= readEnv();
  return cached;
}

/** The public origin. Needs only the origin variables, so a production build can render links without the server's secrets. */
const SiteEnvSchema = BaseEnvSchema.pick({ PUBLIC_SITE_URL: true, HOST: true, PORT: true });

let site: { from: string; url: string } | undefined;

/** Checked again only when one of its variables changed (tests change them; a server never does). */
export function siteUrl(): string {
  const source = { PUBLIC_SITE_URL: process.env.PUBLIC_SITE_URL, HOST: process.env.HOST, PORT: process.env.PORT };
  const from = JSON.stringify(source);
  if (site?.from !== from) {
    const { PUBLIC_SITE_URL, HOST, PORT } = SiteEnvSchema.parse(blankToUndefined(source));
    site = { from, url: PUBLIC_SITE_URL ?? `http://${HOST === '0.0.0.0' ? 'localhost' : HOST}:${PORT}` };
  }
  return site.url;
}

/**
 * The log level, read on its own and never refused: functions/log.ts is loaded by nearly every module,
 * before the environment is checked, and its logger is what reports a bad environment. A value it
 * cannot use falls back to the default here; env() (checked once at start) names it as the error.
 */
const LogEnvSchema = z.object({
  NODE_ENV: BaseEnvSchema.shape.NODE_ENV.catch('development'),
  LOG_LEVEL: BaseEnvSchema.shape.LOG_LEVEL.catch(undefined),
});

export function logLevel(): NonNullable<Env['LOG_LEVEL']> {
  const { NODE_ENV, LOG_LEVEL } = LogEnvSchema.parse(blankToUndefined(process.env));
  return LOG_LEVEL ?? (NODE_ENV === 'test' ? 'warn' : 'info');
}

/** Variables the command line decides at start and hands on to the web server it then loads. */
type HandedOn = 'DEV_TOOLS' | 'DATABASE_URL';

/**
 * The one place that writes the environment. `npm start` decides some values itself (the developer tools,
 * the database it provisioned) and then imports the built
 * server, whose bundle holds its own copy of this module: process.env is the only channel both copies read.
 * This copy's env() keeps what it read at start, as before; the command line passes its handles on itself.
 */
export function handOnToServer(values: Partial<Record<HandedOn, string>>): void {
  Object.assign(process.env, values);
}

function blankToUndefined(source: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(source).map(([key, value]) => [key, value === '' ? undefined : value]));
}
