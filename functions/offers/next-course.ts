import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { db, type Db } from '../db/database.ts';
import { chargeable, percentOff } from '../discounts/discounts.ts';
import { mailboxKey } from '../mail/mailbox-key.ts';
import { lowestRecentPrice } from './price-history.ts';
import { checkoutUrl, courseUrl } from '../../src/lib/course-links.ts';
import type { Language } from '../../src/i18n/languages.ts';

/*
 * The next course after a purchase (decision 53): the one the seller chose for the bought course, or
 * else the one its buyers most often bought too, never one the buyer owns. With the seller's one-time
 * discount the order gets a discount code of its own: one use, for that course, from the buyer's
 * mailbox, until a fixed time after the purchase; the checkout honours it like any code
 * (functions/discounts/). Nothing here counts down or starts again: the end is a date.
 */

const HOUR_MS = 60 * 60 * 1000;

export interface OfferedCourse {
  id: string;
  title: string;
  coverImageUrl: string | null;
  priceMinor: number;
  currency: string;
}

export interface OneTimeDiscount {
  /** The order's own code, which the offer's link carries to the checkout. */
  code: string;
  /** What the checkout charges with it (before any tax the buyer's country adds). */
  totalMinor: number;
  endsAt: Date;
  /**
   * The lowest price of the 30 days before, and the reduction against it: shown only when the
   * offer is below it, since a reduction may only be announced against that price (EU 98/6/EC art. 6a).
   */
  before?: { priceMinor: number; percent: number };
}

export interface NextCourseOffer {
  course: OfferedCourse;
  discount?: OneTimeDiscount;
}

interface Order {
  id: string;
  user_id: string | null;
  email: string;
  course_id: string;
  completed_at: Date | null;
}

/** The offer after a completed order, for its buyer; undefined when there is none (or the buyer owns it). */
export async function offerAfterOrder(
  purchaseId: string,
  database: Db = db(),
  now: Date = new Date(),
): Promise<NextCourseOffer | undefined> {
  const order = await database
    .selectFrom('purchases')
    .select(['id', 'user_id', 'email', 'course_id', 'completed_at'])
    .where('id', '=', purchaseId)
    .where('status', '=', 'completed')
    .executeTakeFirst();
  if (!order?.user_id) return undefined;
  const chosen = await database
    .selectFrom('course_offers')
    .select(['offered_course_id', 'discount_percent', 'discount_hours'])
    .where('course_id', '=', order.course_id)
    .executeTakeFirst();
  const offeredId = chosen?.offered_course_id ?? (await mostOftenBoughtWith(database, order.course_id));
  const course = offeredId ? await offerableCourse(database, offeredId, order.user_id) : undefined;
  if (!course) return undefined;
  const offered: OfferedCourse = {
    id: course.id,
    title: course.title,
    coverImageUrl: course.cover_image_url,
    priceMinor: course.price_minor,
    currency: course.currency,
  };
  // A named price (pay what you want) or a free course has nothing to take a percentage off.
  const discountable = course.minimum_price_minor === null && course.price_minor > 0;
  const terms = discountable && chosen?.discount_percent && chosen.discount_hours ? chosen : undefined;
  const discount = terms
    ? await oneTimeDiscount(database, order, offered, { percent: terms.discount_percent!, hours: terms.discount_hours! }, now)
    : undefined;
  return discount ? { course: offered, discount } : { course: offered };
}

/** Where the offer leads: the checkout with the order's code in it, or the course's page. */
export function offerPath(lang: Language, offer: NextCourseOffer): string {
  return offer.discount
    ? `${checkoutUrl(lang, offer.course.id)}?code=${encodeURIComponent(offer.discount.code)}`
    : courseUrl(lang, offer.course.id);
}

/**
 * The course most often bought by this course's buyers: counted over buyers with a completed order of
 * this course and a completed, paid order of the other (refunded, disputed, free and bundle-granted
 * ones left out), active courses only; ties go to the one bought most recently.
 */
export async function mostOftenBoughtWith(database: Db, courseId: string): Promise<string | undefined> {
  const { rows } = await sql<{ course_id: string }>`
    SELECT other.course_id FROM purchases mine
    JOIN purchases other ON other.user_id = mine.user_id AND other.course_id <> mine.course_id
      AND other.status = 'completed' AND other.amount_minor > 0
    JOIN courses c ON c.id = other.course_id AND c.is_active
    WHERE mine.course_id = ${courseId} AND mine.status = 'completed' AND mine.bundle_purchase_id IS NULL
    GROUP BY other.course_id
    ORDER BY count(*) DESC, max(other.completed_at) DESC, other.course_id
    LIMIT 1`.execute(database);
  return rows[0]?.course_id;
}

/** The offered course while it is for sale and the buyer does not own it. */
function offerableCourse(database: Db, courseId: string, userId: string) {
  return database
    .selectFrom('courses')
    .select(['id', 'title', 'cover_image_url', 'price_minor', 'minimum_price_minor', 'currency'])
    .where('id', '=', courseId)
    .where('is_active', '=', true)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('purchases')
            .select('purchases.id')
            .whereRef('purchases.course_id', '=', 'courses.id')
            .where('purchases.user_id', '=', userId)
            .where('purchases.status', '=', 'completed'),
        ),
      ),
    )
    .executeTakeFirst();
}

/**
 * The order's one-time discount: its code, made the first time the offer is shown (the success page or
 * the materials mail, whichever comes first) and kept as made, so a later change of the seller's
 * terms never changes an offer already given. None once it has ended, or when the order's code was
 * made for another course (the seller changed the offer since).
 */
async function oneTimeDiscount(
  database: Db,
  order: Order,
  course: OfferedCourse,
  terms: { percent: number; hours: number },
  now: Date,
): Promise<OneTimeDiscount | undefined> {
  const endsAt = new Date((order.completed_at ?? now).getTime() + terms.hours * HOUR_MS);
  if (endsAt > now) await makeOfferCode(database, order, course.id, terms.percent, endsAt);
  const code = await database
    .selectFrom('discount_codes')
    .innerJoin('discount_code_courses', 'discount_code_courses.discount_code_id', 'discount_codes.id')
    .select(['discount_codes.code', 'discount_codes.percent', 'discount_codes.ends_at'])
    .where('discount_codes.offer_purchase_id', '=', order.id)
    .where('discount_code_courses.course_id', '=', course.id)
    .where('discount_codes.ends_at', '>', now)
    .executeTakeFirst();
  if (!code?.ends_at || code.percent === null) return undefined;
  const totalMinor = course.priceMinor - percentOff(course.priceMinor, code.percent);
  if (!chargeable(totalMinor, course.currency)) return undefined;
  const lowest = await lowestRecentPrice(database, course.id, course.currency, now);
  const before =
    lowest !== undefined && totalMinor < lowest
      ? { priceMinor: lowest, percent: Math.round(((lowest - totalMinor) * 100) / lowest) }
      : undefined;
  return { code: code.code, totalMinor, endsAt: code.ends_at, ...(before ? { before } : {}) };
}

/** One statement, so no checkout ever sees the code without its course; a second call changes nothing. */
async function makeOfferCode(database: Db, order: Order, courseId: string, percent: number, endsAt: Date): Promise<void> {
  const code = `NEXT-${randomBytes(8).toString('hex').toUpperCase()}`;
  await sql`
    WITH made AS (
      INSERT INTO discount_codes (code, kind, percent, all_courses, ends_at, max_redemptions, once_per_buyer, offer_purchase_id, buyer_key)
      VALUES (${code}, 'percent', ${percent}, false, ${endsAt}, 1, true, ${order.id}, ${mailboxKey(order.email)})
      ON CONFLICT (offer_purchase_id) DO NOTHING
      RETURNING id)
    INSERT INTO discount_code_courses (discount_code_id, course_id) SELECT id, ${courseId} FROM made`.execute(database);
}
