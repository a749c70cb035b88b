import { useEffect, useRef, useState } from 'react';

/** How long typing must pause before the text is kept in the browser, and before a draft is saved. */
export const LOCAL_COPY_DELAY_MS = 500;
export const AUTOSAVE_DELAY_MS = 3_000;

const STORAGE_PREFIX = 'blog-editor:';

export interface LocalCopy<V> {
  values: V;
  /** ISO: when the browser kept it. */
  keptAt: string;
}

const storageKeyOf = (key: string) => `${STORAGE_PREFIX}${key}`;

/**
 * The editor's text, kept in this browser (localStorage) while it is typed, per post (`new` for a new
 * one): a closed tab, a crash or an expired session never loses it. Forgotten once the server has it.
 * (The editor opens in a dialog, on the client only: reading storage while rendering is safe.)
 */
export function readLocalCopy<V>(key: string, initial: V): LocalCopy<V> | undefined {
  return readCopy(storageKeyOf(key), initial);
}

export function forgetLocalCopy(key: string): void {
  try {
    localStorage.removeItem(storageKeyOf(key));
  } catch {
    // Storage refused (private mode, quota): there is nothing kept to forget.
  }
}

/** Keeps `values` in the browser a moment after each change (not the values as first shown). */
export function useKeepLocalCopy<V>(key: string, values: V): void {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const timer = setTimeout(
      () => writeCopy(storageKeyOf(key), { values, keptAt: new Date().toISOString() }),
      LOCAL_COPY_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [key, values]);
}

function readCopy<V>(storageKey: string, initial: V): LocalCopy<V> | undefined {
  try {
    const raw = localStorage.getItem(storageKey);
    if (!raw) return undefined;
    const copy = JSON.parse(raw) as LocalCopy<V>;
    if (typeof copy !== 'object' || copy === null || typeof copy.keptAt !== 'string' || typeof copy.values !== 'object')
      return undefined;
    const values = { ...initial, ...copy.values };
    return JSON.stringify(values) === JSON.stringify(initial) ? undefined : { values, keptAt: copy.keptAt };
  } catch {
    return undefined;
  }
}

function writeCopy<V>(storageKey: string, copy: LocalCopy<V>): void {
  try {
    localStorage.setItem(storageKey, JSON.stringify(copy));
  } catch {
    // Storage full or refused: the server autosave and the form itself still hold the text.
  }
}

export type AutosaveState =
  { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved'; at: Date } | { kind: 'failed' } | { kind: 'signedOut' };

/**
 * Saves a draft to the server a moment after typing stops (`save` decides whether there is anything
 * valid to send and returns the HTTP status, or undefined when it sent nothing). 401 means the session
 * ended: the caller keeps the text and asks to sign in again.
 */
export function useServerAutosave<V>(values: V, enabled: boolean, save: (values: V) => Promise<number | undefined>) {
  const [state, setState] = useState<AutosaveState>({ kind: 'idle' });
  const saveRef = useRef(save);
  useEffect(() => {
    saveRef.current = save;
  });
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (!enabled) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      setState({ kind: 'saving' });
      void saveRef.current(values).then(
        (status) => {
          if (cancelled) return;
          if (status === undefined) setState({ kind: 'idle' });
          else if (status === 401) setState({ kind: 'signedOut' });
          else setState(status < 300 ? { kind: 'saved', at: new Date() } : { kind: 'failed' });
        },
        () => !cancelled && setState({ kind: 'failed' }),
      );
    }, AUTOSAVE_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [values, enabled]);
  return { state, setState };
}
