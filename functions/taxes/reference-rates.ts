import { sql } from 'kysely';
import { db } from '../db/database.ts';
import { invalid, ok, type Result } from '../../src/lib/result.ts';
import { CURRENCIES } from '../../src/lib/course-filters.ts';

/**
 * The ECB's euro foreign exchange reference rates, as the seller records them: imported from the
 * ECB's own CSV (`eurofxref-hist.csv`, or the day's `eurofxref.csv`) or typed in Admin → Taxes.
 * The OSS return converts with the rate of the period's last day, or, when the ECB published none
 * that day, of its next publication (Article 369h of Directive 2006/112/EC): that is the only rate
 * used here, never an earlier day's or a guess. Rates are units of a currency per euro.
 */
export interface ReferenceRate {
  currency: string;
  /** YYYY-MM-DD. */
  day: string;
  perEuro: number;
}

/** How far after a period's last day the ECB's next publication may be (New Year's holidays and a weekend). */
const NEXT_PUBLICATION_WITHIN_DAYS = 7;
/** Only the currencies the shop sells in are kept from the ECB's thirty. */
const KEPT = CURRENCIES.filter((currency) => currency !== 'EUR');
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * The ECB's CSV: a header `Date,USD,JPY,…` then a row per day, dates as 2026-11-27 (history) or
 * "27 November 2026" (the day's file), "N/A" where a currency had no rate. Refused when it is not one.
 */
export function parseEcbCsv(text: string): Result<ReferenceRate[]> {
  const [header = '', ...rows] = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const columns = header.split(',').map((cell) => cell.trim());
  if (columns[0] !== 'Date' || !columns.includes('USD')) return notEcb();
  const rates: ReferenceRate[] = [];
  for (const row of rows) {
    if (row.trim() === '') continue;
    const cells = row.split(',').map((cell) => cell.trim());
    const day = isoDay(cells[0] ?? '');
    if (!day) return notEcb();
    for (const currency of KEPT) {
      const perEuro = Number(cells[columns.indexOf(currency)]);
      if (columns.includes(currency) && Number.isFinite(perEuro) && perEuro > 0) rates.push({ currency, day, perEuro });
    }
  }
  return rates.length > 0 ? ok(rates) : notEcb();
}

const notEcb = () => invalid('not_ecb_csv', 'admin.taxReport.rates.notEcb', { ecbCsv: 'admin.taxReport.rates.notEcb' });

function isoDay(cell: string): string | undefined {
  if (/^\d{4}-\d{2}-\d{2}$/.test(cell)) return cell;
  const match = /^(\d{1,2}) ([A-Z][a-z]+) (\d{4})$/.exec(cell);
  const month = match ? MONTHS.indexOf(match[2]!) + 1 : 0;
  return month ? `${match![3]}-${String(month).padStart(2, '0')}-${match![1]!.padStart(2, '0')}` : undefined;
}

/** Records rates (a later import or entry for the same day replaces the earlier); answers how many. */
export async function recordReferenceRates(rates: readonly ReferenceRate[], source: 'entered' | 'ecb_csv'): Promise<number> {
  const CHUNK = 1_000;
  await db()
    .transaction()
    .execute(async (trx) => {
      for (let start = 0; start < rates.length; start += CHUNK)
        await trx
          .insertInto('reference_rates')
          .values(
            rates
              .slice(start, start + CHUNK)
              .map(({ currency, day, perEuro }) => ({ currency, day, per_euro: perEuro, source, recorded_at: new Date() })),
          )
          .onConflict((conflict) =>
            conflict.columns(['currency', 'day']).doUpdateSet({
              per_euro: sql`excluded.per_euro`,
              source: sql`excluded.source`,
              recorded_at: sql`excluded.recorded_at`,
            }),
          )
          .execute();
    });
  return rates.length;
}

/** The rate of `day` or the ECB's next publication after it, per currency asked for; a currency without one is absent. */
export async function ratesOfDay(day: string, currencies: readonly string[]): Promise<Map<string, ReferenceRate>> {
  const wanted = currencies.filter((currency) => currency !== 'EUR');
  if (wanted.length === 0) return new Map();
  const { rows } = await sql<{ currency: string; day: string; per_euro: string }>`
    SELECT DISTINCT ON (currency) currency, to_char(day, 'YYYY-MM-DD') AS day, per_euro
      FROM reference_rates
     WHERE currency IN (${sql.join(wanted)})
       AND day >= ${day}::date AND day <= ${day}::date + ${NEXT_PUBLICATION_WITHIN_DAYS}::int
     ORDER BY currency, day`.execute(db());
  return new Map(rows.map((row) => [row.currency, { currency: row.currency, day: row.day, perEuro: Number(row.per_euro) }]));
}

/** The latest rate recorded per currency (for the threshold's running total, which has no period's end yet). */
export async function latestRates(): Promise<Map<string, ReferenceRate>> {
  const { rows } = await sql<{ currency: string; day: string; per_euro: string }>`
    SELECT DISTINCT ON (currency) currency, to_char(day, 'YYYY-MM-DD') AS day, per_euro
      FROM reference_rates ORDER BY currency, day DESC`.execute(db());
  return new Map(rows.map((row) => [row.currency, { currency: row.currency, day: row.day, perEuro: Number(row.per_euro) }]));
}

/**
 * An amount in minor units from one currency to another through the euro, or undefined when a rate
 * is missing. Every shop currency has two decimals, so minor units convert like major ones.
 */
export function convertMinor(
  amountMinor: number,
  from: string,
  to: string,
  rates: ReadonlyMap<string, ReferenceRate>,
): number | undefined {
  if (from === to) return amountMinor;
  const perEuro = (currency: string) => (currency === 'EUR' ? 1 : rates.get(currency)?.perEuro);
  const fromRate = perEuro(from);
  const toRate = perEuro(to);
  if (fromRate === undefined || toRate === undefined) return undefined;
  return Math.round(Number(((amountMinor / fromRate) * toRate).toFixed(6)));
}
