import { z } from './zod.ts';
import { EmailSchema, text, type FieldErrors } from './validation.ts';
import { uuidSchema } from './uuid.schema.ts';
import { GIFT_MESSAGE_MAX } from './gift-limits.ts';

/**
 * A gift's fields on the checkout form (decision 52): who receives it, a message, and the day it is
 * delivered. The day is a calendar date; "today" is the buyer's own, so the earliest day accepted is
 * today somewhere on Earth (UTC−12), and the latest a year ahead.
 */
const DAY_MS = 24 * 60 * 60 * 1000;
const EARLIEST_OFFSET_MS = 12 * 60 * 60 * 1000;
const LATEST_DAYS = 366;

/** A date as `YYYY-MM-DD` in UTC. */
export const isoDay = (at: Date) => at.toISOString().slice(0, 10);

/** The first and last delivery days accepted at `now`. */
export function giftDayRange(now = new Date()): { earliest: string; latest: string } {
  return {
    earliest: isoDay(new Date(now.getTime() - EARLIEST_OFFSET_MS)),
    latest: isoDay(new Date(now.getTime() + LATEST_DAYS * DAY_MS)),
  };
}

const GiftDateSchema = z
  .string('gifts.dateInvalid')
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'gifts.dateInvalid')
  .refine(
    (day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) && isoDay(new Date(`${day}T00:00:00Z`)) === day,
    'gifts.dateInvalid',
  )
  .refine((day) => day >= giftDayRange().earliest, 'gifts.datePast')
  .refine((day) => day <= giftDayRange().latest, 'gifts.dateTooFar');

/** The gift's fields, required when the checkout is a gift (the island's form and the server's check). */
export const GiftFieldsSchema = z.object({
  giftTo: EmailSchema,
  giftMessage: text('errors.badRequest').trim().max(GIFT_MESSAGE_MAX, 'validation.tooLong').default(''),
  giftDate: GiftDateSchema,
});
export type GiftFields = z.infer<typeof GiftFieldsSchema>;
export const GIFT_FIELDS = ['giftTo', 'giftMessage', 'giftDate'] as const;
export type GiftField = (typeof GIFT_FIELDS)[number];

/** A gift's fields as the checkout page's own post left them, and their errors (a form posted without the script). */
export interface PostedGift {
  values: Record<GiftField, string>;
  errors: FieldErrors;
}

/** The gift a buyer sends now or again, by its id (the endpoint's path, the dashboard's form). */
export const GiftResendSchema = z.object({ id: uuidSchema('errors.notFound') });
