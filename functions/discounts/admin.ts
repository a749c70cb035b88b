import { sql } from 'kysely';
import { db } from '../db/database.ts';
import { conflict, invalid, notFound, ok, type Result } from '../../src/lib/result.ts';
import { CURRENCIES } from '../../src/lib/course-filters.ts';
import { totalsFromJson } from '../../src/lib/admin/money-totals.ts';
import type { AdminDiscountRow, DiscountInput } from '../../src/lib/admin/discounts.schema.ts';

/** Admin → Discounts: every code with its uses and what completed orders saved with it. */
export async function listDiscounts(): Promise<AdminDiscountRow[]> {
  const rows = await db()
    .selectFrom('discount_codes')
    .selectAll('discount_codes')
    .select((eb) => [
      eb
        .selectFrom('discount_code_courses')
        .select(sql<string[]>`coalesce(array_agg(course_id::text ORDER BY course_id), '{}')`.as('ids'))
        .whereRef('discount_code_id', '=', 'discount_codes.id')
        .as('course_ids'),
      eb
        .selectFrom(
          eb
            .selectFrom('purchases')
            .select(['currency', sql<string>`sum(discount_minor)`.as('amount')])
            .whereRef('discount_code_id', '=', 'discount_codes.id')
            .where('status', '=', 'completed')
            .groupBy('currency')
            .as('saved'),
        )
        .select(sql<unknown>`json_agg(json_build_object('currency', currency, 'amountMinor', amount) ORDER BY currency)`.as('t'))
        .as('totals'),
    ])
    // One-time offers' codes are each one order's (Admin → Courses sets them), not the seller's codes.
    .where('offer_purchase_id', 'is', null)
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    code: row.code,
    kind: row.kind,
    percent: row.percent,
    amounts: row.amounts as AdminDiscountRow['amounts'],
    allCourses: row.all_courses,
    courseIds: row.course_ids ?? [],
    startsAt: row.starts_at?.toISOString() ?? null,
    endsAt: row.ends_at?.toISOString() ?? null,
    maxRedemptions: row.max_redemptions,
    oncePerBuyer: row.once_per_buyer,
    active: row.active,
    redemptions: row.redemptions,
    totals: totalsFromJson(row.totals),
  }));
}

function columns(input: DiscountInput) {
  const amounts = Object.fromEntries(
    CURRENCIES.flatMap((currency) => {
      const amount = input[`amount${currency}`];
      return input.kind === 'fixed' && amount != null ? [[currency, amount]] : [];
    }),
  );
  return {
    code: input.code,
    kind: input.kind,
    percent: input.kind === 'percent' ? (input.percent ?? null) : null,
    amounts: JSON.stringify(amounts),
    all_courses: input.allCourses,
    starts_at: input.startsAt ?? null,
    ends_at: input.endsAt ?? null,
    max_redemptions: input.maxRedemptions ?? null,
    once_per_buyer: input.oncePerBuyer,
    active: input.active,
    updated_at: new Date(),
  };
}

/** Creates (no id) or replaces a code; its course list follows `allCourses`. */
export async function saveDiscount(input: DiscountInput, id?: string): Promise<Result<{ id: string }>> {
  try {
    return await db()
      .transaction()
      .execute(async (trx) => {
        const saved = id
          ? await trx.updateTable('discount_codes').set(columns(input)).where('id', '=', id).returning('id').executeTakeFirst()
          : await trx.insertInto('discount_codes').values(columns(input)).returning('id').executeTakeFirstOrThrow();
        if (!saved) return notFound;
        await trx.deleteFrom('discount_code_courses').where('discount_code_id', '=', saved.id).execute();
        const courseIds = input.allCourses ? [] : input.courseIds;
        if (courseIds.length > 0) {
          const known = await trx.selectFrom('courses').select('id').where('id', 'in', courseIds).execute();
          if (known.length !== courseIds.length) throw new UnknownCourse();
          await trx
            .insertInto('discount_code_courses')
            .values(courseIds.map((courseId) => ({ discount_code_id: saved.id, course_id: courseId })))
            .execute();
        }
        return ok({ id: saved.id });
      });
  } catch (error) {
    if (error instanceof UnknownCourse)
      return invalid('unknown_course', 'admin.discounts.coursesRequired', { courseIds: 'admin.discounts.coursesRequired' });
    const { code, constraint } = error as { code?: string; constraint?: string };
    if (code === '23505' && constraint === 'discount_codes_code_key')
      return conflict('code_taken', 'admin.discounts.codeTaken', { fields: { code: 'admin.discounts.codeTaken' } });
    // Fewer uses allowed than orders already hold the code.
    if (code === '23514' && constraint === 'discount_codes_uses_within_limit')
      return invalid('max_below_used', 'admin.discounts.maxBelowUsed', { maxRedemptions: 'admin.discounts.maxBelowUsed' });
    throw error;
  }
}

class UnknownCourse extends Error {}

/** Deletes a code; orders that used it keep the code's text and amount. */
export async function deleteDiscount(id: string): Promise<Result<{ deleted: true }>> {
  const deleted = await db().deleteFrom('discount_codes').where('id', '=', id).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0 ? ok({ deleted: true }) : notFound;
}

/** The paid courses a code can be limited to, for the editor's list. */
export function discountableCourses(): Promise<{ id: string; title: string; currency: string }[]> {
  return db().selectFrom('courses').select(['id', 'title', 'currency']).where('price_minor', '>', 0).orderBy('title').execute();
}
