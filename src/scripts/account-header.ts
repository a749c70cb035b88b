import { localizedPath, languageOfPath, DEFAULT_LANGUAGE } from '../i18n/languages.ts';
import { signOut } from '../lib/auth-client.ts';
import { setLogUser } from '../lib/logger.ts';
import { $ownedCourses, type OwnedCourse } from '../stores/owned.ts';
import { adoptAccountWishlist, keepGuestWishlist } from '../stores/wishlist.ts';

/**
 * The header's account state on pages that are the same for everyone (cached).
 * The last known state is shown at once from sessionStorage, then confirmed with the server.
 */
interface AccountState {
  id: string;
  email: string;
  role: 'user' | 'admin';
  owned?: OwnedCourse[];
}

const STORAGE_KEY = 'account';

export async function showAccount(): Promise<void> {
  const cached = sessionStorage.getItem(STORAGE_KEY);
  if (cached) render(JSON.parse(cached) as AccountState);
  for (const button of document.querySelectorAll('[data-logout]')) button.addEventListener('click', () => void logout());
  try {
    const response = await fetch('/api/session', { credentials: 'same-origin' });
    const { user, owned, wishlist, secondFactorPending } = (await response.json()) as {
      user: AccountState | null;
      owned: OwnedCourse[];
      wishlist: string[];
      secondFactorPending?: boolean;
    };
    const state = user && { id: user.id, email: user.email, role: user.role, owned };
    if (state) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(state));
    else sessionStorage.removeItem(STORAGE_KEY);
    render(state, secondFactorPending === true);
    if (state) void adoptAccountWishlist(wishlist);
    else keepGuestWishlist();
    // This browser's log entries say who was signed in (the server records its own view too).
    setLogUser(user?.id ?? null);
  } catch {
    // Offline: keep what is shown; the wishlist is this browser's until the server answers.
    keepGuestWishlist();
  }
}

/** Signed in, signed out, or half-way: a session waiting on its second factor is offered to finish or sign out. */
function render(user: AccountState | null, secondFactorPending = false): void {
  for (const element of document.querySelectorAll<HTMLElement>('[data-signed-out]'))
    element.hidden = Boolean(user) || secondFactorPending;
  for (const element of document.querySelectorAll<HTMLElement>('[data-second-factor-pending]'))
    element.hidden = !secondFactorPending;
  // Finishing the sign-in comes back here (the two-factor page checks that `next` is a path of this site).
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-finish-sign-in]'))
    if (!/\/two-factor$/.test(location.pathname))
      link.href = `${link.pathname}?next=${encodeURIComponent(location.pathname + location.search)}`;
  for (const element of document.querySelectorAll<HTMLElement>('[data-signed-in]')) element.hidden = !user;
  for (const element of document.querySelectorAll<HTMLElement>('[data-account-email]')) element.textContent = user?.email ?? '';
  for (const element of document.querySelectorAll<HTMLElement>('[data-admin-only]')) element.hidden = user?.role !== 'admin';
  $ownedCourses.set(user?.owned ?? []);
}

async function logout(): Promise<void> {
  await signOut();
  sessionStorage.removeItem(STORAGE_KEY);
  location.assign(localizedPath(languageOfPath(location.pathname) ?? DEFAULT_LANGUAGE, '/'));
}
