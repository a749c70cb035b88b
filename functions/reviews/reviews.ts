import { sql, type ExpressionBuilder, type Transaction } from 'kysely';
import { db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { announceChange } from '../http/cache-notify.ts';
import { CATALOGUE_TAG } from '../http/cache-rules.ts';
import { inLibraryOf } from '../orders/library.ts';
import { conflict, notFound, ok, type Result } from '../../src/lib/result.ts';
import { REVIEWS_PER_PAGE, type OwnReview, type ReviewInput } from '../../src/lib/reviews.schema.ts';

export type { OwnReview };
import type { Language } from '../../src/i18n/languages.ts';

/**
 * Reviews from buyers only. A review counts (average, public lists, home page) while it is not
 * hidden and its purchase is still completed: a refund or a dispute takes it out, a restored
 * purchase brings it back. Every write purges the catalogue's pages (course page, cards, home).
 */
/**
 * A refund, a dispute or a won dispute changes which reviews count: the catalogue's pages are purged
 * when the purchase carries a visible review, so the rating follows the money at once.
 */
export async function announceRatingChange(trx: Transaction<Database>, purchaseId: string): Promise<void> {
  const reviewed = await trx
    .selectFrom('reviews')
    .select('id')
    .where('purchase_id', '=', purchaseId)
    .where('hidden', '=', false)
    .executeTakeFirst();
  if (reviewed) await announceChange(trx, CATALOGUE_TAG);
}

export interface PublicReview {
  id: string;
  rating: number;
  body: string;
  /** "Ayşe K.": the first name and the last name's initial, never the full name or address. */
  author: string;
  createdAt: string;
  updatedAt: string;
  reply: string | null;
  repliedAt: string | null;
}

export interface RatingSummary {
  average: number;
  count: number;
}

export interface ReviewPage {
  reviews: PublicReview[];
  total: number;
  page: number;
  pageCount: number;
}

/** The reviews that count: visible, with a purchase that still grants the course. */
export function countingReviews(eb: ExpressionBuilder<Database, 'reviews'>) {
  return eb.and([
    eb('reviews.hidden', '=', false),
    eb.exists(
      eb
        .selectFrom('purchases')
        .select('purchases.id')
        .whereRef('purchases.id', '=', 'reviews.purchase_id')
        .where('purchases.status', '=', 'completed'),
    ),
  ]);
}

/** Average (one decimal) and count as two columns of a course query; null average when none. */
export function ratingColumns(eb: ExpressionBuilder<Database, 'courses'>) {
  const counting = () => eb.selectFrom('reviews').whereRef('reviews.course_id', '=', 'courses.id').where(countingReviews);
  return [
    counting()
      .select(sql<string | null>`round(avg(reviews.rating), 1)`.as('value'))
      .as('rating_average'),
    counting()
      .select((inner) => inner.fn.countAll<string>().as('value'))
      .as('rating_count'),
  ] as const;
}

export function toRatingSummary(average: string | number | null, count: string | number | null): RatingSummary | null {
  const total = Number(count ?? 0);
  return total > 0 && average !== null ? { average: Number(average), count: total } : null;
}

/** The buyer's completed purchase of the course that may carry a review, or undefined. */
async function reviewablePurchase(userId: string, courseId: string): Promise<string | undefined> {
  const row = await db()
    .selectFrom('purchases')
    .select('purchases.id')
    .where(inLibraryOf(userId))
    .where('purchases.course_id', '=', courseId)
    .where('purchases.status', '=', 'completed')
    .executeTakeFirst();
  return row?.id;
}

/** Writes or rewrites the buyer's review of a course they own (and have not had refunded). */
export async function saveReview(userId: string, courseId: string, input: ReviewInput): Promise<Result<OwnReview>> {
  const purchaseId = await reviewablePurchase(userId, courseId);
  if (!purchaseId) return conflict('not_a_buyer', 'reviews.onlyBuyers');
  const saved = await db()
    .transaction()
    .execute(async (trx) => {
      const row = await trx
        .insertInto('reviews')
        .values({ course_id: courseId, user_id: userId, purchase_id: purchaseId, rating: input.rating, body: input.body })
        .onConflict((oc) =>
          oc.columns(['user_id', 'course_id']).doUpdateSet({
            purchase_id: purchaseId,
            rating: input.rating,
            body: input.body,
            updated_at: new Date(),
          }),
        )
        .returning(['rating', 'body', 'hidden', 'updated_at'])
        .executeTakeFirstOrThrow();
      await announceChange(trx, CATALOGUE_TAG);
      return row;
    });
  return ok(toOwnReview(saved));
}

export async function deleteReview(userId: string, courseId: string): Promise<Result<{ deleted: true }>> {
  return db()
    .transaction()
    .execute(async (trx) => {
      const deleted = await trx
        .deleteFrom('reviews')
        .where('user_id', '=', userId)
        .where('course_id', '=', courseId)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) return notFound;
      await announceChange(trx, CATALOGUE_TAG);
      return ok({ deleted: true as const });
    });
}

/** The buyer's own review of a course, hidden or not, so they can edit it. */
export async function ownReview(userId: string, courseId: string): Promise<OwnReview | undefined> {
  const row = await db()
    .selectFrom('reviews')
    .select(['rating', 'body', 'hidden', 'updated_at'])
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .executeTakeFirst();
  return row && toOwnReview(row);
}

/** The buyer's reviews by course id, for My Courses. */
export async function ownReviews(userId: string): Promise<Map<string, OwnReview>> {
  const rows = await db()
    .selectFrom('reviews')
    .select(['course_id', 'rating', 'body', 'hidden', 'updated_at'])
    .where('user_id', '=', userId)
    .execute();
  return new Map(rows.map((row) => [row.course_id, toOwnReview(row)]));
}

/** A course's counting reviews, newest first, one page at a time. */
export async function courseReviews(courseId: string, page = 1): Promise<ReviewPage> {
  const [rows, count] = await Promise.all([
    publicReviews()
      .where('reviews.course_id', '=', courseId)
      .orderBy('reviews.created_at', 'desc')
      .orderBy('reviews.id')
      .limit(REVIEWS_PER_PAGE)
      .offset((page - 1) * REVIEWS_PER_PAGE)
      .execute(),
    db()
      .selectFrom('reviews')
      .where('reviews.course_id', '=', courseId)
      .where(countingReviews)
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  const total = Number(count.total);
  return { reviews: rows.map(toPublicReview), total, page, pageCount: Math.max(1, Math.ceil(total / REVIEWS_PER_PAGE)) };
}

export interface Testimonial extends PublicReview {
  courseId: string;
  courseTitle: string;
}

/** The home page's "What buyers say": the best-rated written reviews of active courses in the page's language. */
export async function testimonials(lang: Language, limit = 3): Promise<Testimonial[]> {
  const rows = await publicReviews()
    .innerJoin('courses', 'courses.id', 'reviews.course_id')
    .where('courses.is_active', '=', true)
    .where('courses.language', '=', lang)
    .where('reviews.body', '<>', '')
    .select(['courses.id as course_id', 'courses.title as course_title'])
    .orderBy('reviews.rating', 'desc')
    .orderBy('reviews.created_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...toPublicReview(row), courseId: row.course_id, courseTitle: row.course_title }));
}

/** Counting reviews with what a reader may see of their author. */
function publicReviews() {
  return db()
    .selectFrom('reviews')
    .innerJoin('users', 'users.id', 'reviews.user_id')
    .where(countingReviews)
    .select([
      'reviews.id',
      'reviews.rating',
      'reviews.body',
      'reviews.reply',
      'reviews.replied_at',
      'reviews.created_at',
      'reviews.updated_at',
      'users.full_name',
    ]);
}

/** "Ayşe Kaya Yılmaz" → "Ayşe Y."; one word stays as it is; no name at all is the empty string. */
export function shortName(fullName: string): string {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return words[0] ?? '';
  return `${words[0]} ${words.at(-1)!.charAt(0).toLocaleUpperCase('tr')}.`;
}

function toPublicReview(row: {
  id: string;
  rating: number;
  body: string;
  reply: string | null;
  replied_at: Date | null;
  created_at: Date;
  updated_at: Date;
  full_name: string;
}): PublicReview {
  return {
    id: row.id,
    rating: row.rating,
    body: row.body,
    author: shortName(row.full_name),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    reply: row.reply,
    repliedAt: row.replied_at?.toISOString() ?? null,
  };
}

function toOwnReview(row: { rating: number; body: string; hidden: boolean; updated_at: Date }): OwnReview {
  return { rating: row.rating, body: row.body, hidden: row.hidden, updatedAt: row.updated_at.toISOString() };
}
