import type { Result } from '../../src/lib/result.ts';
import { newCourseValues } from '../../src/lib/admin/courses.schema.ts';
import { randomUUID } from 'node:crypto';
import { db } from '../../functions/db/database.ts';
import type { Insertable } from 'kysely';
import type { Language } from '../../src/i18n/languages.ts';
import type { CategoriesTable, CoursesTable, PurchasesTable } from '../../functions/db/schema.ts';

/** Deterministic defaults, so a test shows only what matters to it. */
export async function makeCategory({
  names,
  ...overrides
}: Partial<Insertable<CategoriesTable>> & {
  /** Default: a name in English and Turkish; a record without a language leaves it unnamed there. */
  names?: Partial<Record<Language, string>>;
} = {}) {
  const slug = overrides.slug ?? `category-${randomUUID().slice(0, 8)}`;
  const category = await db()
    .insertInto('categories')
    .values({ slug, ...overrides })
    .onConflict((conflict) => conflict.column('slug').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (category) {
    const named = names ?? { en: `Category ${slug}`, tr: `Kategori ${slug}` };
    await db()
      .insertInto('category_texts')
      .values(Object.entries(named).map(([language, name]) => ({ category_id: category.id, language, name })))
      .execute();
  }
  return category;
}

export async function makeCourse(overrides: Partial<Insertable<CoursesTable>> = {}) {
  const category = overrides.category ?? 'technology';
  await makeCategory({ slug: category });
  return db()
    .insertInto('courses')
    .values({
      title: 'Budgeting in 20 minutes',
      description: 'A practical plan for your money.',
      instructor_name: 'Ada Teacher',
      category,
      price_minor: 499,
      currency: 'USD',
      language: 'en',
      pdf_path: `courses/${randomUUID()}.pdf`,
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function makePurchase(courseId: string, overrides: Partial<Insertable<PurchasesTable>> = {}) {
  return db()
    .insertInto('purchases')
    .values({
      course_id: courseId,
      email: 'buyer@example.com',
      provider: 'free',
      payment_id: `free_${randomUUID()}`,
      amount_minor: 0,
      currency: 'USD',
      status: 'completed',
      completed_at: new Date(),
      download_token: randomUUID().replaceAll('-', '') + randomUUID().replaceAll('-', ''),
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The value of a use case's result that must have succeeded (the test fails with the refusal otherwise). */
export function okValue<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`Expected success, got ${JSON.stringify(result)}`);
  return result.value;
}

/** An address no other test (or earlier run against the same database) has used. */
export const uniqueEmail = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;

/** User agents of two real browsers, for tests that tell a person's devices apart. */
export const USER_AGENTS: Readonly<Record<'chrome' | 'firefox', string>> = {
  chrome: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
};

/** The text fields of Admin → Courses' form as its island posts them: the form's own defaults, filled in. */
export function courseFormFields(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    ...newCourseValues('business'),
    title: 'Bütçe Güncel',
    description: 'A budget course that gets new editions.',
    instructorName: 'Ada Teacher',
    instructorBio: 'Writes budgets.',
    ...overrides,
  };
}
