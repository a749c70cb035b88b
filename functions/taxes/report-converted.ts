import { sql } from 'kysely';
import { db } from '../db/database.ts';
import { quarterLastDay, type Quarter } from '../../src/lib/admin/tax-report.schema.ts';
import { isEuCountry } from './rate-table.ts';
import { convertMinor, latestRates, ratesOfDay, type ReferenceRate } from './reference-rates.ts';
import { movements, quarterTaxLines, type TaxReportLine } from './report.ts';
import type { TaxSettings } from '../../src/lib/admin/tax-settings.schema.ts';

/**
 * The quarter's tax lines in the seller's reporting currency, converted with the ECB rate of the
 * quarter's last day (or the ECB's next publication) that the seller recorded; a line whose rate is
 * missing keeps its own currency only, and the report says which rates are missing.
 */
export interface ConvertedLine extends TaxReportLine {
  /** In the reporting currency; undefined when a rate is missing. */
  reportingNetMinor: number | undefined;
  reportingTaxMinor: number | undefined;
}

export interface ConvertedQuarter {
  lines: ConvertedLine[];
  reportingCurrency: string;
  /** The day whose rate converts (the quarter's last). */
  rateDay: string;
  /** The rates used, by currency. */
  rates: ReferenceRate[];
  /** Currencies of lines that could not be converted. */
  missing: string[];
}

export async function convertedQuarter(period: Quarter, reportingCurrency: string): Promise<ConvertedQuarter> {
  const lines = await quarterTaxLines(period);
  const rateDay = quarterLastDay(period);
  const currencies = [...new Set([...lines.map((line) => line.currency), reportingCurrency])];
  const rates = await ratesOfDay(rateDay, currencies);
  const converted = lines.map((line) => ({
    ...line,
    reportingNetMinor: convertMinor(line.netMinor, line.currency, reportingCurrency, rates),
    reportingTaxMinor: convertMinor(line.taxMinor, line.currency, reportingCurrency, rates),
  }));
  // The rates a line needs: its currency's and the reporting currency's, the euro's being 1.
  const missing = new Set(
    converted
      .filter((line) => line.reportingNetMinor === undefined)
      .flatMap((line) => [line.currency, reportingCurrency])
      .filter((currency) => currency !== 'EUR' && !rates.has(currency)),
  );
  return { lines: converted, reportingCurrency, rateDay, rates: [...rates.values()], missing: [...missing].sort() };
}

/** An EU seller may charge home VAT on cross-border EU sales to consumers while they stay under €10,000 a year. */
export const EU_THRESHOLD_EUR_MINOR = 10_000_00;
/** Past this share of the threshold, the report warns that it nears. */
export const THRESHOLD_WARNING_SHARE = 0.8;

export interface ThresholdStatus {
  year: number;
  /** Cross-border EU sales to consumers (amounts before tax, refunds netted), in euro cents. */
  salesEurMinor: number;
  level: 'under' | 'near' | 'past';
  /** Currencies with such sales but no recorded rate: not counted, and said so. */
  unconverted: string[];
  /** The rates used (each currency's latest recorded). */
  rates: ReferenceRate[];
}

/**
 * For a seller who records being under the threshold: this calendar year's cross-border EU B2C sales
 * so far, or last year's when those already passed it (the threshold holds for both years).
 * Other currencies convert at their latest recorded ECB rate. Null when the warning does not apply.
 */
export async function euThresholdStatus(settings: TaxSettings, now = new Date()): Promise<ThresholdStatus | null> {
  if (!isEuCountry(settings.sellerCountry) || !settings.underEuThreshold) return null;
  const rates = await latestRates();
  const year = now.getUTCFullYear();
  const [previous, current] = await Promise.all([yearStatus(year - 1, rates), yearStatus(year, rates)]);
  return previous.level === 'past' ? previous : current;
}

async function yearStatus(year: number, rates: ReadonlyMap<string, ReferenceRate>): Promise<ThresholdStatus> {
  const from = new Date(Date.UTC(year, 0, 1));
  const to = new Date(Date.UTC(year + 1, 0, 1));
  const { rows } = await sql<{ currency: string; net: string }>`
    SELECT currency, sum(sign * net_minor) AS net
      FROM (${movements(from, to)}) m
     WHERE tax_scheme IN ('eu_b2c', 'eu_home')
     GROUP BY 1`.execute(db());
  let salesEurMinor = 0;
  const unconverted: string[] = [];
  for (const row of rows) {
    const eur = convertMinor(Number(row.net), row.currency, 'EUR', rates);
    if (eur === undefined) unconverted.push(row.currency);
    else salesEurMinor += eur;
  }
  const level =
    salesEurMinor > EU_THRESHOLD_EUR_MINOR
      ? 'past'
      : salesEurMinor >= EU_THRESHOLD_EUR_MINOR * THRESHOLD_WARNING_SHARE
        ? 'near'
        : 'under';
  const used = [...rates.values()].filter((rate) => rows.some((row) => row.currency === rate.currency));
  return { year, salesEurMinor, level, unconverted: unconverted.sort(), rates: used };
}
