import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from '../db/database.ts';

/**
 * Cache purges travel through PostgreSQL: a writer announces a tag in its transaction (delivered
 * only if it commits), and every server instance listening drops the pages with that tag.
 */
export const CACHE_CHANNEL = 'page_cache_purge';

export async function announceChange(database: Db, tag: string): Promise<void> {
  await sql`SELECT pg_notify(${CACHE_CHANNEL}, ${tag})`.execute(database);
}

/** Listens for purges; reconnects if the connection drops. */
export function listenForChanges(connectionString: string, onTag: (tag: string) => void): { stop(): Promise<void> } {
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
  void connect();
  return {
    async stop() {
      stopped = true;
      await client?.end().catch(() => {});
    },
  };
}
