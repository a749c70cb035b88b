import { sql } from 'kysely';
import { db } from '../db/database.ts';
import { invalid, notFound, ok, type Result } from '../../src/lib/result.ts';
import { PLATFORM_LABELS, type ImportPlatform, type ImportView } from '../../src/lib/admin/import.schema.ts';
import { readExport, type ExportSummary } from './read-export.ts';
import { sliced } from './csv-stream.ts';
import { simplified } from './platforms.ts';

/**
 * Admin → Import (issue 39): an uploaded export's dry run. The file is read through once as it
 * arrives (no row kept), checked against the accounts and courses that exist, and stored with its
 * dry run until the seller maps its products and imports it (grant.ts).
 */

/** An upload nobody imported is dropped at the next upload after this long. */
const STALE_UPLOAD_MS = 24 * 60 * 60 * 1000;
/** Addresses looked up per query. */
const LOOKUP_BATCH = 1000;

/** The dry run as it is stored with its upload (the view without the row's own columns). */
type DryRun = Omit<ImportView, 'id' | 'platform' | 'fileName' | 'createdAt' | 'importedAt' | 'outcome'>;

export async function uploadExport(bytes: Uint8Array, fileName: string, adminId: string): Promise<Result<ImportView>> {
  const read = await readExport(sliced(bytes));
  if (!read.ok) return read;
  const dryRun = await dryRunOf(read.value);
  const row = await db()
    .transaction()
    .execute(async (trx) => {
      await trx
        .deleteFrom('buyer_imports')
        .where('imported_at', 'is', null)
        .where('created_at', '<', new Date(Date.now() - STALE_UPLOAD_MS))
        .execute();
      return trx
        .insertInto('buyer_imports')
        .values({
          platform: read.value.platform,
          file_name: fileName.slice(0, 300),
          file: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
          dry_run: JSON.stringify(dryRun),
          created_by: adminId,
        })
        .returning(['id', 'platform', 'file_name', 'created_at', 'dry_run', 'imported_at', 'result'])
        .executeTakeFirstOrThrow();
    });
  return ok(toView(row));
}

/** An upload and its dry run (and what its import did, once imported). */
export async function importView(id: string): Promise<Result<ImportView>> {
  const row = await db()
    .selectFrom('buyer_imports')
    .select(['id', 'platform', 'file_name', 'created_at', 'dry_run', 'imported_at', 'result'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? ok(toView(row)) : notFound;
}

/** The courses a product may be mapped to, by title. */
export async function courseChoices(): Promise<{ id: string; title: string; language: string }[]> {
  return db().selectFrom('courses').select(['id', 'title', 'language']).orderBy('title').orderBy('id').execute();
}

export interface StoredImport {
  id: string;
  platform: ImportPlatform;
  file_name: string;
  created_at: Date;
  dry_run: unknown;
  imported_at: Date | null;
  result: unknown;
}

export function toView(row: StoredImport): ImportView {
  return {
    ...(row.dry_run as DryRun),
    id: row.id,
    platform: row.platform,
    fileName: row.file_name,
    createdAt: row.created_at.toISOString(),
    importedAt: row.imported_at?.toISOString() ?? null,
    outcome: (row.result as ImportView['outcome']) ?? null,
  };
}

async function dryRunOf(summary: ExportSummary): Promise<DryRun> {
  const [existing, courses] = await Promise.all([existingAccounts([...summary.buyers]), courseChoices()]);
  const courseByTitle = new Map<string, string>();
  for (const course of courses)
    if (!courseByTitle.has(simplified(course.title))) courseByTitle.set(simplified(course.title), course.id);
  return {
    rows: summary.rows,
    importable: summary.importable,
    skipped: summary.skipped,
    products: [...summary.products].map(([key, product]) => ({
      key,
      name: product.name,
      rows: product.rows,
      suggestedCourseId: courseByTitle.get(simplified(product.name)) ?? null,
    })),
    buyers: { total: summary.buyers.size, new: summary.buyers.size - existing, existing },
    consents: summary.consentBuyers.size,
    carriesConsent: summary.consentColumn !== null,
    problems: summary.problems,
    problemCount: summary.problemCount,
  };
}

async function existingAccounts(emails: string[]): Promise<number> {
  let found = 0;
  for (let start = 0; start < emails.length; start += LOOKUP_BATCH) {
    const row = await sql<{ found: number }>`
      SELECT count(*)::int AS found FROM users WHERE email = ANY(${emails.slice(start, start + LOOKUP_BATCH)}::text[])`.execute(
      db(),
    );
    found += row.rows[0]?.found ?? 0;
  }
  return found;
}

export const platformLabel = (platform: ImportPlatform): string => PLATFORM_LABELS[platform];

/** Refusals of an import, said where the form is. */
export const IMPORT_REFUSALS = {
  hasProblems: invalid('has_problems', 'admin.import.errors.hasProblems'),
  mapping: invalid('mapping_mismatch', 'admin.import.errors.mapping'),
  course: invalid('course_not_found', 'admin.import.errors.courseGone'),
  nothingMapped: invalid('nothing_mapped', 'admin.import.errors.nothingMapped'),
};
