import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { FOLD_FROM, FOLD_TO, foldTurkish } from '../../../src/lib/turkish.ts';
import { checksumOf, EditedMigrationError, migrate, readMigrations, type Migration } from '../../../functions/db/migrate.ts';

describe('migrations', () => {
  it('are numbered and already applied to the test database', async () => {
    const files = await readMigrations();
    expect(files.map((m) => m.version)).toEqual(files.map((_, index) => index + 1));
    const rows = await db().selectFrom('schema_migrations').select('version').orderBy('version').execute();
    expect(rows.map((row) => row.version)).toEqual(files.map((m) => m.version));
  });

  it('apply nothing twice, even when several instances start at once', async () => {
    const extra: Migration = { version: 9001, name: '9001_probe', sql: 'CREATE TABLE migration_probe (id int)' };
    const all = [...(await readMigrations()), extra];
    const results = await Promise.all([migrate(db(), all), migrate(db(), all), migrate(db(), all)]);
    expect(results.flat()).toEqual(['9001_probe']);
    await sql`DROP TABLE migration_probe`.execute(db());
    await db().deleteFrom('schema_migrations').where('version', '=', 9001).execute();
  });

  it('roll back a failing migration completely', async () => {
    const broken: Migration = {
      version: 9002,
      name: '9002_broken',
      sql: 'CREATE TABLE half_done (id int); SELECT no_such_column FROM half_done',
    };
    await expect(migrate(db(), [broken])).rejects.toThrow();
    const table = await sql<{ exists: boolean }>`SELECT to_regclass('half_done') IS NOT NULL AS exists`.execute(db());
    expect(table.rows[0]!.exists).toBe(false);
    expect(await db().selectFrom('schema_migrations').where('version', '=', 9002).selectAll().execute()).toEqual([]);
  });
});

describe('an applied migration', () => {
  it('that was edited since is refused with a message saying what to do; the original still passes', async () => {
    const migrations = await readMigrations();
    const edited = migrations.map((m) => (m.version === 3 ? { ...m, sql: `${m.sql}\n-- a quiet edit` } : m));
    await expect(migrate(db(), edited)).rejects.toThrow(
      new EditedMigrationError(
        'migration 0003_contact_messages was edited after it was applied to this database: restore the file as it was (git) and put the change in a new migration.',
      ),
    );
    expect(await migrate(db(), migrations)).toEqual([]);
  });

  it('applied before checksums were kept gets its checksum on first sight', async () => {
    await db().updateTable('schema_migrations').set({ checksum: null }).where('version', '=', 1).execute();
    await migrate(db());
    const row = await db().selectFrom('schema_migrations').select('checksum').where('version', '=', 1).executeTakeFirstOrThrow();
    expect(row.checksum).toBe(checksumOf((await readMigrations())[0]!));
  });
});

describe('fold_search', () => {
  it('folds exactly as the TypeScript foldTurkish does, over the same strings', async () => {
    const samples = [
      'İSTANBUL ıspanak',
      'IŞIK ışık Işık',
      'Çağdaş Öğün Üzüm',
      'Kâğıt hâlâ Îmân Ûmit',
      'ÂÎÛ âîû',
      'Straße Ñandú Émile',
      'plain ascii 42',
    ];
    const { rows } = await sql<{
      folded: string;
    }>`SELECT fold_search(s) AS folded FROM unnest(${samples}::text[]) WITH ORDINALITY AS t(s, n) ORDER BY n`.execute(db());
    expect(rows.map((row) => row.folded)).toEqual(samples.map(foldTurkish));
    const source = await sql<{ body: string }>`SELECT pg_get_functiondef('fold_search(text)'::regprocedure) AS body`.execute(
      db(),
    );
    expect(source.rows[0]!.body).toContain(`translate(value, '${FOLD_FROM}'::text, '${FOLD_TO}'::text)`);
  });

  it('folds Turkish letters and case so either spelling finds the other', async () => {
    const { rows } = await sql<{ a: string; b: string; c: string }>`
      SELECT fold_search('İstanbul') AS a, fold_search('IŞIK ışık') AS b, fold_search('ÇĞÖÜ çğöü') AS c`.execute(db());
    expect(rows[0]).toEqual({ a: 'istanbul', b: 'isik isik', c: 'cgou cgou' });
  });
});
