/**
 * CSV (RFC 4180) that is also safe to open in a spreadsheet: a cell starting with = + - @ (or a
 * tab or carriage return, which some spreadsheets skip before such a character) is prefixed with a
 * single quote, so it is shown as text and never evaluated as a formula (OWASP "CSV injection").
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  // Numbers are written by us (amounts, counts), never negative: they need no neutralising.
  if (typeof value === 'number') return String(value);
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Rows joined with CRLF, as RFC 4180 asks, with a final line break. */
export function toCsv(rows: (string | number | null | undefined)[][]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
