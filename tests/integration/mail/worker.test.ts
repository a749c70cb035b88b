import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { queueMail, resendRefusedMail, unsentMail } from '../../../functions/mail/outbox.ts';
import { queueMailToRender, renderMail } from '../../../functions/mail/template.ts';
import { courseMaterials, passwordReset } from '../../../functions/mail/templates/index.ts';
import { deliverDueMail, MAX_RETRY_S, smtpTransport } from '../../../functions/mail/worker.ts';
import { findFreePort } from '../../../functions/db/embedded.ts';
import { plainText, startSmtpServer } from '../../support/smtp.ts';

const FROM = 'Shop <no-reply@shop.test>';

describe('mail worker', () => {
  it('keeps mail while SMTP is unreachable, backs off, then sends it exactly once', async () => {
    const id = await queueMail(
      db(),
      await renderMail(
        passwordReset,
        { name: 'Ada', url: 'https://shop.test/tr/reset-password?token=t' },
        { to: 'ada@example.com', language: 'tr' },
      ),
    );
    const deadPort = await findFreePort();

    const down = await deliverDueMail(db(), smtpTransport(`smtp://127.0.0.1:${deadPort}`, FROM));
    expect(down).toEqual({ sent: 0, failed: 1 });
    const waiting = await db().selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1 });
    expect(waiting.next_attempt_at.getTime()).toBeGreaterThan(Date.now());
    expect(waiting.last_error).toBeTruthy();
    expect(await deliverDueMail(db(), smtpTransport(`smtp://127.0.0.1:${deadPort}`, FROM))).toEqual({ sent: 0, failed: 0 });

    const smtp = await startSmtpServer();
    try {
      await sql`UPDATE mail_outbox SET next_attempt_at = now() WHERE id = ${id}`.execute(db());
      expect(await deliverDueMail(db(), smtpTransport(smtp.url, FROM))).toEqual({ sent: 1, failed: 0 });
      expect(await deliverDueMail(db(), smtpTransport(smtp.url, FROM))).toEqual({ sent: 0, failed: 0 });
      expect(smtp.messages).toHaveLength(1);
      const message = smtp.messages[0]!;
      expect(message.to).toEqual(['ada@example.com']);
      expect(message.raw).toMatch(/Subject: =\?UTF-8\?/);
      expect(message.raw).toContain('Content-Type: text/html');
      expect(plainText(message.raw)).toContain('Merhaba Ada');
      expect(
        await db().selectFrom('mail_outbox').select(['status', 'delivered_via']).where('id', '=', id).executeTakeFirstOrThrow(),
      ).toEqual({ status: 'sent', delivered_via: 'smtp' });
    } finally {
      await smtp.stop();
    }
  });

  it('renders a mail queued to be rendered as it sends it: the same mail, in its language, kept in its row', async () => {
    const props = courseMaterials.sample('tr');
    const delivery = { to: `render-later-${Date.now()}@example.com`, language: 'tr' as const };
    await db()
      .transaction()
      .execute((trx) => queueMailToRender(trx, courseMaterials, props, delivery));
    const queued = () =>
      db()
        .selectFrom('mail_outbox')
        .select(['subject', 'html', 'text', 'render_with'])
        .where('recipient', '=', delivery.to)
        .executeTakeFirstOrThrow();
    const expected = await renderMail(courseMaterials, props, delivery, db());
    expect(await queued()).toMatchObject({ subject: expected.subject, html: '', text: '' });
    const smtp = await startSmtpServer();
    try {
      while ((await deliverDueMail(db(), smtpTransport(smtp.url, FROM))).sent > 0 && smtp.messages.length < 100);
      const message = smtp.messages.find((sent) => sent.to.includes(delivery.to))!;
      expect(plainText(message.raw)).toContain(props.courseTitle);
      expect(await queued()).toEqual({ subject: expected.subject, html: expected.html, text: expected.text, render_with: null });
    } finally {
      await smtp.stop();
    }
  });

  it('lets two workers share the outbox without sending anything twice', async () => {
    for (let n = 0; n < 30; n++)
      await queueMail(
        db(),
        await renderMail(
          passwordReset,
          { name: 'N', url: 'https://shop.test/x' },
          { to: `many${n}@example.com`, language: 'en' },
        ),
      );
    const smtp = await startSmtpServer();
    try {
      const transport = smtpTransport(smtp.url, FROM);
      while ((await db().selectFrom('mail_outbox').select('id').where('status', '=', 'pending').execute()).length > 0) {
        await Promise.all([deliverDueMail(db(), transport), deliverDueMail(db(), transport)]);
      }
      const recipients = smtp.messages.flatMap((message) => message.to).filter((to) => to.startsWith('many'));
      expect(recipients).toHaveLength(30);
      expect(new Set(recipients).size).toBe(30);
    } finally {
      await smtp.stop();
    }
  });

  it('never gives up: mail refused past the old 25-attempt cap (15 hours) is tried hourly, counted, and sent once SMTP returns', async () => {
    const id = await queueMail(
      db(),
      await renderMail(passwordReset, { name: 'Ada', url: 'https://shop.test/x' }, { to: 'outage@example.com', language: 'en' }),
    );
    await sql`UPDATE mail_outbox SET attempts = 30, created_at = now() - interval '2 days' WHERE id = ${id}`.execute(db());

    const dead = smtpTransport(`smtp://127.0.0.1:${await findFreePort()}`, FROM);
    expect(await deliverDueMail(db(), dead)).toEqual({ sent: 0, failed: 1 });
    const waiting = await db().selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(waiting).toMatchObject({ status: 'pending', attempts: 31 });
    expect(Math.abs(waiting.next_attempt_at.getTime() - Date.now() - MAX_RETRY_S * 1000)).toBeLessThan(60_000);
    expect(await unsentMail(db())).toEqual({
      count: 1,
      oldestQueuedAt: waiting.created_at,
      lastError: expect.stringContaining('ECONNREFUSED') as string,
    });

    // A mail a worker is sending right now (claimed, attempt counted) is not refused: "Send them now" leaves it be.
    const inFlight = await queueMail(
      db(),
      await renderMail(
        passwordReset,
        { name: 'Bo', url: 'https://shop.test/y' },
        { to: 'in-flight@example.com', language: 'en' },
      ),
    );
    await sql`UPDATE mail_outbox SET attempts = 1, locked_until = now() + interval '1 minute' WHERE id = ${inFlight}`.execute(
      db(),
    );

    // The admin's "Send them now": it leaves at the next round, not an hour later.
    expect(await resendRefusedMail(db())).toBe(1);
    expect(await db().selectFrom('mail_outbox').select('attempts').where('id', '=', inFlight).executeTakeFirstOrThrow()).toEqual({
      attempts: 1,
    });
    await db().deleteFrom('mail_outbox').where('id', '=', inFlight).execute();
    const smtp = await startSmtpServer();
    try {
      expect(await deliverDueMail(db(), smtpTransport(smtp.url, FROM))).toEqual({ sent: 1, failed: 0 });
      expect(smtp.messages.map((message) => message.to)).toEqual([['outage@example.com']]);
      expect(await unsentMail(db())).toMatchObject({ count: 0 });
    } finally {
      await smtp.stop();
    }
  });
});
