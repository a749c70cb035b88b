import { db } from '../db/database.ts';

/**
 * İYS (İleti Yönetim Sistemi), Türkiye's register of consents to commercial electronic messages
 * (Law 6563): a sender uploads each consent it holds. One row per consent event in force: a confirmed
 * sign-up (ONAY, at its confirmation: double opt-in makes that the moment of consent) and every
 * withdrawal (RET). The columns are İYS's consent fields as its API names them, in the order the
 * issue lists them; check them against the bulk-upload template in your İYS panel before uploading.
 */
export const IYS_COLUMNS = ['type', 'recipient', 'status', 'consentDate', 'source', 'recipientType'] as const;

/** The channel: e-mail. */
const TYPE = 'EPOSTA';
/** A private person (the shop's forms do not ask whether a reader is a trader: TACIR). */
const RECIPIENT_TYPE = 'BIREYSEL';

/**
 * The shop's forms and pages are İYS's HS_WEB; a one-click unsubscribe arrives from the reader's
 * mail program, answering our e-mail: HS_EPOSTA.
 */
const sourceOf = (source: string) => (source === 'one-click' ? 'HS_EPOSTA' : 'HS_WEB');

/** `YYYY-MM-DD HH:mm:ss` in Türkiye's time, as İYS writes consent dates. */
export function iysDate(date: Date): string {
  return date.toLocaleString('sv-SE', { timeZone: 'Europe/Istanbul', hour12: false });
}

export async function iysConsentRows(): Promise<string[][]> {
  const rows = await db()
    .selectFrom('subscriber_consents')
    .innerJoin('subscribers', 'subscribers.id', 'subscriber_consents.subscriber_id')
    .select(['subscribers.email', 'subscriber_consents.action', 'subscriber_consents.confirmed_at', 'subscriber_consents.source'])
    .where('subscriber_consents.confirmed_at', 'is not', null)
    .orderBy('subscriber_consents.confirmed_at')
    .orderBy('subscriber_consents.id')
    .execute();
  return rows.map((row) => [
    TYPE,
    row.email,
    row.action === 'grant' ? 'ONAY' : 'RET',
    iysDate(row.confirmed_at!),
    sourceOf(row.source),
    RECIPIENT_TYPE,
  ]);
}
