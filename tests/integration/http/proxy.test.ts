import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureUser } from '../../../functions/auth/users.ts';
import { db } from '../../../functions/db/database.ts';
import { makePdf, makePng } from '../../support/files.ts';
import { orderReference } from '../../../functions/orders/orders.ts';
import { readPdf } from '../../support/pdf-reader.ts';
import { startForwardingProxy } from '../../support/forwarding-proxy.ts';
import { Browser, startTestServer, type TestServer } from '../../support/test-server.ts';
import { courseFormFields } from '../../support/factories.ts';

/**
 * The recommended deploy: HTTPS terminated by a proxy in front of the shop's plain-http port. Browsers
 * then send the public https origin, the shop sees the proxy's headers; every kind of write a user
 * makes must pass the one cross-site check, and nothing else may refuse it.
 */
const PUBLIC_ORIGIN = 'https://shop.example';
let shop: TestServer;
let proxy: Awaited<ReturnType<typeof startForwardingProxy>>;
let viaProxy: TestServer;

beforeAll(async () => {
  shop = await startTestServer({
    NODE_ENV: 'production',
    TRUST_PROXY: 'true',
    PUBLIC_SITE_URL: PUBLIC_ORIGIN,
    DEV_TOOLS: 'on',
    PRODUCTION_CHECKS: 'test-harness',
  });
  proxy = await startForwardingProxy(shop.url, PUBLIC_ORIGIN);
  viaProxy = {
    url: proxy.url,
    fetch: (path, init = {}) => {
      const headers = new Headers(init.headers);
      // A browser on the https page sends the public origin.
      if (!headers.has('origin')) headers.set('origin', PUBLIC_ORIGIN);
      return fetch(`${proxy.url}${path}`, { redirect: 'manual', ...init, headers });
    },
    stop: async () => {},
  };
}, 120_000);

afterAll(async () => {
  await proxy?.stop();
  await shop?.stop();
});

describe('behind a TLS-terminating proxy', () => {
  it('signs in, uploads a course as admin, buys it with the demo provider and downloads it', async () => {
    const email = 'proxy-admin@example.com';
    await ensureUser(db(), { email, password: 'correct horse 42', fullName: 'Proxy Admin', role: 'admin' });
    // A private address in X-Forwarded-For: the proxy appends the real one; the shop must take the last.
    const admin = new Browser(viaProxy, '10.0.0.1');

    const signIn = await admin.postJson('/api/auth/sign-in/email', { email, password: 'correct horse 42' });
    expect(signIn.status).toBe(200);
    expect(signIn.headers.getSetCookie().join('\n')).toMatch(/__Secure-.*; Secure/i);

    const form = new FormData();
    const fields = courseFormFields({
      title: 'Behind the proxy',
      description: 'A course uploaded through an HTTPS proxy.',
      instructorName: 'Proxy Tester',
      instructorBio: 'Runs shops behind proxies.',
      price: '12',
    });
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    const pdf = await makePdf('Behind the proxy');
    form.set('pdf', new File([Buffer.from(pdf)], 'course.pdf', { type: 'application/pdf' }));
    form.set('cover', new File([Buffer.from(makePng())], 'cover.png', { type: 'image/png' }));
    const upload = await admin.request('/api/admin/courses?lang=en', { method: 'POST', body: form });
    expect(upload.status, await upload.clone().text()).toBe(201);
    const courseId = ((await upload.json()) as { course: { id: string } }).course.id;

    const checkout = await admin.postJson('/api/checkout', {
      acceptTerms: true,
      waiveWithdrawal: true,
      courseId,
      email,
      fullName: 'Proxy Admin',
      language: 'en',
    });
    expect(checkout.status).toBe(200);
    const paymentUrl = ((await checkout.json()) as { redirectUrl: string }).redirectUrl;
    // Links the shop gives out name the public origin, never the internal address.
    expect(paymentUrl.startsWith(`${PUBLIC_ORIGIN}/en/checkout/demo/demo_`)).toBe(true);
    const paymentId = paymentUrl.split('/').at(-1)!;
    const pay = await admin.request(`/api/checkout/demo/${paymentId}`, { method: 'POST' });
    expect(pay.status).toBe(200);

    const purchase = await db()
      .selectFrom('purchases')
      .select(['id', 'status'])
      .where('payment_id', '=', paymentId)
      .executeTakeFirstOrThrow();
    expect(purchase.status).toBe('completed');
    const signed = await admin.request(`/api/account/purchases/${purchase.id}/download`);
    expect(signed.status).toBe(302);
    const file = await admin.request(signed.headers.get('location')!.replace(PUBLIC_ORIGIN, ''));
    expect(file.status).toBe(200);
    // The course as uploaded, stamped for its buyer on every page.
    const read = await readPdf(Buffer.from(await file.arrayBuffer()));
    expect(read.pages).toHaveLength(1);
    expect(read.pages[0]!.text).toContain('Behind the proxy');
    expect(read.pages[0]!.text).toContain(`Licensed to Proxy Admin ${email} · order ${orderReference(purchase.id)}`);
  });

  it('still refuses a write from another site', async () => {
    const response = await viaProxy.fetch('/api/contact', {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=Eve',
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
  });
});
