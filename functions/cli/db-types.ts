import '../load-env-file.ts';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import { createDb } from '../db/database.ts';
import { startEmbeddedPostgres } from '../db/embedded.ts';
import { migrate } from '../db/migrate.ts';
import { withDatabase } from '../db/provision.ts';
import { runCommand } from './command.ts';

/**
 * `npm run db:types` writes functions/db/schema.generated.ts, the Kysely row types, from a database
 * migrated from scratch; `npm run db:types -- --verify` (part of `npm run check`) fails when the file
 * no longer matches the migrations. The columns whose CHECK constraints allow a few values are typed
 * with those values (SQL cannot export them as types); an override replaces the column's whole type, so
 * a column with a default keeps its `Generated<…>`.
 */
const OUT_FILE = 'functions/db/schema.generated.ts';
const OVERRIDES = {
  columns: {
    'purchases.status': 'Generated<"pending" | "completed" | "failed" | "expired" | "refunded" | "disputed">',
    'mail_outbox.status': 'Generated<"pending" | "sent" | "withdrawn">',
    'users.role': 'Generated<"user" | "admin">',
    'client_logs.level': '"error" | "warn" | "info" | "debug"',
    'discount_codes.kind': '"percent" | "fixed"',
    'legal_texts.language': '"en" | "tr"',
    'legal_texts.page': '"terms" | "privacy" | "refund" | "pre-information" | "distance-contract"',
    'document_counters.kind': '"receipt" | "credit_note"',
    'subscribers.status': 'Generated<"pending" | "active" | "unsubscribed">',
    'courses.kind': 'Generated<"course" | "bundle">',
    'subscriber_consents.action': '"grant" | "withdraw"',
    'buyer_imports.platform': '"gumroad" | "payhip" | "lemon-squeezy"',
    'subscriber_consents.source':
      '"footer" | "blog" | "course" | "subscribe-page" | "checkout" | "preferences" | "one-click" | "import"',
    'broadcasts.language': '"en" | "tr"',
    'broadcasts.segment': '"all" | "buyers" | "never-bought"',
    'broadcasts.audience_language': '"en" | "tr" | null',
    'broadcasts.topic': '"courses" | "articles"',
    'broadcasts.status': 'Generated<"draft" | "scheduled" | "sending" | "paused" | "sent" | "cancelled">',
    'broadcast_recipients.status': 'Generated<"waiting" | "queued" | "skipped">',
    'automatic_mails_sent.kind': '"review-request" | "checkout-reminder"',
  },
};
const verify = process.argv.includes('--verify');

let release = async () => {};
await runCommand(
  verify ? 'verify the database types' : 'write the database types',
  async () => {
    const server = await startEmbeddedPostgres({ dataDir: '.data/db-types' });
    const admin = createDb(server.url, 1);
    const database = createDb(withDatabase(server.url, 'shop_types'), 1);
    release = async () => {
      await database.destroy();
      await admin.destroy();
      await server.stop();
    };
    await sql`DROP DATABASE IF EXISTS shop_types WITH (FORCE)`.execute(admin);
    await sql`CREATE DATABASE shop_types`.execute(admin);
    await migrate(database);
    const cli = path.resolve('node_modules/kysely-codegen/dist/cli/bin.js');
    const args = [
      cli,
      '--dialect=postgres',
      `--url=${withDatabase(server.url, 'shop_types')}`,
      `--out-file=${OUT_FILE}`,
      `--overrides=${JSON.stringify(OVERRIDES)}`,
      '--log-level=error',
      ...(verify ? ['--verify'] : []),
    ];
    const result = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, ENV_FILE: '' } });
    if (result.status !== 0) {
      throw new Error(
        verify
          ? `${OUT_FILE} does not match the migrations: run \`npm run db:types\` and commit the result.`
          : 'kysely-codegen failed (see above).',
      );
    }
    console.log(verify ? `${OUT_FILE} matches the migrations.` : `Wrote ${OUT_FILE}.`);
  },
  () => release(),
);
