import { getT, type MessageKey } from '../../src/i18n/i18n.ts';
import type { Language } from '../../src/i18n/languages.ts';
import type { ConsentSource } from '../../src/lib/audience.schema.ts';
import { fingerprint } from '../shop/legal.ts';

/**
 * The sentences a reader agrees to, by where they saw them. The form and the checkout box show the
 * text of these keys; the record keeps the key, a version (a fingerprint of the text in the reader's
 * language, so a changed wording is a new version by itself) and the text itself.
 */
export const CONSENT_WORDINGS = {
  form: 'audience.consentForm',
  checkout: 'audience.consentCheckout',
  leave: 'audience.prefs.leave',
} as const satisfies Record<string, MessageKey>;

export interface Wording {
  key: string;
  version: string;
  text: string;
}

export function wordingOf(key: MessageKey, language: Language): Wording {
  const text = getT(language)(key);
  return { key, version: fingerprint(text), text };
}

/** A one-click unsubscribe is the mail client's POST (RFC 8058), not a sentence of ours. */
export const ONE_CLICK_WORDING: Wording = {
  key: 'rfc8058',
  version: 'RFC 8058',
  text: 'List-Unsubscribe=One-Click',
};

/** Where and how a consent was given or withdrawn, as the record keeps it. */
export interface ConsentContext {
  language: Language;
  source: ConsentSource;
  /** The page's path (without the site), e.g. `/en/blog/first-budget`. */
  page: string;
  /** The client address as the shop reads it everywhere (src/server/client-ip.ts), as orders keep it. */
  clientIp: string;
}

export const consentRow = (subscriberId: string, action: 'grant' | 'withdraw', wording: Wording, context: ConsentContext) => ({
  subscriber_id: subscriberId,
  action,
  wording_key: wording.key,
  wording_version: wording.version,
  wording_text: wording.text,
  source: context.source,
  page: context.page.slice(0, 500),
  language: context.language,
  client_ip: context.clientIp.slice(0, 100),
});
