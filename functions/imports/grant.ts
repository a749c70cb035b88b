import { sql, type Transaction } from 'kysely';
import { db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { grantImportedPurchases, type ImportedGrant } from '../orders/imported.ts';
import { recordImportedConsents } from '../audience/imported.ts';
import { queueMailsToRender } from '../mail/template.ts';
import { importedCourses } from '../mail/templates/index.ts';
import { signInLinkUrl } from '../auth/sign-in-link.ts';
import { LINK_TOKEN_SLOT } from '../auth/link-tokens.ts';
import { siteUrl } from '../env.ts';
import { localizedPath, type Language } from '../../src/i18n/languages.ts';
import { notFound, ok, type Result } from '../../src/lib/result.ts';
import { PLATFORM_LABELS, type ImportOutcome, type ImportRequest, type ImportView } from '../../src/lib/admin/import.schema.ts';
import { IMPORT_REFUSALS, toView, type StoredImport } from './admin.ts';
import { readExport } from './read-export.ts';
import type { ImportRow } from './platforms.ts';

/** Purchases written per statement: far below PostgreSQL's parameter limit, few round trips. */
const BATCH = 500;

interface MappedCourse {
  id: string;
  title: string;
  currency: string;
}

/** Who got something new in this import, for their one mail. */
interface NewlyGranted {
  name: string;
  language: Language;
  courses: Set<string>;
}

/**
 * Imports an uploaded export with the seller's mapping, in one transaction: every row of a mapped
 * product becomes a guest purchase (orders/imported.ts), the consent the export carries joins the
 * ledger for buyers new to the list, and (when asked) each buyer with something new gets one mail.
 * Nothing is half-done: a file with a problem row is refused, and a failure rolls everything back.
 * Importing the same upload again answers what it did; the same file uploaded again grants nothing
 * new (purchases are keyed by platform, order and course).
 */
export async function runImport(id: string, request: ImportRequest, origin: { clientIp: string }): Promise<Result<ImportView>> {
  return db()
    .transaction()
    .execute(async (trx) => {
      const stored = await trx
        .selectFrom('buyer_imports')
        .select(['id', 'platform', 'file_name', 'created_at', 'dry_run', 'imported_at', 'result'])
        .select(sql<number | null>`octet_length(file)`.as('file_bytes'))
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!stored) return notFound;
      const view = toView(stored);
      if (stored.imported_at || stored.file_bytes === null) return ok(view);
      if (view.problemCount > 0) return IMPORT_REFUSALS.hasProblems;
      if (request.courses.length !== view.products.length) return IMPORT_REFUSALS.mapping;
      const mapping = await mappedCourses(trx, view, request.courses);
      if (!mapping) return IMPORT_REFUSALS.course;
      if (mapping.size === 0) return IMPORT_REFUSALS.nothingMapped;
      const file = storedFile(trx, id, stored.file_bytes);
      const outcome = await grantAll(trx, stored, file, mapping, request.sendMail, origin);
      const imported = await trx
        .updateTable('buyer_imports')
        .set({ imported_at: new Date(), file: null, result: JSON.stringify(outcome) })
        .where('id', '=', id)
        .returning(['id', 'platform', 'file_name', 'created_at', 'dry_run', 'imported_at', 'result'])
        .executeTakeFirstOrThrow();
      return ok(toView(imported));
    });
}

/** Bytes of the stored export read per query. */
const SLICE_BYTES = 256 * 1024;

/**
 * The stored export in slices, read by the database as they are needed: the whole file is never
 * in the server's memory (nor its hex text, as the driver receives a whole `bytea`).
 */
async function* storedFile(trx: Transaction<Database>, id: string, bytes: number): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < bytes; offset += SLICE_BYTES) {
    const { rows } = await sql<{ slice: Buffer }>`
      SELECT substring(file FROM ${offset + 1} FOR ${SLICE_BYTES}) AS slice FROM buyer_imports WHERE id = ${id}`.execute(trx);
    yield rows[0]!.slice;
  }
}

/** Product key → course; undefined when a chosen course no longer exists. */
async function mappedCourses(
  trx: Transaction<Database>,
  view: ImportView,
  chosen: string[],
): Promise<Map<string, MappedCourse> | undefined> {
  const ids = [...new Set(chosen.filter(Boolean))];
  const courses =
    ids.length === 0 ? [] : await trx.selectFrom('courses').select(['id', 'title', 'currency']).where('id', 'in', ids).execute();
  if (courses.length !== ids.length) return undefined;
  const byId = new Map(courses.map((course) => [course.id, course]));
  return new Map(
    view.products.flatMap((product, index) => {
      const course = byId.get(chosen[index]!);
      return course ? [[product.key, course] as const] : [];
    }),
  );
}

async function grantAll(
  trx: Transaction<Database>,
  stored: StoredImport,
  file: AsyncIterable<Uint8Array>,
  mapping: Map<string, MappedCourse>,
  sendMail: boolean,
  origin: { clientIp: string },
): Promise<ImportOutcome> {
  const outcome: ImportOutcome = { purchases: 0, alreadyThere: 0, buyers: 0, newAccounts: 0, consents: 0, mails: 0 };
  const newly = new Map<string, NewlyGranted>();
  const consenting = new Set<string>();
  let batch: ImportedGrant[] = [];
  const flush = async () => {
    const { granted, newAccounts } = await grantImportedPurchases(trx, batch);
    outcome.newAccounts += newAccounts;
    outcome.purchases += granted.length;
    outcome.alreadyThere += batch.length - granted.length;
    const byEmail = new Map(batch.map((grant) => [grant.email, grant]));
    for (const { email, courseId } of granted) {
      const grant = byEmail.get(email)!;
      const buyer = newly.get(email) ?? { name: grant.name, language: grant.language, courses: new Set<string>() };
      buyer.courses.add(courseId);
      newly.set(email, buyer);
    }
    batch = [];
  };
  const onRow = async (row: ImportRow) => {
    const course = mapping.get(row.productKey);
    if (!course) return;
    if (row.consent) consenting.add(row.email);
    batch.push(grantOf(stored.platform, row, course));
    if (batch.length >= BATCH) await flush();
  };
  const read = await readExport(file, onRow);
  // The same bytes read cleanly at the dry run: anything else here is a bug, and rolls the import back.
  if (!read.ok || read.value.problemCount > 0) throw new Error(`import ${stored.id} no longer reads as its dry run did`);
  await flush();
  outcome.buyers = newly.size;
  const platform = PLATFORM_LABELS[stored.platform];
  outcome.consents = await recordImportedConsents(
    trx,
    [...newly].filter(([email]) => consenting.has(email)).map(([email, buyer]) => ({ email, language: buyer.language })),
    { platform, column: read.value.consentColumn ?? '', clientIp: origin.clientIp },
  );
  if (sendMail) outcome.mails = await queueImportMails(trx, newly, mapping, platform);
  return outcome;
}

function grantOf(platform: string, row: ImportRow, course: MappedCourse): ImportedGrant {
  return {
    email: row.email,
    name: row.name,
    language: row.language,
    courseId: course.id,
    currency: course.currency,
    reference: `${platform}_${row.orderId}`,
    orderedAt: row.orderedAt,
  };
}

/** One mail per buyer with something new, in their language: where the courses are and a way in. */
async function queueImportMails(
  trx: Transaction<Database>,
  newly: Map<string, NewlyGranted>,
  mapping: Map<string, MappedCourse>,
  platform: string,
): Promise<number> {
  const titleOf = new Map([...mapping.values()].map((course) => [course.id, course.title]));
  const mailOf = ([email, buyer]: [string, NewlyGranted]) => ({
    props: {
      name: buyer.name,
      platform,
      courses: [...buyer.courses].map((courseId) => titleOf.get(courseId)!),
      libraryUrl: signInLinkUrl(LINK_TOKEN_SLOT, buyer.language),
      loginUrl: `${siteUrl()}${localizedPath(buyer.language, '/login')}`,
    },
    delivery: { to: email, language: buyer.language },
    link: { kind: 'sign_in' as const, email },
  });
  const buyers = [...newly];
  // A batch's mails at a time: thousands of rendered envelopes are never held at once.
  for (let start = 0; start < buyers.length; start += BATCH)
    await queueMailsToRender(trx, importedCourses, buyers.slice(start, start + BATCH).map(mailOf));
  return newly.size;
}
