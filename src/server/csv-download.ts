import { toCsv } from '../../functions/admin/csv.ts';
import { NO_STORE } from '../lib/http.ts';

// Spreadsheets read a CSV as UTF-8 (Turkish letters intact) only when it starts with a byte-order mark.
const BOM = '\uFEFF';

/** An admin's CSV download: every cell escaped and neutralised against formula injection (csv.ts), never cached. */
export function csvDownload(filename: string, rows: (string | number | null | undefined)[][]): Response {
  return new Response(BOM + toCsv(rows), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename}"`,
      ...NO_STORE,
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
