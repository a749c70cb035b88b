import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeBlogImage } from '../../../functions/blog/images.ts';
import { BLOG_IMAGE_GRACE_MS, sweepUnusedBlogImages } from '../../../functions/blog/image-sweep.ts';
import { createDb, db } from '../../../functions/db/database.ts';
import { runPeriodicJob } from '../../../functions/jobs/periodic.ts';
import { storageRoot } from '../../../functions/storage/storage.ts';
import { okValue } from '../../support/factories.ts';
import { makePng } from '../../support/files.ts';

let contentDir: string;
beforeAll(async () => {
  contentDir = await mkdtemp(path.join(tmpdir(), 'blog-content-'));
});
afterAll(() => rm(contentDir, { recursive: true, force: true }));

const DAY_MS = 24 * 60 * 60 * 1000;
let shade = 0;

/** A real upload (every width stored as WebP), its files' dates set `ageMs` in the past. */
async function upload(kind: 'cover' | 'inline', ageMs: number) {
  shade++;
  const image = okValue(await storeBlogImage(makePng(1600, 900, [shade * 7, 255 - shade * 5, 90]), kind));
  const folder = path.join(storageRoot(), 'public', 'blog', kind === 'cover' ? 'covers' : 'images');
  const hash = /([0-9a-f]{16})-\d+x\d+\.webp$/.exec(image.url)![1]!;
  const files = (await readdir(folder)).filter((name) => name.startsWith(`${hash}-`));
  expect(files).toHaveLength(3);
  const when = new Date(Date.now() - ageMs);
  for (const name of files) await utimes(path.join(folder, name), when, when);
  return { url: image.url, hash, files: files.map((name) => path.join(folder, name)) };
}

const stillThere = async (image: { files: string[] }) => {
  const present = await Promise.all(
    image.files.map((file) => readdir(path.dirname(file)).then((names) => names.includes(path.basename(file)))),
  );
  return present.filter(Boolean).length;
};

let slugs = 0;
async function post(fields: { content?: string; cover_image_url?: string; is_published?: boolean; language?: 'en' | 'tr' }) {
  slugs++;
  await db()
    .insertInto('blog_posts')
    .values({
      slug: `sweep-post-${slugs}`,
      language: fields.language ?? 'en',
      title: `Sweep post ${slugs}`,
      excerpt: 'An excerpt.',
      author_name: 'Ada Writer',
      content: fields.content ?? 'Words only.',
      cover_image_url: fields.cover_image_url ?? '/images/blog/budget-basics.svg',
      is_published: fields.is_published ?? true,
      published_at: new Date(),
    })
    .execute();
}

describe('the sweep of unused blog images', () => {
  it('deletes every width of an old image nobody uses, keeps a new one and every image a post, a draft or a shipped file names', async () => {
    const unusedOld = await upload('inline', 2 * DAY_MS);
    const unusedOldCover = await upload('cover', 2 * DAY_MS);
    const unusedNew = await upload('inline', 60 * 60 * 1000);
    const inMarkdown = await upload('inline', 3 * DAY_MS);
    const inHtmlSmallWidth = await upload('inline', 3 * DAY_MS);
    const asCover = await upload('cover', 3 * DAY_MS);
    const inDraft = await upload('inline', 3 * DAY_MS);
    const inTurkishScheduled = await upload('cover', 3 * DAY_MS);
    const inShippedFile = await upload('inline', 3 * DAY_MS);

    await post({ content: `Intro.\n\n![A chart](${inMarkdown.url})\n\nMore.` });
    await post({
      content: `<p>Text</p><img src="${inHtmlSmallWidth.url.replace(/-\d+x\d+\.webp$/, '-480.webp')}" alt="A photo">`,
    });
    await post({ cover_image_url: asCover.url });
    await post({ content: `![Draft image](${inDraft.url})`, is_published: false });
    await post({ cover_image_url: inTurkishScheduled.url, language: 'tr' });
    await db()
      .updateTable('blog_posts')
      .set({ published_at: new Date(Date.now() + 7 * DAY_MS) })
      .where('cover_image_url', '=', inTurkishScheduled.url)
      .execute();
    await mkdir(path.join(contentDir, 'en'), { recursive: true });
    await writeFile(path.join(contentDir, 'en', 'shipped.md'), `---\nslug: shipped\n---\n\n![Shipped](${inShippedFile.url})\n`);

    const swept = await sweepUnusedBlogImages(db(), { contentDir });
    expect(swept.map((item) => item.image).sort()).toEqual(
      [`blog/images/${unusedOld.hash}`, `blog/covers/${unusedOldCover.hash}`].sort(),
    );
    expect(swept.flatMap((item) => item.keys)).toHaveLength(6);
    expect(await stillThere(unusedOld)).toBe(0);
    expect(await stillThere(unusedOldCover)).toBe(0);
    for (const kept of [unusedNew, inMarkdown, inHtmlSmallWidth, asCover, inDraft, inTurkishScheduled, inShippedFile])
      expect(await stillThere(kept)).toBe(3);

    // Once the grace period has passed, the new image goes too; the referenced ones never do.
    const later = await sweepUnusedBlogImages(db(), { contentDir, now: new Date(Date.now() + BLOG_IMAGE_GRACE_MS) });
    expect(later.map((item) => item.image)).toEqual([`blog/images/${unusedNew.hash}`]);
    // A post that drops its image lets it go at the next sweep (the file is old).
    await db()
      .updateTable('blog_posts')
      .set({ content: 'No image any more.' })
      .where('content', 'like', `%${inMarkdown.hash}%`)
      .execute();
    expect((await sweepUnusedBlogImages(db(), { contentDir })).map((item) => item.image)).toEqual([
      `blog/images/${inMarkdown.hash}`,
    ]);
    for (const kept of [inHtmlSmallWidth, asCover, inDraft, inTurkishScheduled, inShippedFile])
      expect(await stillThere(kept)).toBe(3);
  });

  it('runs once per period across instances: the task row is locked by the one running it', async () => {
    const other = createDb(process.env.DATABASE_URL!, 2);
    try {
      const old = await upload('inline', 2 * DAY_MS);
      let runs = 0;
      const task = (database: typeof other) =>
        runPeriodicJob(database, 'blog-image-sweep-test', 60 * 60 * 1000, async (trx) => {
          runs++;
          return sweepUnusedBlogImages(trx, { contentDir });
        });
      const [one, two] = await Promise.all([task(db()), task(other)]);
      expect(runs).toBe(1);
      expect([one, two].filter((result) => result !== undefined)).toEqual([
        [{ image: `blog/images/${old.hash}`, keys: expect.any(Array) }],
      ]);
      expect(await stillThere(old)).toBe(0);
      // Within the period, nobody runs it again.
      expect(await task(db())).toBeUndefined();
      expect(runs).toBe(1);

      // A failing run is reported, its writes undone, and it counts: not retried at every tick.
      const failing = () =>
        runPeriodicJob(db(), 'failing-task-test', 60 * 60 * 1000, async (trx) => {
          await trx.insertInto('jobs').values({ name: 'written-by-the-failing-run' }).execute();
          throw new Error('storage unreachable');
        });
      await expect(failing()).rejects.toThrow('storage unreachable');
      expect(await failing()).toBeUndefined();
      const written = await db().selectFrom('jobs').select('name').where('name', '=', 'written-by-the-failing-run').execute();
      expect(written).toEqual([]);
    } finally {
      await other.destroy();
    }
  });
});
