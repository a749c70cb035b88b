import { siteUrl } from '../../functions/env.ts';

/**
 * The shop's public origin, for absolute links (canonical, hreflang, Open Graph, sitemap, RSS).
 * Read from the environment where the page is rendered, not from the build, so PUBLIC_SITE_URL
 * takes effect without a rebuild for on-demand pages (and start-up rebuilds when it changes).
 */
export function siteOrigin(): URL {
  return new URL(siteUrl());
}
