import { idOfSignedToken, signedIdToken } from '../auth/signing.ts';
import { siteUrl } from '../env.ts';
import type { Language } from '../../src/i18n/languages.ts';

/**
 * A subscriber's own links, made the way course update mails make theirs (functions/mail/preferences.ts):
 * a token signed for the subscriber (no sign-in, nothing to guess), under a purpose of its own, for
 * the preferences page and for the one-click unsubscribe mail clients send (RFC 8058).
 */
const PURPOSE = 'audience-preferences';

export function subscriberToken(subscriberId: string): string {
  return signedIdToken(PURPOSE, subscriberId);
}

export function subscriberLinks(subscriberId: string, language: Language): { oneClickUrl: string; pageUrl: string } {
  return linksWithToken(encodeURIComponent(subscriberToken(subscriberId)), language);
}

/**
 * Where a subscriber's token goes in their links: a broadcast renders its mail once with this in
 * place of the token, and each recipient's copy gets their own (`withSubscriberToken`).
 */
export const SUBSCRIBER_TOKEN_SLOT = 'SUBSCRIBERTOKENSLOT';

export function slottedSubscriberLinks(language: Language): { oneClickUrl: string; pageUrl: string } {
  return linksWithToken(SUBSCRIBER_TOKEN_SLOT, language);
}

/** A text rendered with `slottedSubscriberLinks`, made one subscriber's. */
export function withSubscriberToken(text: string, subscriberId: string): string {
  return text.replaceAll(SUBSCRIBER_TOKEN_SLOT, encodeURIComponent(subscriberToken(subscriberId)));
}

function linksWithToken(token: string, language: Language): { oneClickUrl: string; pageUrl: string } {
  return {
    oneClickUrl: `${siteUrl()}/api/audience/unsubscribe?token=${token}&lang=${language}`,
    pageUrl: `${siteUrl()}/${language}/subscription?token=${token}`,
  };
}

/** The subscriber a token was signed for; undefined for a malformed or tampered one. */
export function subscriberOfToken(token: string): string | undefined {
  return idOfSignedToken(PURPOSE, token);
}
