import { useSyncExternalStore } from 'react';

const subscribeToNothing = () => () => {};

/**
 * A value only the browser knows (the address bar, local storage), read without a hydration
 * mismatch: `onServer` while the server renders and the island hydrates, then the browser's value.
 */
export function useBrowserValue<T>(read: () => T, onServer: T): T {
  return useSyncExternalStore(subscribeToNothing, read, () => onServer);
}
