/**
 * CSV (RFC 4180) that is also safe to open in a spreadsheet (OWASP "CSV injection"). The file is
 * comma-separated, but a spreadsheet may split it on `;` (Excel in Turkish and other locales), tab or
 * line breaks instead, and take a quote as the start of a quoted cell: a cell of ours can then begin
 * right after any of `, ; tab CR LF "` inside a value, not only where our own cell does. So a formula
 * character (= + - @, or tab or CR, which some spreadsheets skip before one) at the start of a value
 * or right after any of those characters gets a single quote before it: whatever a spreadsheet splits
 * on, no cell it sees starts with a formula character, and it shows the text instead of evaluating it.
 */
const FORMULA_AT_CELL_START = /(?<=^|[,;"\t\r\n])(?=[=+\-@\t\r])/g;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  // Numbers are written by us (amounts, counts), never negative: they need no neutralising.
  if (typeof value === 'number') return String(value);
  const safe = value.replace(FORMULA_AT_CELL_START, "'");
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Rows joined with CRLF, as RFC 4180 asks, with a final line break. */
export function toCsv(rows: (string | number | null | undefined)[][]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

// Spreadsheets read a CSV as UTF-8 (Turkish letters intact) only when it starts with a byte-order mark.
const BOM = '\uFEFF';

/** A CSV download: the rows, every cell escaped and neutralised, never cached. */
export function csvResponse(filename: string, rows: (string | number | null | undefined)[][]): Response {
  return new Response(BOM + toCsv(rows), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
