import { createHash, randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { db, type Db } from '../db/database.ts';
import { siteUrl } from '../env.ts';
import { mailboxKey } from '../mail/mailbox-key.ts';
import { queueMail } from '../mail/outbox.ts';
import { renderMail } from '../mail/template.ts';
import { subscriptionConfirm } from '../mail/templates/index.ts';
import { TOPICS, type SubscribeRequest } from '../../src/lib/audience.schema.ts';
import { CONSENT_WORDINGS, consentRow, wordingOf, type ConsentContext, type Wording } from './consent.ts';

/** How long a confirmation link works. */
export const CONFIRMATION_TTL_HOURS = 48;

/** Runs `work` in the caller's transaction, or in a new one: a consent and its mail commit together. */
export function inTransaction<T>(database: Db, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return database.isTransaction ? work(database as Transaction<Database>) : database.transaction().execute(work);
}

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('base64url');

/**
 * Someone asked for the shop's news at `email`: the consent is recorded as given, unconfirmed, and
 * the address gets one link to confirm it (double opt-in, in the page's language). Whether the
 * address is new, waiting, subscribed or gone, the same happens and the caller answers the same:
 * nothing tells a visitor which addresses are on the list. A subscriber stays as they were (active
 * or not) until the link is used.
 */
export async function requestSubscription(database: Db, email: string, wording: Wording, context: ConsentContext): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  const url = `${siteUrl()}/${context.language}/subscribe/confirm?token=${token}`;
  await inTransaction(database, async (trx) => {
    const subscriber = await trx
      .insertInto('subscribers')
      .values({ email, mailbox_key: mailboxKey(email), languages: [context.language], topics: [...TOPICS] })
      .onConflict((conflict) => conflict.column('mailbox_key').doUpdateSet({ updated_at: new Date() }))
      .returning('id')
      .executeTakeFirstOrThrow();
    const consent = await trx
      .insertInto('subscriber_consents')
      .values(consentRow(subscriber.id, 'grant', wording, context))
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('subscriber_confirmations')
      .values({
        token_hash: hashToken(token),
        consent_id: consent.id,
        expires_at: new Date(Date.now() + CONFIRMATION_TTL_HOURS * 60 * 60 * 1000),
      })
      .execute();
    const mail = await renderMail(
      subscriptionConfirm,
      { url, hours: CONFIRMATION_TTL_HOURS },
      { to: email, language: context.language },
      trx,
    );
    await queueMail(trx, mail);
  });
}

/** A sign-up form of the shop, sent: the consent asked for with the form's own wording. */
export function subscribeFromForm(request: SubscribeRequest, clientIp: string): Promise<void> {
  const { email, language, source, page } = request;
  return requestSubscription(db(), email, wordingOf(CONSENT_WORDINGS.form, language), { language, source, page, clientIp });
}

/** "Subscribe again" on the preferences page of someone who left: a new consent, confirmed by mail like any other. */
export async function resubscribe(subscriberId: string, context: ConsentContext): Promise<boolean> {
  const subscriber = await db().selectFrom('subscribers').select('email').where('id', '=', subscriberId).executeTakeFirst();
  if (!subscriber) return false;
  await requestSubscription(db(), subscriber.email, wordingOf(CONSENT_WORDINGS.form, context.language), context);
  return true;
}
