import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureUser } from '../../../functions/auth/users.ts';
import { saveContactMessage } from '../../../functions/contact/contact.ts';
import { db } from '../../../functions/db/database.ts';
import { queueCourseUpdateNotice } from '../../../functions/mail/course-update-notice.ts';
import { queueMail } from '../../../functions/mail/outbox.ts';
import { accountOfToken, unsubscribeToken, wantsCourseUpdates } from '../../../functions/mail/preferences.ts';
import { MAIL_SAMPLES } from '../../../functions/mail/templates/index.ts';
import { deliverDueMail, smtpTransport } from '../../../functions/mail/worker.ts';
import { LANGUAGES } from '../../../src/i18n/languages.ts';
import { plainText, startSmtpServer, type ReceivedMail } from '../../support/smtp.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';

const FROM = 'MicroCourses <no-reply@microcourses.example>';
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  // No SMTP and no dev mailbox: the shop's own worker sends nothing, so every mail leaves through this test's worker.
  server = await startTestServer({ DEV_TOOLS: 'off' });
});
afterAll(async () => {
  await server.stop();
  await smtp.stop();
});

/** Sends everything queued through real SMTP; returns what arrived for `to`. */
async function deliverTo(to: string): Promise<ReceivedMail[]> {
  while ((await deliverDueMail(db(), smtpTransport(smtp.url, FROM))).sent > 0);
  await smtp.waitFor((message) => message.to.includes(to));
  return smtp.messages.filter((message) => message.to.includes(to));
}

/** The header block of a raw message, unfolded. */
function headers(raw: string): Record<string, string> {
  const block = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return Object.fromEntries(
    block
      .split(/\r?\n/)
      .map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
}

describe('every kind of e-mail, as a real SMTP server receives it', () => {
  it('comes from the shop by name, answers to support, has a Message-ID on the site, both parts, and List-Unsubscribe only when optional', async () => {
    const site = new URL(process.env.PUBLIC_SITE_URL ?? 'http://localhost:4321').hostname;
    for (const sample of MAIL_SAMPLES) {
      for (const language of LANGUAGES) {
        const to = `${sample.kind}-${language}@example.com`;
        const mail = await sample.render(language);
        const id = await queueMail(db(), { ...mail, to });
        const [received] = await deliverTo(to);
        const where = `${sample.kind} (${language})`;
        expect(received, where).toBeDefined();
        const head = headers(received!.raw);
        expect(head.from, where).toBe('MicroCourses <no-reply@microcourses.example>');
        expect(head['reply-to'], where).toBe('support@microcourses.example');
        expect(head['message-id'], where).toBe(`<${id}@${site}>`);
        expect(received!.raw, where).toMatch(/Content-Type: text\/plain; charset=utf-8/i);
        expect(received!.raw, where).toMatch(/Content-Type: text\/html; charset=utf-8/i);
        expect(plainText(received!.raw).length, where).toBeGreaterThan(100);
        if (sample.optional) {
          expect(head['list-unsubscribe'], where).toMatch(/^<https:\/\/shop\.example\/api\/mail\/unsubscribe\?token=.+>$/);
          expect(head['list-unsubscribe-post'], where).toBe('List-Unsubscribe=One-Click');
        } else expect(head['list-unsubscribe'], where).toBeUndefined();
      }
    }
  });

  it('sends a contact-form message to the shop, answering to the person who wrote', async () => {
    await saveContactMessage(
      { name: 'Şule Işıklı', email: 'sule@example.com', subject: 'Fatura sorusu', message: 'Merhaba, fatura alabilir miyim?' },
      'tr',
    );
    const [received] = await deliverTo('support@microcourses.example');
    const head = headers(received!.raw);
    expect(head['reply-to']).toBe('sule@example.com');
    expect(plainText(received!.raw)).toContain('Merhaba, fatura alabilir miyim?');
  });
});

describe('course update notices', () => {
  it('go to buyers who want them, and stop with one click from the mail client', async () => {
    const email = 'update-reader@example.com';
    const { id } = await ensureUser(db(), {
      email,
      password: 'correct horse 42',
      fullName: 'Update Reader',
      role: 'user',
      language: 'tr',
    });
    const reader = { userId: id, email, name: 'Update Reader', language: 'tr' as const };
    const course = { title: 'Bütçe Temelleri', updatedOn: '24 Kasım 2026' };
    expect(await queueCourseUpdateNotice(db(), { ...reader, wantsUpdates: (await wantsCourseUpdates(id))! }, course)).toBe(true);
    const [notice] = await deliverTo(email);
    expect(plainText(notice!.raw)).toContain('Bütçe Temelleri');
    const oneClick = headers(notice!.raw)['list-unsubscribe']!.slice(1, -1);
    const token = new URL(oneClick).searchParams.get('token')!;
    expect(accountOfToken(token)).toBe(id);

    // Mail clients POST from their own servers, without an Origin.
    const post = (target: string) =>
      fetch(`${server.url}/api/mail/unsubscribe?token=${encodeURIComponent(target)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
    const tampered = `${token.slice(0, -2)}xx`;
    expect((await post(tampered)).status).toBe(404);
    expect(await wantsCourseUpdates(id)).toBe(true);
    expect((await post(token)).status).toBe(200);
    expect(await wantsCourseUpdates(id)).toBe(false);
    expect((await post(token)).status).toBe(200);

    expect(await queueCourseUpdateNotice(db(), { ...reader, wantsUpdates: false }, course)).toBe(false);
    expect(await deliverTo(email)).toHaveLength(1);
  });

  it('have a page that changes nothing when opened, and turns them back on with its button', async () => {
    const { id } = await ensureUser(db(), {
      email: 'page-reader@example.com',
      password: 'correct horse 42',
      fullName: 'Page Reader',
      role: 'user',
    });
    const token = unsubscribeToken(id);
    const page = await server.fetch(`/en/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(await page.text()).toContain('You get an e-mail when a course you own gets a new version.');
    expect(await wantsCourseUpdates(id)).toBe(true);

    const stop = await server.fetch('/api/mail/unsubscribe', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, lang: 'tr', choice: 'stop' }).toString(),
    });
    expect(stop.status).toBe(303);
    expect(stop.headers.get('location')).toBe(`/tr/unsubscribe?token=${encodeURIComponent(token)}&done=stop`);
    expect(await wantsCourseUpdates(id)).toBe(false);
    const turkish = await (await server.fetch(stop.headers.get('location')!)).text();
    expect(turkish).toContain('Tamam: artık kurs güncelleme e-postası gelmeyecek.');

    const resume = await server.fetch('/api/mail/unsubscribe', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, lang: 'en', choice: 'resume' }).toString(),
    });
    expect(resume.status).toBe(303);
    expect(await wantsCourseUpdates(id)).toBe(true);
    expect(await (await server.fetch('/en/unsubscribe?token=forged.token-that-is-long-enough')).text()).toContain(
      'This link is not valid.',
    );
  });
});
