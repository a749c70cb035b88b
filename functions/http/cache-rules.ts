import type { CacheRule } from './page-cache.ts';
import { filtersToQuery, parseFilters } from '../../src/lib/course-filters.ts';
import { asLanguage, isLanguage, LANGUAGE_PATTERN } from '../../src/i18n/languages.ts';
import { wishlistIdsOf } from '../../src/lib/wishlist.ts';
import { reviewPageOf } from '../../src/lib/reviews.schema.ts';

/**
 * Pages that are the same for every reader, and how long they may be served from memory. Every
 * change an editor makes purges its tag at once (see cache-notify.ts); the times are the ceiling for
 * changes made straight in the database. Fresh 30 s + stale-while-revalidate 30 s: never older than 60 s.
 */
export const CATALOGUE_TAG = 'catalogue';
export const BLOG_TAG = 'blog';
/** The shop's settings: every page names the shop in its header and footer. */
export const SHOP_TAG = 'shop';
/** The build's public files: they change only with a deploy. */
export const STATIC_TAG = 'static';
const FRESH = { maxAgeS: 30, swrS: 30 };

/** The catalogue reads its filters; anything else in the query shares the unfiltered page. */
const catalogueQuery = (params: URLSearchParams) => filtersToQuery(parseFilters(params));
const courseQuery = (params: URLSearchParams) => {
  const canonical = new URLSearchParams();
  if (params.get('canceled') === 'true') canonical.set('canceled', 'true');
  if (params.get('payment_failed') === 'true') canonical.set('payment_failed', 'true');
  const reviewsPage = reviewPageOf(params);
  if (reviewsPage > 1) canonical.set('reviews', String(reviewsPage));
  return canonical.size > 0 ? `?${canonical.toString()}` : '';
};
const coursesApiQuery = (params: URLSearchParams) => {
  const canonical = new URLSearchParams(catalogueQuery(params));
  const lang = params.get('lang');
  if (isLanguage(lang)) canonical.set('lang', lang);
  return canonical.size > 0 ? `?${canonical.toString()}` : '';
};

/** The contact page after a message sent without JavaScript says so (`?sent`, decision 34). */
const contactQuery = (params: URLSearchParams) => (params.has('sent') ? '?sent' : '');

const cardsQuery = (params: URLSearchParams) => {
  const canonical = new URLSearchParams({
    lang: asLanguage(params.get('lang')),
    ids: wishlistIdsOf(params.get('ids')).join(','),
  });
  return `?${canonical.toString()}`;
};

/** A path under any interface language: `route('/courses')` matches /en/courses and /tr/courses. */
const route = (rest: string) => new RegExp(`^/${LANGUAGE_PATTERN}${rest}$`);

/** Pages whose only changing part is the shop's settings (legal texts included). */
const SHOP_PAGES = [
  'about',
  'help',
  'terms',
  'privacy',
  'refund',
  'login',
  'signup',
  'forgot-password',
  'reset-password',
  'checkout/sent',
  'wishlist',
];

export const CACHE_RULES: CacheRule[] = [
  { pattern: route('/'), ...FRESH, tags: [CATALOGUE_TAG, SHOP_TAG] },
  { pattern: route('/courses/?'), ...FRESH, tags: [CATALOGUE_TAG, SHOP_TAG], canonicalQuery: catalogueQuery },
  { pattern: route('/courses?/[0-9a-zA-Z-]{1,64}/?'), ...FRESH, tags: [CATALOGUE_TAG, SHOP_TAG], canonicalQuery: courseQuery },
  { pattern: /^\/api\/courses$/, ...FRESH, tags: [CATALOGUE_TAG], canonicalQuery: coursesApiQuery },
  { pattern: /^\/api\/courses\/cards$/, ...FRESH, tags: [CATALOGUE_TAG], canonicalQuery: cardsQuery },
  { pattern: route('/blog(/[^/]{1,200})?/?'), ...FRESH, tags: [BLOG_TAG, SHOP_TAG] },
  { pattern: route('/rss\\.xml'), ...FRESH, tags: [BLOG_TAG, SHOP_TAG] },
  { pattern: /^\/sitemap\.xml$/, ...FRESH, tags: [CATALOGUE_TAG, BLOG_TAG] },
  { pattern: route(`/(${SHOP_PAGES.join('|')})/?`), ...FRESH, tags: [SHOP_TAG] },
  { pattern: route('/contact/?'), ...FRESH, tags: [SHOP_TAG], canonicalQuery: contactQuery },
];
