import { sql, type Selectable, type Transaction } from 'kysely';
import type { AdminCategoryRow, PerLanguage } from '../../src/lib/admin/categories.schema.ts';
import { db } from '../db/database.ts';
import type { CategoriesTable, Database } from '../db/schema.ts';
import { announceChange } from '../http/cache-notify.ts';
import { CATALOGUE_TAG } from '../http/cache-rules.ts';
import { refusingViolations } from '../db/constraints.ts';
import { conflict, notFound, ok, type Result } from '../../src/lib/result.ts';
import { isUuid } from '../../src/lib/uuid.ts';
import { LANGUAGES } from '../../src/i18n/languages.ts';

/** A category as the admin edits it, with how many courses (any language, active or not) use it. */
export interface AdminCategory extends AdminCategoryRow {
  createdAt: Date;
  updatedAt: Date;
}

export interface CategoryInput {
  slug: string;
  names: PerLanguage;
  descriptions: PerLanguage;
  color: string;
  icon: string;
  active: boolean;
  sortOrder: number;
}

/** Every category, active or not, in storefront order. */
export async function listCategories(): Promise<AdminCategory[]> {
  const rows = await selectCategories().orderBy('categories.sort_order').orderBy('categories.slug').execute();
  return rows.map(toCategory);
}

export async function getCategory(id: string): Promise<AdminCategory | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await selectCategories().where('categories.id', '=', id).executeTakeFirst();
  return row ? toCategory(row) : undefined;
}

const SLUG_TAKEN = conflict('duplicate', 'admin.errors.duplicate', { fields: { slug: 'admin.errors.duplicate' } });
const IN_USE = conflict('dependencies', 'admin.errors.dependencies');

/**
 * Category names, colours and activity show on the storefront, so every write below tells the
 * page cache in the same transaction: readers see the change at once.
 */
export async function createCategory(input: CategoryInput): Promise<Result<AdminCategory>> {
  return refusingViolations(
    async () => {
      const id = await db()
        .transaction()
        .execute(async (trx) => {
          const row = await trx.insertInto('categories').values(toRow(input)).returning('id').executeTakeFirstOrThrow();
          await writeTexts(trx, row.id, input);
          await announceChange(trx, CATALOGUE_TAG);
          return row.id;
        });
      return found(await getCategory(id));
    },
    { unique: SLUG_TAKEN },
  );
}

/** A new slug carries its courses along: courses.category references the slug ON UPDATE CASCADE. */
export async function updateCategory(id: string, input: CategoryInput): Promise<Result<AdminCategory>> {
  if (!isUuid(id)) return notFound;
  return refusingViolations(
    async () => {
      const updated = await db()
        .transaction()
        .execute(async (trx) => {
          const row = await trx
            .updateTable('categories')
            .set({ ...toRow(input), updated_at: new Date() })
            .where('id', '=', id)
            .returning('id')
            .executeTakeFirst();
          if (!row) return false;
          await writeTexts(trx, id, input);
          await announceChange(trx, CATALOGUE_TAG);
          return true;
        });
      return updated ? found(await getCategory(id)) : notFound;
    },
    { unique: SLUG_TAKEN },
  );
}

export async function setCategoryActive(id: string, active: boolean): Promise<Result<AdminCategory>> {
  if (!isUuid(id)) return notFound;
  const updated = await db()
    .transaction()
    .execute(async (trx) => {
      const result = await trx
        .updateTable('categories')
        .set({ is_active: active, updated_at: new Date() })
        .where('id', '=', id)
        .executeTakeFirst();
      const changed = Number(result.numUpdatedRows) > 0;
      if (changed) await announceChange(trx, CATALOGUE_TAG);
      return changed;
    });
  return updated ? found(await getCategory(id)) : notFound;
}

/**
 * Refuses to delete a category that courses use (they would lose their category). The count gives
 * the admin a precise reason; the foreign key still guards a course added in between.
 */
export async function deleteCategory(id: string): Promise<Result<{ deleted: true }>> {
  if (!isUuid(id)) return notFound;
  return refusingViolations(
    () =>
      db()
        .transaction()
        .execute(async (trx): Promise<Result<{ deleted: true }>> => {
          const category = await trx.selectFrom('categories').select('slug').where('id', '=', id).forUpdate().executeTakeFirst();
          if (!category) return notFound;
          const { count } = await trx
            .selectFrom('courses')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where('category', '=', category.slug)
            .executeTakeFirstOrThrow();
          if (Number(count) > 0)
            return conflict('dependencies', 'admin.errors.dependencies', { details: { courseCount: Number(count) } });
          await trx.deleteFrom('categories').where('id', '=', id).execute();
          await announceChange(trx, CATALOGUE_TAG);
          return ok({ deleted: true });
        }),
    { foreignKey: IN_USE },
  );
}

const found = <T>(value: T | undefined): Result<T> => (value === undefined ? notFound : ok(value));

function selectCategories() {
  return db()
    .selectFrom('categories')
    .selectAll('categories')
    .select((eb) => [
      eb
        .selectFrom('courses')
        .select((inner) => inner.fn.countAll<number>().as('count'))
        .whereRef('courses.category', '=', 'categories.slug')
        .as('course_count'),
      eb
        .selectFrom('category_texts')
        .select(
          sql<TextRow[]>`json_agg(json_build_object('language', language, 'name', name, 'description', description))`.as('texts'),
        )
        .whereRef('category_texts.category_id', '=', 'categories.id')
        .as('texts'),
    ]);
}

interface TextRow {
  language: string;
  name: string;
  description: string;
}

/** One row per interface language; rows of a language no longer served stay, unread. */
async function writeTexts(trx: Transaction<Database>, categoryId: string, input: CategoryInput): Promise<void> {
  await trx
    .insertInto('category_texts')
    .values(
      LANGUAGES.map((language) => ({
        category_id: categoryId,
        language,
        name: input.names[language],
        description: input.descriptions[language],
      })),
    )
    .onConflict((conflict) =>
      conflict
        .columns(['category_id', 'language'])
        .doUpdateSet((eb) => ({ name: eb.ref('excluded.name'), description: eb.ref('excluded.description') })),
    )
    .execute();
}

function toRow(input: CategoryInput) {
  return {
    slug: input.slug,
    color: input.color,
    icon: input.icon,
    is_active: input.active,
    sort_order: input.sortOrder,
  };
}

function toCategory(row: Selectable<CategoriesTable> & { course_count: number | null; texts: TextRow[] | null }): AdminCategory {
  const perLanguage = (pick: (text: TextRow) => string) =>
    Object.fromEntries(
      LANGUAGES.map((language) => {
        const text = row.texts?.find((candidate) => candidate.language === language);
        return [language, text ? pick(text) : ''];
      }),
    ) as PerLanguage;
  return {
    id: row.id,
    slug: row.slug,
    names: perLanguage((text) => text.name),
    descriptions: perLanguage((text) => text.description),
    color: row.color,
    icon: row.icon,
    active: row.is_active,
    sortOrder: row.sort_order,
    courseCount: Number(row.course_count ?? 0),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
