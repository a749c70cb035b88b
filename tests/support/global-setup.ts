import { rm } from 'node:fs/promises';
import { TEMPLATE_DATA_DIR, TEMPLATE_DATABASE } from './template.ts';
import { runScript } from './run-script.ts';
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
 * and a template database migrated once; every test file clones it, and copies the demo files.
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
  await writeTemplateFiles(serverUrl);

  project.provide('postgresServerUrl', serverUrl);
  return async () => {
    await server?.stop();
  };
}

/** The demo files, by `npm run db:seed` on a scratch clone of the template (its rows are not kept). */
async function writeTemplateFiles(serverUrl: string): Promise<void> {
  const scratch = `${TEMPLATE_DATABASE}_files`;
  const admin = createDb(serverUrl, 1);
  const { sql } = await import('kysely');
  await rm(TEMPLATE_DATA_DIR, { recursive: true, force: true });
  try {
    await sql`DROP DATABASE IF EXISTS ${sql.id(scratch)} WITH (FORCE)`.execute(admin);
    await sql`CREATE DATABASE ${sql.id(scratch)} TEMPLATE ${sql.id(TEMPLATE_DATABASE)}`.execute(admin);
    const seeded = await runScript('functions/cli/db.ts', ['seed'], {
      ENV_FILE: '',
      NODE_ENV: 'test',
      DATABASE_URL: withDatabase(serverUrl, scratch),
      DATA_DIR: TEMPLATE_DATA_DIR,
    });
    if (seeded.code !== 0) throw new Error(`the demo files could not be written:\n${seeded.output}`);
    await sql`DROP DATABASE ${sql.id(scratch)} WITH (FORCE)`.execute(admin);
  } finally {
    await admin.destroy();
  }
}
