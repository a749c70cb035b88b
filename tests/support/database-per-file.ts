import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, inject } from 'vitest';
import { closeDb, createDb, useDb, type Db } from '../../functions/db/database.ts';
import { startNamingStatements } from '../../functions/db/named-statements.ts';
import { withDatabase } from '../../functions/db/provision.ts';
import { TEMPLATE_DATA_DIR, TEMPLATE_DATABASE } from './template.ts';

/**
 * Each test file gets its own database, cloned from the migrated template, and its own storage folder,
 * a copy of the demo files (template.ts).
 */
const serverUrl = inject('postgresServerUrl');
const name = `shop_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
const url = withDatabase(serverUrl, name);
const dataDir = await mkdtemp(path.join(tmpdir(), 'shop-test-'));
process.env.DATABASE_URL = url;
process.env.DATA_DIR = dataDir;
process.env.NODE_ENV = 'test';
process.env.BETTER_AUTH_SECRET = 'test-secret-test-secret-test-secret-42';
// As the shop's server does on a direct database (db/named-statements.ts): the tests' statements are named too.
startNamingStatements(url);

let admin: Db;

beforeAll(async () => {
  admin = createDb(serverUrl, 1);
  await sql`CREATE DATABASE ${sql.id(name)} TEMPLATE ${sql.id(TEMPLATE_DATABASE)}`.execute(admin);
  await cp(path.join(TEMPLATE_DATA_DIR, 'storage'), path.join(dataDir, 'storage'), { recursive: true });
  useDb(createDb(url, 5));
});

afterAll(async () => {
  await closeDb();
  await sql`DROP DATABASE IF EXISTS ${sql.id(name)} WITH (FORCE)`.execute(admin);
  await admin.destroy();
  await rm(dataDir, { recursive: true, force: true });
});
