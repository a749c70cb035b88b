import type { Db } from '../db/database.ts';

/**
 * The seller's settings documents (shop, currencies, taxes, payment choices, legal texts), cached in
 * memory per process: a checkout reads several, and each read was a statement. A save drops them all
 * here at once (the saving function calls forgetSettings) and in every other instance through the
 * SHOP_TAG it announces (start.ts); the time limit is only the ceiling for changes made straight in
 * the database.
 */
const FRESH_MS = 60_000;

// The server bundle and the start script each load this module; both must drop the same cache.
const STORE = Symbol.for('microcourses.settings-cache');
const shared = globalThis as { [STORE]?: Map<string, { at: number; value: Promise<unknown> }> };
const entries = (shared[STORE] ??= new Map());

export function forgetSettings(): void {
  entries.clear();
}

/**
 * `read` cached under `key`, through `database` when given (a command has a pool of its own, and must not
 * open the shared one). Inside a transaction with nothing cached, the read goes through it, so a
 * transaction holding a lock never waits for a second connection from the pool; what it reads is not
 * kept, since it may be the transaction's own uncommitted write.
 */
export function cachedRead<T>(key: string, read: (database?: Db) => Promise<T>, database?: Db): Promise<T> {
  const cached = entries.get(key);
  if (cached && Date.now() - cached.at < FRESH_MS) return cached.value as Promise<T>;
  if (database?.isTransaction) return read(database);
  const value = read(database);
  entries.set(key, { at: Date.now(), value });
  // A failed read is not kept: the next caller tries again.
  value.catch(() => {
    if (entries.get(key)?.value === value) entries.delete(key);
  });
  return value;
}
