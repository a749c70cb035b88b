import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { db } from '../../functions/db/database.ts';
import { LANGUAGES } from '../../src/i18n/languages.ts';
import { COURSE_LANGUAGES } from '../../src/lib/course-languages.ts';
import { missingForLanguages } from '../support/dictionaries.ts';

describe('interface languages', () => {
  it('each have a complete dictionary and every page text', () => {
    expect(missingForLanguages(LANGUAGES)).toEqual([]);
  });

  it('added to the list without their dictionary fail with what is missing', () => {
    expect(missingForLanguages([...LANGUAGES, 'de'])).toEqual(['src/i18n/locales/de.json is missing']);
  });
});

/** SQL cannot import the TypeScript lists: the CHECK constraints that repeat them are compared here. */
describe('language columns', () => {
  it('accept exactly the languages of the lists in src/', async () => {
    const { rows } = await sql<{ table: string; definition: string }>`
      SELECT conrelid::regclass::text AS table, pg_get_constraintdef(oid) AS definition
      FROM pg_constraint
      WHERE contype = 'c' AND pg_get_constraintdef(oid) ~ '\\mlanguage\\M.*ARRAY'`.execute(db());
    const allowed = Object.fromEntries(
      rows.map((row) => [row.table, [...row.definition.matchAll(/'([a-z]{2})'::text/g)].map((m) => m[1])]),
    );
    expect(Object.keys(allowed).sort()).toEqual([
      'blog_file_tombstones',
      'blog_posts',
      'broadcasts',
      'contact_messages',
      'courses',
      'legal_texts',
      'mail_outbox',
      'purchases',
      'users',
    ]);
    for (const [table, codes] of Object.entries(allowed)) {
      expect(codes, table).toEqual(table === 'courses' ? [...COURSE_LANGUAGES] : [...LANGUAGES]);
    }
  });
});
