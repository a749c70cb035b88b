import { z } from '../zod.ts';
import { text } from '../validation.ts';
import { uuidSchema } from '../uuid.schema.ts';
import { CURRENCIES, type Currency } from '../course-filters.ts';
import { toMinorUnits } from '../money.ts';

/**
 * The admin discount-code form, checked by the same schema in the editor and on the server
 * (client-safe; messages are translation keys). Number and date inputs arrive as text; "" is unset.
 */
export const CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{2,31}$/;
export const MAX_REDEMPTIONS = 1_000_000;

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const WholeNumber = (message: string, min: number, max: number) =>
  z.preprocess((value) => {
    const present = blankToUndefined(value);
    return typeof present === 'string' ? Number(present.trim()) : present;
  }, z.number(message).int(message).min(min, message).max(max, message).nullish());

/** A fixed amount in major units ("5", "4.99", "149,90"), stored in minor units. */
const Amount = z.preprocess((value) => {
  const present = blankToUndefined(value);
  return typeof present === 'string' ? Number(present.trim().replace(',', '.')) : present;
}, z.number('admin.discounts.amountInvalid').positive('admin.discounts.amountInvalid').max(100_000, 'admin.discounts.amountInvalid').transform(toMinorUnits).nullish());

/** A moment from a datetime-local input (the browser's time) or an ISO string (on the server). */
const Moment = z.preprocess((value) => {
  const present = blankToUndefined(value);
  return typeof present === 'string' ? new Date(present) : present;
}, z.date('admin.discounts.dateInvalid').nullish());

export const DiscountSchema = z
  .object(
    {
      code: text('admin.discounts.codeInvalid')
        .trim()
        .transform((code) => code.toUpperCase())
        .pipe(z.string().regex(CODE_PATTERN, 'admin.discounts.codeInvalid')),
      kind: z.enum(['percent', 'fixed'], 'errors.badRequest'),
      percent: WholeNumber('admin.discounts.percentInvalid', 1, 100),
      amountUSD: Amount,
      amountEUR: Amount,
      amountTRY: Amount,
      allCourses: z.boolean('errors.badRequest').default(true),
      /** Course ids, comma-separated (the form's checkboxes) or a list. */
      courseIds: z
        .union([text('errors.badRequest').max(20_000), z.array(uuidSchema('errors.badRequest')).max(500)], 'errors.badRequest')
        .default('')
        .transform((value) => [
          ...new Set(
            Array.isArray(value)
              ? value
              : value
                  .split(',')
                  .map((id) => id.trim())
                  .filter(Boolean),
          ),
        ])
        .pipe(z.array(uuidSchema('errors.badRequest')).max(500, 'errors.badRequest')),
      startsAt: Moment,
      endsAt: Moment,
      maxRedemptions: WholeNumber('admin.discounts.maxInvalid', 1, MAX_REDEMPTIONS),
      oncePerBuyer: z.boolean('errors.badRequest').default(false),
      active: z.boolean('errors.badRequest').default(true),
    },
    'errors.badRequest',
  )
  .superRefine((discount, context) => {
    const issue = (path: string, message: string) => context.addIssue({ code: 'custom', path: [path], message });
    if (discount.kind === 'percent' && discount.percent == null) issue('percent', 'admin.discounts.percentInvalid');
    if (discount.kind === 'fixed' && CURRENCIES.every((currency) => discount[`amount${currency}`] == null))
      issue('amountUSD', 'admin.discounts.amountRequired');
    if (discount.startsAt && discount.endsAt && discount.endsAt <= discount.startsAt)
      issue('endsAt', 'admin.discounts.endBeforeStart');
    if (!discount.allCourses && discount.courseIds.length === 0) issue('courseIds', 'admin.discounts.coursesRequired');
  });

export type DiscountForm = z.input<typeof DiscountSchema>;
export type DiscountInput = z.output<typeof DiscountSchema>;

/** A code as the admin list shows it. */
export interface AdminDiscountRow {
  id: string;
  code: string;
  kind: 'percent' | 'fixed';
  percent: number | null;
  /** Fixed amounts per currency, in minor units. */
  amounts: Partial<Record<Currency, number>>;
  allCourses: boolean;
  courseIds: string[];
  startsAt: string | null;
  endsAt: string | null;
  maxRedemptions: number | null;
  oncePerBuyer: boolean;
  active: boolean;
  redemptions: number;
  /** What completed orders saved with it, per currency. */
  totals: { currency: string; amountMinor: number }[];
}
