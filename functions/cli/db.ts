import '../load-env-file.ts';
import { rm } from 'node:fs/promises';
import { migrate } from '../db/migrate.ts';
import { seedDemoData } from '../seed/seed.ts';
import { readBlogFiles } from '../blog/blog-file.ts';
import { syncBlogFiles } from '../blog/sync.ts';
import { describeBlogSync } from '../db/prepare.ts';
import { env } from '../env.ts';
import { storageRoot } from '../storage/storage.ts';
import { sql } from 'kysely';
import { runWithDatabase } from './with-database.ts';

/** `npm run db:migrate | db:seed | db:reset` against DATABASE_URL or the embedded server. */
const command = process.argv[2];
if (!['migrate', 'seed', 'reset'].includes(command ?? '')) {
  console.error('Usage: node functions/cli/db.ts migrate|seed|reset');
  process.exit(2);
}

await runWithDatabase(`run db:${command}`, async (database) => {
  if (command === 'reset') {
    await sql`DROP SCHEMA public CASCADE; CREATE SCHEMA public`.execute(database);
    await rm(storageRoot(), { recursive: true, force: true });
    console.log('Dropped every table and stored file.');
  }
  const applied = await migrate(database);
  console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Migrations: up to date.');
  if (command !== 'migrate') {
    const seeded = await seedDemoData(database, { withCourses: env().NODE_ENV !== 'production' });
    console.log(`Seeded ${seeded.categories} new categories and ${seeded.courses} new demo courses.`);
    console.log(describeBlogSync(await syncBlogFiles(database, await readBlogFiles())) ?? 'Blog files: up to date.');
  }
});
