import { readFileSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureUser } from '../../../functions/auth/users.ts';
import { SERVER_ENTRY } from '../../../functions/cli/build-if-needed.ts';
import { db } from '../../../functions/db/database.ts';
import { startFakeStripe } from '../../support/fake-stripe.ts';
import { makeCourse, uniqueEmail } from '../../support/factories.ts';
import { plainText, startSmtpServer } from '../../support/smtp.ts';
import { Browser, startTestServer } from '../../support/test-server.ts';

/**
 * One build, deployed to two sites: each production start carries the URL it is given, with no rebuild
 * (staging then production, or one image for several shops).
 */
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
beforeAll(async () => {
  [smtp, stripe] = await Promise.all([startSmtpServer(), startFakeStripe()]);
});
afterAll(() => Promise.all([smtp.stop(), stripe.stop()]));

const builtAt = () => ({ fingerprint: readFileSync('dist/.build-fingerprint', 'utf8'), entry: statSync(SERVER_ENTRY).mtimeMs });

describe('one build for any site URL', () => {
  it('serves canonical, hreflang, sitemap, RSS, mail and payment links with the URL given at start', async () => {
    const before = builtAt();
    const course = await makeCourse({ price_minor: 4900, currency: 'USD', language: 'en' });
    for (const site of ['https://staging.shop-a.example', 'https://www.shop-b.example']) {
      const server = await startTestServer({
        NODE_ENV: 'production',
        PRODUCTION_CHECKS: 'test-harness',
        DEV_TOOLS: '',
        PUBLIC_SITE_URL: site,
        SMTP_URL: smtp.url,
        ...stripe.settings,
      });
      try {
        const browser = new Browser(server);
        const page = await (await browser.request('/en/about')).text();
        expect(page).toContain(`<link rel="canonical" href="${site}/en/about">`);
        expect(page).toContain(`hreflang="tr" href="${site}/tr/about"`);
        expect(await (await browser.request('/sitemap.xml')).text()).toContain(`<loc>${site}/en/about</loc>`);
        expect(await (await browser.request('/en/rss.xml')).text()).toContain(`<link>${site}/en/blog</link>`);

        const checkout = await browser.postJson('/api/checkout', {
          acceptTerms: true,
          waiveWithdrawal: true,
          courseId: course.id,
          email: uniqueEmail('one-build'),
          fullName: 'Deploy Tester',
          language: 'en',
        });
        expect(checkout.status).toBe(200);
        const session = stripe.requests.findLast((request) => request.path === '/v1/checkout/sessions')!;
        expect(session.body.get('success_url')).toMatch(new RegExp(`^${site}/en/checkout/success\\?`));
        expect(session.body.get('cancel_url')).toBe(`${site}/en/courses/${course.id}?canceled=true`);

        const owner = uniqueEmail('reset');
        await ensureUser(db(), { email: owner, password: 'owner password 1', fullName: 'Owner', role: 'user' });
        expect((await browser.postJson('/api/auth/request-password-reset', { email: owner }, { origin: site })).status).toBe(200);
        const mail = await smtp.waitFor((message) => message.to.includes(owner));
        expect(plainText(mail.raw)).toContain(`${site}/`);
      } finally {
        await server.stop();
      }
    }
    expect(builtAt()).toEqual(before);
  }, 90_000);
});
