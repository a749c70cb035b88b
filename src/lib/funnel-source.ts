/**
 * Where a visitor came from, as the funnel counts it (functions/funnel/): the landing URL's
 * utm_source, utm_medium and utm_campaign, and the referring site's host ('' for none). Client-safe:
 * the course page's script carries the same source to its checkout links (`ref` names the host).
 */
export interface FunnelSource {
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  referrerHost: string;
}

export const NO_SOURCE: FunnelSource = { utmSource: '', utmMedium: '', utmCampaign: '', referrerHost: '' };
/** The query parameters that carry a source: never part of a cached page's key (functions/http/cache-rules.ts). */
export const SOURCE_PARAMS = ['utm_source', 'utm_medium', 'utm_campaign', 'ref'] as const;
const MAX_TAG_LENGTH = 100;
const MAX_HOST_LENGTH = 253;

/** A tag as counted: trimmed, lower case, no control characters, at most 100 characters. */
export function cleanTag(value: string | null | undefined): string {
  if (!value) return '';
  return value
    .replace(/\p{Cc}/gu, '')
    .trim()
    .toLowerCase()
    .slice(0, MAX_TAG_LENGTH);
}

/** A host name as counted, or '' when it is not one. */
export function cleanHost(value: string | null | undefined): string {
  const host = (value ?? '').trim().toLowerCase();
  return host.length <= MAX_HOST_LENGTH && /^[a-z0-9.-]+$/.test(host) && host.includes('.') ? host : '';
}

/** The tags of a query string (`ref` is a host the course page's script passed on). */
export function sourceOfQuery(params: URLSearchParams): FunnelSource {
  return {
    utmSource: cleanTag(params.get('utm_source')),
    utmMedium: cleanTag(params.get('utm_medium')),
    utmCampaign: cleanTag(params.get('utm_campaign')),
    referrerHost: cleanHost(params.get('ref')),
  };
}

/** The referring page's host when it is another site's, else ''. */
export function externalHost(referrer: string | null | undefined, ownHost: string | null | undefined): string {
  if (!referrer) return '';
  try {
    const host = new URL(referrer).hostname;
    return host && host !== (ownHost ?? '').replace(/:\d+$/, '') ? cleanHost(host) : '';
  } catch {
    return '';
  }
}

/** The tags of the page a request was sent from (the checkout page's address), when it is this site's. */
export function sourceOfReferrer(referrer: string | null, origins: string[]): FunnelSource {
  if (!referrer) return NO_SOURCE;
  try {
    const url = new URL(referrer);
    return origins.includes(url.origin) ? sourceOfQuery(url.searchParams) : NO_SOURCE;
  } catch {
    return NO_SOURCE;
  }
}

export function hasSource(source: FunnelSource): boolean {
  return Boolean(source.utmSource || source.utmMedium || source.utmCampaign || source.referrerHost);
}
