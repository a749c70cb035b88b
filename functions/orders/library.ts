import { sql, type ExpressionBuilder, type RawBuilder } from 'kysely';
import { db, type Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { documentNumber } from './numbering.ts';
import { orderReference } from './orders.ts';
import { giftBoughtBy, giftDeliveryDay } from './gift-rows.ts';
import { courseTitleIn } from '../catalogue/bundle-texts.ts';
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
  /** When the course's file was replaced, if that happened since this buyer last downloaded it (or bought it). */
  updatedSinceDownloadAt: string | null;
}

export interface LibraryStats {
  totalCourses: number;
  totalDownloads: number;
  thisWeek: number;
}

export const RECENT_PURCHASES_LIMIT = 5;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The one rule for what an account may open: its own purchases, where a purchase made by e-mail alone
 * (a guest checkout) counts only once the account has proved it owns that address (a verification
 * mail or a sign-in link). Registering someone else's address first gains nothing.
 */
export function inLibraryOf(userId: string) {
  return (eb: ExpressionBuilder<Database, 'purchases'>) =>
    eb.and([
      eb('purchases.user_id', '=', userId),
      eb.or([
        eb('purchases.guest', '=', false),
        eb.exists(
          eb.selectFrom('users').select('users.id').where('users.id', '=', userId).where('users.email_verified', '=', true),
        ),
      ]),
    ]);
}

/** Guest purchases waiting for this account to verify its address. */
export async function unverifiedPurchaseCount(userId: string): Promise<number> {
  const row = await db()
    .selectFrom('purchases')
    .innerJoin('users', 'users.id', 'purchases.user_id')
    .select((eb) => eb.fn.countAll<number>().as('waiting'))
    .where('purchases.user_id', '=', userId)
    .where('purchases.guest', '=', true)
    .where('purchases.status', '=', 'completed')
    .where('users.email_verified', '=', false)
    .executeTakeFirstOrThrow();
  return Number(row.waiting);
}

/** The courses an account owns, for "You own this" on cached pages (asked by the browser). */
export async function ownedCourses(userId: string): Promise<{ courseId: string; purchaseId: string }[]> {
  const rows = await db()
    .selectFrom('purchases')
    .select(['course_id', 'id'])
    .where(inLibraryOf(userId))
    .where('status', '=', 'completed')
    .execute();
  return rows.map((row) => ({ courseId: row.course_id, purchaseId: row.id }));
}

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
      'courses.pdf_updated_at',
    ])
    .where(inLibraryOf(userId))
    .where('purchases.status', '=', 'completed')
    // A bundle has no file: its courses are in the library as purchases of their own (decision 44).
    .where('courses.kind', '=', 'course')
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
    updatedSinceDownloadAt: updatedSince(row.pdf_updated_at, row.last_download_at ?? row.completed_at ?? row.created_at),
  }));
}

const updatedSince = (updatedAt: Date | null, seen: Date): string | null =>
  updatedAt && updatedAt > seen ? updatedAt.toISOString() : null;

export async function libraryStats(userId: string): Promise<LibraryStats> {
  const row = await db()
    .selectFrom('purchases')
    .select((eb) => [
      eb.fn.countAll<number>().as('total_courses'),
      eb.fn.coalesce(eb.fn.sum<number>('download_count'), sql<number>`0`).as('total_downloads'),
      sql<number>`count(*) FILTER (WHERE coalesce(completed_at, created_at) > ${new Date(Date.now() - WEEK_MS)})`.as('this_week'),
    ])
    .where(inLibraryOf(userId))
    .where('status', '=', 'completed')
    .executeTakeFirstOrThrow();
  return {
    totalCourses: Number(row.total_courses),
    totalDownloads: Number(row.total_downloads),
    thisWeek: Number(row.this_week),
  };
}

const receiptPath = (purchaseId: string) => `/api/account/purchases/${purchaseId}/receipt`;

export type OrderStatus = 'pending' | 'completed' | 'failed' | 'expired' | 'refunded' | 'disputed';

/** One line of a buyer's order history (also what "download my data" exports). */
export interface OrderLine {
  reference: string;
  courseTitle: string;
  status: OrderStatus;
  amountMinor: number;
  currency: Currency;
  email: string;
  fullName: string;
  createdAt: string;
  completedAt: string | null;
  downloads: number;
  lastDownloadAt: string | null;
  /** The discount code used, and what it took off the price (in minor units). */
  discountCode: string | null;
  discountMinor: number;
  /** The numbered receipt of a paid order, and the credit note of a refunded one: number and PDF address. */
  receipt: { number: string; url: string } | null;
  creditNote: { number: string; url: string } | null;
  /** The e-Arşiv invoice a seller in Türkiye issued for the order and recorded in Admin → Taxes. */
  eArsivNumber: string | null;
  /** A gift this account bought (decision 52): to whom, on which day (`YYYY-MM-DD`), and whether it has gone. */
  gift: { recipientEmail: string; deliverOn: string; delivered: boolean } | null;
}

/**
 * Every order an account may see, newest first: its library's (by the same rule), and the gifts it
 * bought, which are in nobody's library. Two queries, so each keeps to its index.
 */
export async function listOrders(userId: string): Promise<OrderLine[]> {
  const lines = db()
    .selectFrom('purchases')
    .innerJoin('courses', 'courses.id', 'purchases.course_id')
    .leftJoin('gifts', 'gifts.order_id', 'purchases.id')
    .select([
      'purchases.id',
      // A bundle's title in the order's language (decision 44).
      courseTitleIn(sql.ref('purchases.language')).as('title'),
      'purchases.status',
      'purchases.amount_minor',
      'purchases.currency',
      'purchases.email',
      'purchases.full_name',
      'purchases.created_at',
      'purchases.completed_at',
      'purchases.download_count',
      'purchases.last_download_at',
      'purchases.discount_code',
      'purchases.discount_minor',
      'purchases.receipt_number',
      'purchases.credit_note_number',
      'purchases.e_arsiv_number',
      'gifts.recipient_email',
      giftDeliveryDay.as('deliver_on'),
      'gifts.delivered_at',
    ])
    .orderBy('purchases.created_at', 'desc');
  const [own, given] = await Promise.all([
    // A bundle's courses were ordered with it: its order is the line.
    lines.where(inLibraryOf(userId)).where('purchases.bundle_purchase_id', 'is', null).execute(),
    lines.where('gifts.buyer_id', '=', userId).where(giftBoughtBy(userId)).execute(),
  ]);
  const rows = [...own, ...given].sort((a, b) => b.created_at.getTime() - a.created_at.getTime());
  return rows.map((row) => ({
    reference: orderReference(row.id),
    courseTitle: row.title,
    status: row.status,
    amountMinor: row.amount_minor,
    currency: row.currency as Currency,
    email: row.email,
    fullName: row.full_name,
    createdAt: row.created_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
    downloads: row.download_count,
    lastDownloadAt: row.last_download_at?.toISOString() ?? null,
    discountCode: row.discount_code,
    discountMinor: row.discount_minor,
    receipt:
      row.receipt_number === null ? null : { number: documentNumber('receipt', row.receipt_number), url: receiptPath(row.id) },
    creditNote:
      row.credit_note_number === null
        ? null
        : { number: documentNumber('credit_note', row.credit_note_number), url: `${receiptPath(row.id)}?document=credit-note` },
    eArsivNumber: row.e_arsiv_number,
    gift:
      row.recipient_email === null
        ? null
        : { recipientEmail: row.recipient_email, deliverOn: row.deliver_on, delivered: row.delivered_at !== null },
  }));
}

/**
 * Guest purchases let go of when an account that never proved the address was deleted
 * (account.ts) join the address's next account, under the same verified-library rule; one
 * completed order per course, as always. Several new accounts at once (an import) in one statement.
 * Returns how many orders they adopted.
 */
export async function adoptDetachedPurchases(database: Db, accounts: { id: string; email: string }[]): Promise<number> {
  if (accounts.length === 0) return 0;
  const ids = accounts.map((account) => account.id);
  const emails = accounts.map((account) => account.email);
  const adopted = await adoptionBy(sql`unnest(${ids}::uuid[], ${emails}::text[]) AS account(id, email)`).execute(database);
  return Number(adopted.numAffectedRows ?? 0);
}

/**
 * The statement of `adoptDetachedPurchases` for accounts given as a relation `account(id, email)`:
 * a statement's own (a new account inserted in the same one, accounts.ts) or a list's.
 */
export function adoptionBy(accounts: RawBuilder<unknown>) {
  return sql`
    UPDATE purchases SET user_id = account.id
    FROM ${accounts}
    WHERE purchases.user_id IS NULL AND purchases.guest AND purchases.email = account.email
      AND (purchases.status <> 'completed' OR purchases.id IN (
        SELECT DISTINCT ON (email, course_id) id FROM purchases
        WHERE user_id IS NULL AND guest AND email IN (SELECT account.email FROM ${accounts}) AND status = 'completed'
        ORDER BY email, course_id, created_at))`;
}
