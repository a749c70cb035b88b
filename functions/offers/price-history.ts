import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/** How far back "the price before" of a time-limited discount looks (EU Directive 98/6/EC art. 6a). */
export const PRICE_HISTORY_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The lowest price a course had in `currency` during the 30 days before `at`: the price in force when
 * the period began and every price set since (course_price_changes, written by a trigger on every
 * change). Undefined when the course had no price in that currency then.
 */
export async function lowestRecentPrice(
  database: Db,
  courseId: string,
  currency: string,
  at: Date = new Date(),
): Promise<number | undefined> {
  const from = new Date(at.getTime() - PRICE_HISTORY_DAYS * DAY_MS);
  const { rows } = await sql<{ lowest: number | null }>`
    SELECT min(price_minor) AS lowest FROM course_price_changes
    WHERE course_id = ${courseId} AND currency = ${currency} AND changed_at <= ${at}
      AND (changed_at > ${from} OR id = (
        SELECT id FROM course_price_changes
        WHERE course_id = ${courseId} AND changed_at <= ${from}
        ORDER BY changed_at DESC, id DESC LIMIT 1))`.execute(database);
  return rows[0]?.lowest ?? undefined;
}
