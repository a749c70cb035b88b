import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../../../functions/db/database.ts';
import { followChanges } from '../../../functions/http/cache-notify.ts';
import { MAX_NAMED_STATEMENTS } from '../../../functions/db/named-statements.ts';

// Named, as every test's statements are (database-per-file.ts). One connection: what it has parsed is
// what pg_prepared_statements shows.
const database = createDb(process.env.DATABASE_URL!, 1);

const prepared = async () =>
  (
    await sql<{ name: string; statement: string; calls: number }>`
      SELECT name, statement, generic_plans + custom_plans AS calls FROM pg_prepared_statements ORDER BY prepare_time`.execute(
      database,
    )
  ).rows;

describe('named statements', () => {
  afterAll(() => database.destroy());

  it('a direct database keeps sessions: the change feed says so, what starts the naming in the shop’s server', async () => {
    const feed = await followChanges({ url: process.env.DATABASE_URL!, listenUrl: process.env.DATABASE_URL! }, () => {});
    try {
      expect(feed).toMatchObject({ how: 'at once (LISTEN on DATABASE_URL)', sessions: true });
    } finally {
      await feed.stop();
    }
  });

  it('are parsed once per connection, then only run; a `*` result and a statement without values never are', async () => {
    const bySlug = (slug: string) =>
      database.selectFrom('courses').select(['id', 'price_minor']).where('title', '=', slug).execute();
    for (const slug of ['a', 'b', 'c']) await bySlug(slug);
    await database.selectFrom('courses').selectAll().where('title', '=', 'a').execute();
    await database.updateTable('courses').set({ title: 'x' }).where('title', '=', 'none').returningAll().execute();
    await sql`SELECT 1`.execute(database);

    const statements = await prepared();
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({
      statement: expect.stringContaining('select "id", "price_minor" from "courses"') as string,
      calls: 3,
    });
  });

  it('a statement whose result a migration changed fails once, then is never named again', async () => {
    await sql`CREATE TABLE named_probe (id int, label text)`.execute(database);
    const label = () => sql<{ label: string }>`SELECT label FROM named_probe WHERE id = ${1}`.execute(database);
    await label();
    await sql`ALTER TABLE named_probe ALTER COLUMN label TYPE varchar(20)`.execute(database);
    await expect(label()).rejects.toMatchObject({ code: '0A000', message: 'cached plan must not change result type' });
    expect((await label()).rows).toEqual([]);
  });

  it(`names at most ${MAX_NAMED_STATEMENTS} distinct statements: others are parsed at every use, as before`, async () => {
    const numbered = (n: number) =>
      database
        .selectFrom('courses')
        .select(sql<number>`${sql.lit(n)}`.as('n'))
        .where('title', '=', 'none')
        .execute();
    for (let n = 0; n < MAX_NAMED_STATEMENTS + 10; n++) await numbered(n);
    const statements = await prepared();
    expect(statements.length).toBeGreaterThan(MAX_NAMED_STATEMENTS - 10);
    expect(statements.length).toBeLessThanOrEqual(MAX_NAMED_STATEMENTS);
    const named = (n: number) => statements.some((statement) => statement.statement.includes(`select ${n} as "n"`));
    expect(named(0)).toBe(true);
    expect(named(MAX_NAMED_STATEMENTS + 9)).toBe(false);
    // One beyond the limit still runs, parsed as before.
    expect(await numbered(MAX_NAMED_STATEMENTS + 9)).toEqual([]);
  });
});
