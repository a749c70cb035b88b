import { sql } from 'kysely';
import { db } from '../db/database.ts';
import type { Currency } from '../../src/lib/course-filters.ts';
import type { CourseLanguage } from '../../src/lib/course-languages.ts';

/** A buyer's completed purchases, whatever their interface language (each labelled with its course language). */
export interface OwnedCourse {
  purchaseId: string;
  courseId: string;
  title: string;
  instructorName: string;
  coverImageUrl: string | null;
  courseLanguage: CourseLanguage;
  amountMinor: number;
  currency: Currency;
  purchasedAt: string;
  downloadCount: number;
  lastDownloadAt: string | null;
}

export interface LibraryStats {
  totalCourses: number;
  totalDownloads: number;
  thisWeek: number;
}

export const RECENT_PURCHASES_LIMIT = 5;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

export async function listOwnedCourses(userId: string, limit?: number): Promise<OwnedCourse[]> {
  let query = db()
    .selectFrom('purchases')
    .innerJoin('courses', 'courses.id', 'purchases.course_id')
    .select([
      'purchases.id as purchase_id',
      'courses.id as course_id',
      'courses.title',
      'courses.instructor_name',
      'courses.cover_image_url',
      'courses.language',
      'purchases.amount_minor',
      'purchases.currency',
      'purchases.completed_at',
      'purchases.created_at',
      'purchases.download_count',
      'purchases.last_download_at',
    ])
    .where('purchases.user_id', '=', userId)
    .where('purchases.status', '=', 'completed')
    .orderBy(sql`coalesce(purchases.completed_at, purchases.created_at)`, 'desc');
  if (limit) query = query.limit(limit);
  const rows = await query.execute();
  return rows.map((row) => ({
    purchaseId: row.purchase_id,
    courseId: row.course_id,
    title: row.title,
    instructorName: row.instructor_name,
    coverImageUrl: row.cover_image_url,
    courseLanguage: row.language as CourseLanguage,
    amountMinor: row.amount_minor,
    currency: row.currency as Currency,
    purchasedAt: (row.completed_at ?? row.created_at).toISOString(),
    downloadCount: row.download_count,
    lastDownloadAt: row.last_download_at?.toISOString() ?? null,
  }));
}

export async function libraryStats(userId: string): Promise<LibraryStats> {
  const row = await db()
    .selectFrom('purchases')
    .select((eb) => [
      eb.fn.countAll<number>().as('total_courses'),
      eb.fn.coalesce(eb.fn.sum<number>('download_count'), sql<number>`0`).as('total_downloads'),
      sql<number>`count(*) FILTER (WHERE coalesce(completed_at, created_at) > ${new Date(Date.now() - WEEK_MS)})`.as('this_week'),
    ])
    .where('user_id', '=', userId)
    .where('status', '=', 'completed')
    .executeTakeFirstOrThrow();
  return {
    totalCourses: Number(row.total_courses),
    totalDownloads: Number(row.total_downloads),
    thisWeek: Number(row.this_week),
  };
}
