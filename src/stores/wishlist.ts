import { persistentJSON } from '@nanostores/persistent';

/** A guest's wishlist: course ids, kept in the browser until an account takes it over. */
export const WISHLIST_STORAGE_KEY = 'wishlist';
export const MAX_WISHLIST_SIZE = 200;

export const $wishlist = persistentJSON<string[]>(WISHLIST_STORAGE_KEY, []);

export function isInWishlist(courseId: string): boolean {
  return $wishlist.get().includes(courseId);
}

export function toggleWishlist(courseId: string): boolean {
  const current = $wishlist.get().filter((id) => typeof id === 'string');
  const adding = !current.includes(courseId);
  $wishlist.set(adding ? [courseId, ...current].slice(0, MAX_WISHLIST_SIZE) : current.filter((id) => id !== courseId));
  return adding;
}
