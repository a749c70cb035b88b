import type pg from 'pg';

/**
 * Statements parsed and planned once per connection instead of at every use: a named statement is
 * sent whole the first time a connection runs it, then only bound and run. At checkout under a crowd
 * PostgreSQL spent about 40 % of its time parsing and planning the same statements again.
 *
 * Only on connections that are sessions of their own: through a transaction pooler, a statement parsed
 * on one server connection is unknown on the next. Pools on DATABASE_URL start naming once the change
 * feed has shown that it keeps sessions (a notification came back on it, cache-notify.ts); until then,
 * and on any other URL, statements are sent as before.
 */

/** Distinct statements a process names; any beyond are parsed at every use, as before. Bounds what each connection keeps. */
export const MAX_NAMED_STATEMENTS = 256;

// A `*` result takes its shape from the table: after a migration adds a column, a statement parsed
// before would fail ("cached plan must not change result type"). Such statements are never named.
const STAR_RESULT = /(?:\bselect|\breturning|,)\s*(?:(?:"[^"]*"|\w+)\.)?\*/i;
// PostgreSQL's code for that failure: the statement is never named again in this process.
const FEATURE_NOT_SUPPORTED = '0A000';

// One for the process: start.ts and the built server's bundled copy of this module share it.
const STORE = Symbol.for('microcourses.named-statements');
const shared = globalThis as { [STORE]?: { sessionUrls: Set<string>; names: Map<string, string | null> } };
const state = (shared[STORE] ??= { sessionUrls: new Set(), names: new Map() });
// A statement's text → its name, or null for one never named.
const names = state.names;

/**
 * From now on, pools on `url` name their statements: start.ts, once DATABASE_URL is shown to keep
 * sessions. Pools on any other URL (a pooler's, in the same process) are left as they are.
 */
export function startNamingStatements(url: string): void {
  state.sessionUrls.add(url);
}

type Query = (text: unknown, values?: unknown, callback?: unknown) => unknown;

/** The pool's connections (to `url`) name their statements once `url` is known to keep sessions (see startNamingStatements). */
export function nameStatementsOn(pool: pg.Pool, url: string): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as Query;
    const named: Query = (text, values, callback) => {
      const name =
        typeof text === 'string' && Array.isArray(values) && values.length > 0 && !callback && state.sessionUrls.has(url)
          ? nameOf(text)
          : undefined;
      if (!name) return query(text, values, callback);
      return (query({ name, text, values }) as Promise<unknown>).catch((error: unknown) => {
        if ((error as { code?: string }).code === FEATURE_NOT_SUPPORTED) names.set(text as string, null);
        throw error;
      });
    };
    (client as { query: Query }).query = named;
  });
}

function nameOf(text: string): string | undefined {
  const known = names.get(text);
  if (known !== undefined) return known ?? undefined;
  if (names.size >= MAX_NAMED_STATEMENTS) return undefined;
  const name = STAR_RESULT.test(text) ? null : `shop_${names.size}`;
  names.set(text, name);
  return name ?? undefined;
}
