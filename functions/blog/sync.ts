import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { announceChange } from '../http/cache-notify.ts';
import { BLOG_TAG } from '../http/cache-rules.ts';
import { fileRow } from './blog.ts';
import type { BlogFile } from './blog-file.ts';

export interface SyncReport {
  /** Files that became posts. */
  added: number;
  /** Posts nobody edited here that took their changed file's text. */
  updated: number;
  /** Posts edited here whose file now says something else: the admin offers the file's version. */
  differing: number;
  /** Files whose post an editor deleted: left out. */
  tombstoned: number;
}

/**
 * Brings content/blog files into blog_posts (at start-up and by `npm run db:seed`), upserting by
 * language and slug:
 * - a new file becomes a post, published (dated by its front matter) when its front matter says so;
 * - a changed file updates its post only while nobody edited that post here (`edited_here`), and never
 *   touches its publish state or date: publishing is the editors' call once a post exists;
 * - every post with a file keeps the file's current version (`file_version`), so the admin can say
 *   "edited here; the file differs" and hand the file's text over;
 * - a file whose post was deleted here (a tombstone) stays out.
 * One transaction under an advisory lock: instances starting together sync one after the other.
 */
export async function syncBlogFiles(database: Db, files: BlogFile[]): Promise<SyncReport> {
  return database.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext('blog_posts file sync'))`.execute(trx);
    const report: SyncReport = { added: 0, updated: 0, differing: 0, tombstoned: 0 };
    const tombstones = new Set(
      (await trx.selectFrom('blog_file_tombstones').select(['language', 'slug']).execute()).map(
        (row) => `${row.language}/${row.slug}`,
      ),
    );
    const rows = await trx
      .selectFrom('blog_posts')
      .select(['id', 'language', 'slug', 'edited_here', 'synced_hash', 'file_hash'])
      .execute();
    const existing = new Map(rows.map((row) => [`${row.language}/${row.slug}`, row]));
    const seen = new Set<string>();
    let changed = false;

    for (const file of files) {
      const key = `${file.language}/${file.slug}`;
      seen.add(key);
      if (tombstones.has(key)) {
        report.tombstoned++;
        continue;
      }
      const row = existing.get(key);
      const version = JSON.stringify(file.version);
      if (!row) {
        const date = new Date(file.version.date);
        await trx
          .insertInto('blog_posts')
          .values({
            ...fileRow(file.version),
            slug: file.slug,
            language: file.language,
            is_published: file.version.published,
            published_at: file.version.published ? date : null,
            created_at: date,
            edited_here: false,
            synced_hash: file.hash,
            file_hash: file.hash,
            file_version: version,
          })
          .execute();
        report.added++;
        changed = true;
      } else if (!row.edited_here) {
        if (row.synced_hash === file.hash && row.file_hash === file.hash) continue;
        await trx
          .updateTable('blog_posts')
          .set({
            ...fileRow(file.version),
            synced_hash: file.hash,
            file_hash: file.hash,
            file_version: version,
            updated_at: new Date(),
          })
          .where('id', '=', row.id)
          .execute();
        report.updated++;
        changed = true;
      } else {
        if (row.synced_hash !== file.hash) report.differing++;
        if (row.file_hash === file.hash) continue;
        await trx
          .updateTable('blog_posts')
          .set({ file_hash: file.hash, file_version: version })
          .where('id', '=', row.id)
          .execute();
      }
    }

    // A file removed from content/blog: its post stays (it lives here now), with nothing to differ from.
    const orphaned = rows.filter((row) => row.file_hash !== null && !seen.has(`${row.language}/${row.slug}`));
    if (orphaned.length > 0)
      await trx
        .updateTable('blog_posts')
        .set({ file_hash: null, file_version: null })
        .where(
          'id',
          'in',
          orphaned.map((row) => row.id),
        )
        .execute();

    if (changed) await announceChange(trx, BLOG_TAG);
    return report;
  });
}
