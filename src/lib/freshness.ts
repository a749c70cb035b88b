import type { CacheOptions } from 'astro';

/**
 * Catalogue pages are cached in memory for 30 s and may be served stale for 30 s more while
 * they refresh: an editor's change reaches every reader within 60 s, and most requests never
 * touch the database. Admin writes also invalidate the tag at once.
 */
export const CATALOGUE_CACHE_TAG = 'catalogue';
export const CATALOGUE_CACHE: CacheOptions = { maxAge: 30, swr: 30, tags: [CATALOGUE_CACHE_TAG] };
