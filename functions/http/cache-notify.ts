import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import pg from 'pg';
import { createDb, type Db } from '../db/database.ts';
import { log } from '../log.ts';
import { within } from '../timeout.ts';
import type { Database } from '../db/schema.ts';

/**
 * Cache purges travel through PostgreSQL: a writer announces a tag in its transaction (delivered
 * only if it commits), and every server instance drops the pages with that tag: at once through
 * LISTEN, or, where the database URL is a transaction pooler that cannot deliver notifications,
 * within PURGE_POLL_MS by reading the `cache_purges` rows the same transaction wrote.
 */
export const CACHE_CHANNEL = 'page_cache_purge';
/** How often an instance without LISTEN reads other instances' purges: the delay it states at start. */
export const PURGE_POLL_MS = 1000;
// A notification sent to ourselves arrives within milliseconds on a real session.
const PROBE_WAIT_MS = 2000;
const PROBE_PREFIX = 'probe:';
const KEEP_PURGES_MS = 60 * 60 * 1000;

export async function announceChange(database: Db, tag: string): Promise<void> {
  await sql`SELECT pg_notify(${CACHE_CHANNEL}, ${tag})`.execute(database);
  await database.insertInto('cache_purges').values({ tag }).execute();
}

export interface ChangeFeed {
  /** How purges from other instances arrive, for the start-up line. */
  how: string;
  /** A notification came back on DATABASE_URL itself: its connections are sessions (no transaction pooler). */
  sessions: boolean;
  stop(): Promise<void>;
}

/**
 * Follows other instances' purges: LISTEN on `listenUrl` when a notification sent through `url`
 * comes back there, else polling through `url`.
 */
export async function followChanges(
  { url, listenUrl }: { url: string; listenUrl: string },
  onTag: (tag: string) => void,
): Promise<ChangeFeed> {
  const probe = `${PROBE_PREFIX}${randomUUID()}`;
  let heard!: () => void;
  const probed = new Promise<void>((resolve) => (heard = resolve));
  const listener = listenForChanges(listenUrl, (tag) => {
    if (tag === probe) heard();
    else if (!tag.startsWith(PROBE_PREFIX)) onTag(tag);
  });
  await listener.listening;
  const sender = createDb(url, 1);
  try {
    await sql`SELECT pg_notify(${CACHE_CHANNEL}, ${probe})`.execute(sender);
  } finally {
    await sender.destroy();
  }
  const delivered = await within(
    probed.then(() => true),
    PROBE_WAIT_MS,
    false,
  );
  if (delivered)
    return {
      how: `at once (LISTEN on ${listenUrl === url ? 'DATABASE_URL' : 'DATABASE_DIRECT_URL'})`,
      sessions: listenUrl === url,
      stop: () => listener.stop(),
    };
  await listener.stop();
  const poller = pollForChanges(url, onTag);
  // Its first look sets the horizon: a change committed before it would be taken for an old one.
  await poller.ready;
  return {
    sessions: false,
    how: `polled every ${PURGE_POLL_MS / 1000} s (notifications do not come back through this database URL, as through a transaction pooler: set DATABASE_DIRECT_URL to a direct or session-mode URL for instant purges)`,
    stop: () => poller.stop(),
  };
}

/** Listens for purges; reconnects if the connection drops. `listening` settles after the first attempt. */
export function listenForChanges(
  connectionString: string,
  onTag: (tag: string) => void,
): { listening: Promise<void>; stop(): Promise<void> } {
  let client: pg.Client | undefined;
  let stopped = false;
  const connect = async () => {
    if (stopped) return;
    client = new pg.Client({ connectionString });
    client.on('notification', (message) => message.payload && onTag(message.payload));
    client.on('error', () => {
      client = undefined;
      // Whatever changed while disconnected is unknown: drop everything, then listen again.
      onTag('*');
      setTimeout(() => void connect(), 1000).unref();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CACHE_CHANNEL}`);
    } catch {
      client.emit('error', new Error('listen failed'));
    }
  };
  const listening = connect();
  return {
    listening,
    async stop() {
      stopped = true;
      await client?.end().catch(() => {});
    },
  };
}

/**
 * Reads purges by polling. Rows appear in commit order, not id order, so the reader keeps a horizon:
 * the oldest transaction still running when it last looked (`pg_snapshot_xmin`). Every row written by
 * an older transaction was visible then; rows at or past it are read again and told apart by id.
 * `ready` settles once the first look has set the horizon: changes committed from then on are heard.
 */
export function pollForChanges(
  connectionString: string,
  onTag: (tag: string) => void,
): { ready: Promise<void>; stop(): Promise<void> } {
  const database = createDb(connectionString, 1);
  let horizon: bigint | undefined;
  let seen = new Map<string, bigint>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const poll = async () => {
    const found = await database.transaction().execute(async (trx) => {
      const now = await sql<{ xmin: string }>`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`.execute(trx);
      const rows =
        horizon === undefined
          ? []
          : await trx
              .selectFrom('cache_purges')
              .select(['id', 'tag', sql<string>`txid::text`.as('txid')])
              .where(sql<boolean>`txid >= ${horizon.toString()}::xid8`)
              .execute();
      return { xmin: BigInt(now.rows[0]!.xmin), rows };
    });
    const fresh = new Set(found.rows.filter((row) => !seen.has(String(row.id))).map((row) => row.tag));
    horizon = found.xmin;
    seen = new Map(found.rows.map((row) => [String(row.id), BigInt(row.txid)] as const).filter(([, txid]) => txid >= found.xmin));
    for (const tag of fresh) onTag(tag);
  };
  const tick = () => {
    running = poll()
      .catch((error: unknown) => log.warn({ err: error }, 'could not read page purges'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, PURGE_POLL_MS);
      });
  };
  tick();
  const ready = running!.then(() => undefined);
  return {
    ready,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await database.destroy();
    },
  };
}

/** Drops purges every reader has long seen (instances poll every second). */
export async function prunePurges(trx: Transaction<Database>): Promise<number> {
  const deleted = await trx
    .deleteFrom('cache_purges')
    .where('created_at', '<', new Date(Date.now() - KEEP_PURGES_MS))
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
