import { db } from '../db/database.ts';
import { invalid, notFound, ok, type Result } from '../../src/lib/result.ts';
import type { CourseOfferInput, CourseOfferView } from '../../src/lib/admin/course-offer.schema.ts';
import { isUuid } from '../../src/lib/uuid.ts';
import { mostOftenBoughtWith } from './next-course.ts';

/** Admin → Courses → a course's next-course offer: what is set, and what "automatic" picks today. */
export async function getCourseOffer(courseId: string): Promise<Result<CourseOfferView>> {
  if (!isUuid(courseId) || !(await courseExists(courseId))) return notFound;
  const [chosen, automaticId, choices] = await Promise.all([
    db()
      .selectFrom('course_offers')
      .select(['offered_course_id', 'discount_percent', 'discount_hours'])
      .where('course_id', '=', courseId)
      .executeTakeFirst(),
    mostOftenBoughtWith(db(), courseId),
    db()
      .selectFrom('courses')
      .select(['id', 'title'])
      .where('id', '<>', courseId)
      .where('is_active', '=', true)
      .orderBy('title')
      .execute(),
  ]);
  return ok({
    offeredCourseId: chosen?.offered_course_id ?? null,
    discountPercent: chosen?.discount_percent ?? null,
    discountHours: chosen?.discount_hours ?? null,
    automatic: choices.find((course) => course.id === automaticId) ?? null,
    choices,
  });
}

/**
 * Sets a course's offer; all empty removes it (automatic, no discount). Offers already given keep
 * their terms: an order's one-time code is made once (functions/offers/next-course.ts).
 */
export async function saveCourseOffer(courseId: string, input: CourseOfferInput): Promise<Result<CourseOfferView>> {
  if (!isUuid(courseId) || !(await courseExists(courseId))) return notFound;
  if (input.offeredCourseId === courseId || (input.offeredCourseId && !(await courseExists(input.offeredCourseId))))
    return invalid('invalid_input', 'admin.courses.offer.errors.course', {
      offeredCourseId: 'admin.courses.offer.errors.course',
    });
  const row = {
    offered_course_id: input.offeredCourseId,
    discount_percent: input.discountPercent,
    discount_hours: input.discountHours,
    updated_at: new Date(),
  };
  if (Object.values(input).every((value) => value === null))
    await db().deleteFrom('course_offers').where('course_id', '=', courseId).execute();
  else
    await db()
      .insertInto('course_offers')
      .values({ course_id: courseId, ...row })
      .onConflict((conflict) => conflict.column('course_id').doUpdateSet(row))
      .execute();
  return getCourseOffer(courseId);
}

async function courseExists(id: string): Promise<boolean> {
  return Boolean(await db().selectFrom('courses').select('id').where('id', '=', id).executeTakeFirst());
}
