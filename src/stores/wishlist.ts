import { atom, computed } from 'nanostores';
import { persistentJSON } from '@nanostores/persistent';
import { requestJson } from '../lib/api-client.ts';
import { isCourseId, MAX_WISHLIST_SIZE } from '../lib/wishlist.ts';

/**
 * The wishlist. A guest's lives in this browser; once signed in, the account's list is the one
 * shown and written (the browser's list merges into it and is cleared, so a shared computer keeps
 * nothing after sign-out). `unknown` until the page has asked the server who is signed in.
 */
export const WISHLIST_STORAGE_KEY = 'wishlist';

const $guestWishlist = persistentJSON<string[]>(WISHLIST_STORAGE_KEY, []);
const $accountWishlist = atom<string[] | null>(null);
export const $wishlistSource = atom<'unknown' | 'guest' | 'account'>('unknown');

export const $wishlist = computed(
  [$guestWishlist, $accountWishlist],
  (guest, account) => account ?? (Array.isArray(guest) ? guest.filter(isCourseId) : []),
);

export async function toggleWishlist(courseId: string): Promise<boolean> {
  const adding = !$wishlist.get().includes(courseId);
  const account = $accountWishlist.get();
  if (account === null) {
    const current = $wishlist.get();
    $guestWishlist.set(adding ? [courseId, ...current].slice(0, MAX_WISHLIST_SIZE) : current.filter((id) => id !== courseId));
    return adding;
  }
  $accountWishlist.set(adding ? [courseId, ...account] : account.filter((id) => id !== courseId));
  const result = await requestJson<{ courseIds: string[] }>(adding ? 'PUT' : 'DELETE', `/api/account/wishlist/${courseId}`);
  $accountWishlist.set(result.ok ? result.data.courseIds : account);
  return adding;
}

/** Signed in: the account's list, after merging in what this browser saved as a guest. */
export async function adoptAccountWishlist(saved: string[]): Promise<void> {
  const guest = $accountWishlist.get() === null ? $wishlist.get() : [];
  $accountWishlist.set(saved);
  $wishlistSource.set('account');
  if (guest.length === 0) return;
  const merged = await requestJson<{ courseIds: string[] }>('POST', '/api/account/wishlist', { courseIds: guest });
  if (!merged.ok) return;
  $accountWishlist.set(merged.data.courseIds);
  $guestWishlist.set([]);
}

/** Signed out (or never signed in): this browser's own list. */
export function keepGuestWishlist(): void {
  $accountWishlist.set(null);
  $wishlistSource.set('guest');
}
