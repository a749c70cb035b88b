import { domesticTaxByMonth } from '../../../../../functions/taxes/report.ts';
import { convertedQuarter, type ConvertedQuarter } from '../../../../../functions/taxes/report-converted.ts';
import { readTaxSettings } from '../../../../../functions/taxes/settings.ts';
import { QuarterSchema, quarterName, type Quarter } from '../../../../lib/admin/tax-report.schema.ts';
import { toMajorUnits } from '../../../../lib/money.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { csvDownload } from '../../../../server/csv-download.ts';

export const prerender = false;

const QUARTER_HEADER = [
  'quarter',
  'scheme',
  'country',
  'rate_percent',
  'currency',
  'orders',
  'net',
  'tax',
  'gross',
  'reporting_currency',
  'net_reporting',
  'tax_reporting',
  'conversion',
];
const MONTH_HEADER = ['month', 'currency', 'orders', 'net', 'tax', 'gross'];

// Numbers, not text: a refund-netted total may be negative, and text starting with '-' is neutralised as a formula.
const money = (minor: number) => Number(toMajorUnits(minor).toFixed(2));

/**
 * Admin → Taxes' downloads, refunds netted: the quarter's lines (the OSS return's, by scheme, country,
 * rate and currency, converted to the reporting currency at the ECB rate recorded, or said missing),
 * or with `report=domestic` the quarter's months of domestic VAT/KDV.
 */
export const GET = adminEndpoint(async (context) => {
  const period = QuarterSchema.parse(context.url.searchParams.get('quarter') ?? undefined);
  if (context.url.searchParams.get('report') === 'domestic') return domesticCsv(period);
  const { settings } = await readTaxSettings();
  const report = await convertedQuarter(period, settings.reportingCurrency);
  const rows = report.lines.map((line) => [
    quarterName(period),
    line.scheme,
    line.country,
    line.ratePercent,
    line.currency,
    line.orders,
    money(line.netMinor),
    money(line.taxMinor),
    money(line.netMinor + line.taxMinor),
    report.reportingCurrency,
    line.reportingNetMinor === undefined ? '' : money(line.reportingNetMinor),
    line.reportingTaxMinor === undefined ? '' : money(line.reportingTaxMinor),
    conversion(report, line.currency),
  ]);
  return csvDownload(`taxes-${quarterName(period)}.csv`, [QUARTER_HEADER, ...rows]);
});

/** How a line's currency was converted, in words an accountant reads: the ECB rates and their day, or what is missing. */
function conversion(report: ConvertedQuarter, currency: string): string {
  if (currency === report.reportingCurrency) return 'same currency';
  const needed = [currency, report.reportingCurrency].filter((code) => code !== 'EUR');
  const rates = needed.map((code) => report.rates.find((rate) => rate.currency === code));
  if (rates.some((rate) => rate === undefined))
    return `ECB rate missing for ${needed.filter((_, index) => !rates[index]).join(' and ')} on ${report.rateDay}`;
  return rates.map((rate) => `ECB ${rate!.day}: 1 EUR = ${rate!.perEuro} ${rate!.currency}`).join('; ');
}

async function domesticCsv(period: Quarter): Promise<Response> {
  const months = await domesticTaxByMonth(period);
  const rows = months.map((month) => [
    month.month,
    month.currency,
    month.orders,
    money(month.netMinor),
    money(month.taxMinor),
    money(month.netMinor + month.taxMinor),
  ]);
  return csvDownload(`domestic-tax-${quarterName(period)}.csv`, [MONTH_HEADER, ...rows]);
}
