import { z } from '../zod.ts';
import { CURRENCIES } from '../course-filters.ts';

/** A calendar quarter of the tax report, as `2026-Q4` in the address (Admin → Taxes); the current one by default. */
export const QuarterSchema = z
  .string()
  .regex(/^\d{4}-Q[1-4]$/)
  .catch(() => currentQuarter())
  .default(() => currentQuarter())
  .transform((value) => ({ year: Number(value.slice(0, 4)), quarter: Number(value.slice(6)) }));

export type Quarter = z.infer<typeof QuarterSchema>;

export function currentQuarter(now = new Date()): string {
  return `${now.getUTCFullYear()}-Q${Math.floor(now.getUTCMonth() / 3) + 1}`;
}

export function quarterName({ year, quarter }: Quarter): string {
  return `${year}-Q${quarter}`;
}

/** The quarter's first instant and the next quarter's, in UTC (OSS returns are per calendar quarter). */
export function quarterBounds({ year, quarter }: Quarter): { from: Date; to: Date } {
  return { from: new Date(Date.UTC(year, (quarter - 1) * 3, 1)), to: new Date(Date.UTC(year, quarter * 3, 1)) };
}

/** The last eight quarters, newest first, for the page's picker. */
export function recentQuarters(now = new Date()): string[] {
  const index = now.getUTCFullYear() * 4 + Math.floor(now.getUTCMonth() / 3);
  return Array.from({ length: 8 }, (_, back) => `${Math.floor((index - back) / 4)}-Q${((index - back) % 4) + 1}`);
}

/** Recording an e-Arşiv invoice's number for an order (Admin → Taxes, a plain form post). */
export const EArsivNumberSchema = z.object({
  orderId: z.uuid('errors.badRequest'),
  number: z
    .string('errors.badRequest')
    .trim()
    .transform((value) => value.toUpperCase())
    .pipe(z.string().regex(/^[A-Z0-9]{3}\d{13}$/, 'admin.taxReport.eArsivInvalid')),
});

/** The quarter's last day (YYYY-MM-DD), whose ECB reference rate converts its OSS return. */
export function quarterLastDay(period: Quarter): string {
  return new Date(quarterBounds(period).to.getTime() - 86_400_000).toISOString().slice(0, 10);
}

/** An ECB reference rate typed in Admin → Taxes: units of a currency per euro on a day. */
export const ReferenceRateSchema = z.object({
  currency: z.enum(CURRENCIES, 'errors.badRequest').refine((currency) => currency !== 'EUR', 'errors.badRequest'),
  day: z.iso.date('admin.taxReport.rates.dayInvalid'),
  perEuro: z
    .string('errors.badRequest')
    .trim()
    .transform((value) => Number(value.replace(',', '.')))
    .pipe(
      z
        .number('admin.taxReport.rates.rateInvalid')
        .positive('admin.taxReport.rates.rateInvalid')
        .max(1_000_000, 'admin.taxReport.rates.rateInvalid'),
    ),
});
