import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { mailboxKey } from '../mail/mailbox-key.ts';
import { getT } from '../../src/i18n/i18n.ts';
import type { Language } from '../../src/i18n/languages.ts';
import { TOPICS } from '../../src/lib/audience.schema.ts';
import { fingerprint } from '../shop/legal.ts';
import { consentRow, type ConsentContext } from './consent.ts';

/** A buyer whose export (Gumroad's "Do not contact?" 0, Payhip's "unconsented from emails" false) says they agreed. */
export interface ImportedConsent {
  email: string;
  language: Language;
}

/**
 * Consent carried over from another platform's export (Admin → Import): recorded in the ledger as it
 * stands, its source the import and its text saying where it came from, so the record never claims
 * the reader confirmed anything here. Only mailboxes the list has never seen are added, active: a
 * reader who left, or is still confirming a sign-up of their own, stays exactly as they chose, and
 * importing the same file again adds nothing. Returns how many were added.
 */
export async function recordImportedConsents(
  trx: Transaction<Database>,
  consents: ImportedConsent[],
  origin: { platform: string; column: string; clientIp: string },
): Promise<number> {
  let added = 0;
  // A statement's parameters are limited (65,535): a few thousand rows at a time.
  for (let start = 0; start < consents.length; start += BATCH)
    added += await recordBatch(trx, consents.slice(start, start + BATCH), origin);
  return added;
}

const BATCH = 2000;

async function recordBatch(
  trx: Transaction<Database>,
  consents: ImportedConsent[],
  origin: { platform: string; column: string; clientIp: string },
): Promise<number> {
  const now = new Date();
  const byKey = new Map(consents.map((consent) => [mailboxKey(consent.email), consent]));
  const added = await trx
    .insertInto('subscribers')
    .values(
      [...byKey].map(([key, consent]) => ({
        email: consent.email,
        mailbox_key: key,
        languages: [consent.language],
        topics: [...TOPICS],
        status: 'active' as const,
        confirmed_at: now,
      })),
    )
    .onConflict((conflict) => conflict.column('mailbox_key').doNothing())
    .returning(['id', 'mailbox_key'])
    .execute();
  if (added.length === 0) return 0;
  await trx
    .insertInto('subscriber_consents')
    .values(
      added.map((subscriber) => {
        const { language } = byKey.get(subscriber.mailbox_key)!;
        const text = getT(language)(WORDING_KEY, { platform: origin.platform, column: origin.column });
        const context: ConsentContext = { language, source: 'import', page: IMPORT_PAGE, clientIp: origin.clientIp };
        return {
          ...consentRow(subscriber.id, 'grant', { key: WORDING_KEY, version: fingerprint(text), text }, context),
          confirmed_at: now,
        };
      }),
    )
    .execute();
  return added.length;
}

const WORDING_KEY = 'audience.importedConsent';
const IMPORT_PAGE = '/admin/import';
