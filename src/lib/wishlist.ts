import { isUuid } from './uuid.ts';

/** A wishlist's size limit, in the browser and in the account alike. */
export const MAX_WISHLIST_SIZE = 200;

export function isCourseId(value: unknown): value is string {
  return isUuid(value);
}

/** Course ids from a query string (`?ids=a,b`): valid ones only, once each, in order, at most the cap. */
export function wishlistIdsOf(value: string | null): string[] {
  return [...new Set((value ?? '').split(',').filter(isCourseId))].slice(0, MAX_WISHLIST_SIZE);
}
