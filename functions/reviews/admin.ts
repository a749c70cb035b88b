import { sql } from 'kysely';
import { db } from '../db/database.ts';
import { announceChange } from '../http/cache-notify.ts';
import { CATALOGUE_TAG } from '../http/cache-rules.ts';
import { notFound, ok, type Result } from '../../src/lib/result.ts';
import type { AdminReviewPage } from '../../src/lib/reviews.schema.ts';
import { isUuid } from '../../src/lib/uuid.ts';

export const ADMIN_REVIEWS_PER_PAGE = 20;

/** Newest first; `search` matches the course title, the text, the reply and the author's name or e-mail. */
export async function listReviewsForAdmin({
  search = '',
  page = 1,
}: {
  search?: string;
  page?: number;
}): Promise<AdminReviewPage> {
  let query = db()
    .selectFrom('reviews')
    .innerJoin('courses', 'courses.id', 'reviews.course_id')
    .innerJoin('users', 'users.id', 'reviews.user_id')
    .innerJoin('purchases', 'purchases.id', 'reviews.purchase_id');
  if (search) {
    const pattern = `%${search.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    query = query.where((eb) =>
      eb.or(
        ['courses.title', 'reviews.body', 'reviews.reply', 'users.full_name', 'users.email'].map(
          (column) => sql<boolean>`${sql.ref(column)} ILIKE ${pattern}`,
        ),
      ),
    );
  }
  const [rows, count] = await Promise.all([
    query
      .select([
        'reviews.id',
        'reviews.course_id',
        'courses.title',
        'reviews.rating',
        'reviews.body',
        'users.full_name',
        'users.email',
        'reviews.hidden',
        'purchases.status',
        'reviews.reply',
        'reviews.created_at',
      ])
      .orderBy('reviews.created_at', 'desc')
      .orderBy('reviews.id')
      .limit(ADMIN_REVIEWS_PER_PAGE)
      .offset((page - 1) * ADMIN_REVIEWS_PER_PAGE)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  const total = Number(count.total);
  return {
    reviews: rows.map((row) => ({
      id: row.id,
      courseId: row.course_id,
      courseTitle: row.title,
      rating: row.rating,
      body: row.body,
      authorName: row.full_name,
      authorEmail: row.email,
      hidden: row.hidden,
      purchaseActive: row.status === 'completed',
      reply: row.reply,
      createdAt: row.created_at.toISOString(),
    })),
    total,
    page,
    pageCount: Math.max(1, Math.ceil(total / ADMIN_REVIEWS_PER_PAGE)),
  };
}

export async function setReviewHidden(id: string, hidden: boolean): Promise<Result<{ hidden: boolean }>> {
  return updateReview(id, { hidden }, (row) => ({ hidden: row.hidden }));
}

/** The shop's answer, shown under the review; an empty text removes it. */
export async function replyToReview(id: string, reply: string): Promise<Result<{ reply: string | null }>> {
  return updateReview(id, reply ? { reply, replied_at: new Date() } : { reply: null, replied_at: null }, (row) => ({
    reply: row.reply,
  }));
}

async function updateReview<T>(
  id: string,
  changes: { hidden?: boolean; reply?: string | null; replied_at?: Date | null },
  toValue: (row: { hidden: boolean; reply: string | null }) => T,
): Promise<Result<T>> {
  if (!isUuid(id)) return notFound;
  return db()
    .transaction()
    .execute(async (trx) => {
      const row = await trx
        .updateTable('reviews')
        .set(changes)
        .where('id', '=', id)
        .returning(['hidden', 'reply'])
        .executeTakeFirst();
      if (!row) return notFound;
      await announceChange(trx, CATALOGUE_TAG);
      return ok(toValue(row));
    });
}
