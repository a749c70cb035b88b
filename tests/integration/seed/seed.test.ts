import { rm } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { loadDemoCatalogue } from '../../../functions/seed/demo-catalogue.ts';
import { seedDemoData } from '../../../functions/seed/seed.ts';
import { getFile, storageRoot } from '../../../functions/storage/storage.ts';

// This file checks that the seed writes the demo files: it starts with none (tests/support/template.ts).
beforeAll(() => rm(storageRoot(), { recursive: true, force: true }));

describe('demo data', () => {
  it('seeds six categories and the demo catalogue once, however often it runs', async () => {
    const first = await seedDemoData(db());
    const second = await seedDemoData(db());
    const catalogue = await loadDemoCatalogue();
    const rows = catalogue.courses.length + catalogue.bundles.length;
    expect(first).toEqual({ categories: 6, courses: rows });
    expect(second).toEqual({ categories: 0, courses: 0 });
    const courses = await db().selectFrom('courses').selectAll().execute();
    expect(courses).toHaveLength(rows);
    // The demo bundle holds its courses, in order, and has no file of its own.
    const bundle = courses.find((course) => course.kind === 'bundle')!;
    expect(bundle.pdf_path).toBeNull();
    const items = await db()
      .selectFrom('bundle_items')
      .select('course_id')
      .where('bundle_id', '=', bundle.id)
      .orderBy('position')
      .execute();
    expect(items).toHaveLength(catalogue.bundles[0]!.courses.length);
  });

  it('covers what the shop promises', async () => {
    const courses = await db().selectFrom('courses').selectAll().execute();
    for (const lang of ['en', 'tr']) expect(courses.filter((c) => c.language === lang).length).toBeGreaterThanOrEqual(6);
    expect(courses.filter((c) => c.price_minor === 0).length).toBeGreaterThanOrEqual(2);
    expect(new Set(courses.map((c) => c.currency))).toEqual(new Set(['USD', 'EUR', 'TRY']));
    expect(new Set(courses.map((c) => c.difficulty_level))).toEqual(new Set(['beginner', 'intermediate', 'advanced']));
    const usd = courses.filter((c) => c.currency === 'USD' && c.price_minor > 0 && c.kind === 'course');
    expect(usd.every((c) => c.price_minor >= 200 && c.price_minor <= 900)).toBe(true);
  });

  it('stores a real multi-page PDF privately and a public cover for every course', async () => {
    const courses = await db()
      .selectFrom('courses')
      .select(['title', 'pdf_path', 'cover_image_url'])
      .where('kind', '=', 'course')
      .execute();
    for (const course of courses) {
      const pdf = await getFile('private', course.pdf_path!);
      expect(pdf, course.title).toBeDefined();
      const content = await text(pdf!.stream());
      expect(content.startsWith('%PDF-')).toBe(true);
      expect(content.match(/\/Type \/Page\b/g)?.length ?? 0).toBeGreaterThanOrEqual(4);
      expect(await getFile('public', course.pdf_path!)).toBeUndefined();
      const cover = await getFile('public', course.cover_image_url!.replace('/media/', ''));
      expect(await text(cover!.stream())).toMatch(/^<svg[^>]*>[\s\S]*<\/svg>$/);
    }
  });
});
