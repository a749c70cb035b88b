import { env } from '../env.ts';
import { seedDemoData, isCatalogueEmpty } from '../seed/seed.ts';
import { createDb } from './database.ts';
import { migrate } from './migrate.ts';
import { readBlogFiles } from '../blog/blog-file.ts';
import { syncBlogFiles, type SyncReport } from '../blog/sync.ts';

/** Start-up work on the database: migrations and the blog files' sync always, demo data when the catalogue is empty. */
export async function prepareDatabase(url: string, log: (line: string) => void = console.log): Promise<void> {
  const database = createDb(url, 2);
  try {
    const applied = await migrate(database);
    if (applied.length > 0) log(`Applied migrations: ${applied.join(', ')}`);
    if (await isCatalogueEmpty(database)) {
      const seeded = await seedDemoData(database, { withCourses: env().NODE_ENV !== 'production' });
      log(`Seeded ${seeded.categories} categories and ${seeded.courses} demo courses.`);
    }
    const blog = await syncBlogFiles(database, await readBlogFiles());
    const line = describeBlogSync(blog);
    if (line) log(line);
  } finally {
    await database.destroy();
  }
}

/** The sync's report in words, or nothing when nothing happened. */
export function describeBlogSync(report: SyncReport): string | undefined {
  const parts = [
    report.added && `${report.added} new`,
    report.updated && `${report.updated} updated`,
    report.differing && `${report.differing} edited in the admin, whose file differs (kept)`,
  ].filter(Boolean);
  return parts.length > 0 ? `Blog files: ${parts.join(', ')}.` : undefined;
}
