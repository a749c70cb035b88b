import { externalHost, hasSource, sourceOfQuery } from '../lib/funnel-source.ts';

/**
 * A course page reached from a tagged link or another site passes that source on to its checkout
 * links (`utm_*`, and `ref` for the site's host), so the checkout it starts is counted under the same
 * source (decision 45). Nothing is stored in the browser; without this script, checkouts count as direct.
 */
export function carrySourceToCheckout(): void {
  const source = sourceOfQuery(new URLSearchParams(location.search));
  if (!source.referrerHost) source.referrerHost = externalHost(document.referrer, location.host);
  if (!hasSource(source)) return;
  const tags: [string, string][] = [
    ['utm_source', source.utmSource],
    ['utm_medium', source.utmMedium],
    ['utm_campaign', source.utmCampaign],
    ['ref', source.referrerHost],
  ];
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-buy-for]')) {
    const url = new URL(link.href);
    for (const [name, value] of tags) if (value) url.searchParams.set(name, value);
    link.href = url.toString();
  }
}
