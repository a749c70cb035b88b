import { TEMPLATE_DATABASE } from './template.ts';
import { buildIfNeeded } from '../../functions/cli/build-if-needed.ts';
import type { TestProject } from 'vitest/node';
import { createDb } from '../../functions/db/database.ts';
import { startEmbeddedPostgres } from '../../functions/db/embedded.ts';
import { migrate } from '../../functions/db/migrate.ts';
import { ensureDatabase, withDatabase } from '../../functions/db/provision.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresServerUrl: string;
  }
}

/**
 * One real PostgreSQL for the whole run (TEST_DATABASE_SERVER_URL, or an embedded one),
 * and a template database migrated once; every test file clones it.
 */
export default async function setup(project: TestProject) {
  // HTTP tests run the built server, as users get it.
  buildIfNeeded();
  const external = process.env.TEST_DATABASE_SERVER_URL;
  const server = external ? undefined : await startEmbeddedPostgres({ dataDir: '.data/test' });
  const serverUrl = external ?? server!.url;

  const admin = createDb(serverUrl, 1);
  await admin.connection().execute(async (conn) => {
    const { sql } = await import('kysely');
    await sql`DROP DATABASE IF EXISTS ${sql.id(TEMPLATE_DATABASE)} WITH (FORCE)`.execute(conn);
  });
  await admin.destroy();
  await ensureDatabase(serverUrl, TEMPLATE_DATABASE);
  const template = createDb(withDatabase(serverUrl, TEMPLATE_DATABASE), 1);
  await migrate(template);
  await template.destroy();

  project.provide('postgresServerUrl', serverUrl);
  return async () => {
    await server?.stop();
  };
}
