import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { log } from '../log.ts';
import { deleteFile, storage } from '../storage/storage.ts';
import { BLOG_CONTENT_DIR } from './blog-file.ts';

/**
 * Deletes uploaded blog images nobody uses (decision 28). An upload (images.ts) is a set of WebP
 * files, `blog/<covers|images>/<hash>-<W>x<H>.webp` and `<hash>-<w>.webp` for smaller widths; it is
 * deleted, every width, when:
 *  - no post holds its `blog/<folder>/<hash>-` anywhere in its row (cover, body, excerpt, the file
 *    version it keeps: drafts, scheduled and published posts, both languages), no course shows it,
 *    and no file under content/blog names it; and
 *  - its newest file is older than the grace period, so an image an editor has just uploaded and not
 *    yet saved in a post (or an autosave still to come) is never taken from them.
 * The references are read after a first listing and the storage is listed again after them: an image
 * uploaded (again) meanwhile is young and kept; one referenced meanwhile is found by that read unless its
 * post is saved in the moment between the read and the deletion (it would then need uploading again). Uploads have no rows; the storage listing is the inventory, so images uploaded before this
 * sweep existed are cleaned up too.
 */
export const BLOG_IMAGE_GRACE_MS = 24 * 60 * 60 * 1000;
/** How often the sweep runs, across all instances together (functions/jobs/shop-jobs.ts). */
export const BLOG_IMAGE_SWEEP_EVERY_MS = 60 * 60 * 1000;

const FOLDERS = ['covers', 'images'] as const;
const UPLOADED_NAME = /^([0-9a-f]{16})-\d{1,5}(?:x\d{1,5})?\.webp$/;
const REFERENCE = /blog\/(covers|images)\/([0-9a-f]{16})-/g;

export interface SweptImage {
  /** `blog/<folder>/<hash>`: the image, whatever its widths. */
  image: string;
  keys: string[];
}

export async function sweepUnusedBlogImages(
  database: Db,
  { graceMs = BLOG_IMAGE_GRACE_MS, now = new Date(), contentDir = BLOG_CONTENT_DIR } = {},
): Promise<SweptImage[]> {
  const oldImages = async () => {
    const images = new Map<string, { keys: string[]; newest: number }>();
    for (const folder of FOLDERS) {
      for (const file of await storage().list('public', `blog/${folder}`)) {
        const match = UPLOADED_NAME.exec(file.key.slice(`blog/${folder}/`.length));
        if (!match) continue;
        const image = `blog/${folder}/${match[1]}`;
        const entry = images.get(image) ?? { keys: [], newest: 0 };
        entry.keys.push(file.key);
        entry.newest = Math.max(entry.newest, file.modifiedAt.getTime());
        images.set(image, entry);
      }
    }
    return new Map([...images].filter(([, entry]) => now.getTime() - entry.newest > graceMs));
  };
  const listed = await oldImages();
  if (listed.size === 0) return [];
  const used = await referencedImages(database, contentDir);
  // Listed again after reading the references: an image uploaded again meanwhile (the same bytes give
  // the same files, written anew) is young again and kept.
  const old = [...(await oldImages())].filter(([image, entry]) => listed.get(image)?.newest === entry.newest);
  const swept: SweptImage[] = [];
  for (const [image, entry] of old) {
    if (used.has(image)) continue;
    try {
      for (const key of entry.keys) await deleteFile('public', key);
      swept.push({ image, keys: entry.keys });
    } catch (error) {
      // Left for the next sweep; the others still go.
      log.warn({ image, err: error }, 'could not delete an unused blog image');
    }
  }
  if (swept.length > 0)
    log.info(
      { images: swept.map((item) => item.image), files: swept.flatMap((item) => item.keys) },
      'deleted unused blog images',
    );
  return swept;
}

/** Every `blog/<folder>/<hash>` a post, a course or a shipped article names. */
async function referencedImages(database: Db, contentDir: string): Promise<Set<string>> {
  const used = new Set<string>();
  const collect = (text: string | null) => {
    for (const match of (text ?? '').matchAll(REFERENCE)) used.add(`blog/${match[1]}/${match[2]}`);
  };
  // The whole row as text: cover, body, excerpt, call to action and the kept file version alike.
  const posts = await sql<{ row: string }>`SELECT blog_posts::text AS row FROM blog_posts`.execute(database);
  for (const post of posts.rows) collect(post.row);
  const courses = await database.selectFrom('courses').select(['cover_image_url', 'description']).execute();
  for (const course of courses) {
    collect(course.cover_image_url);
    collect(course.description);
  }
  const files = await readdir(contentDir, { recursive: true }).catch(() => []);
  for (const file of files) {
    if (file.endsWith('.md')) collect(await readFile(path.join(contentDir, file), 'utf8'));
  }
  return used;
}
