import { invalid, ok, type Result } from '../../src/lib/result.ts';
import {
  MAX_IMPORT_PRODUCTS,
  MAX_SHOWN_PROBLEMS,
  SKIP_REASONS,
  type ImportPlatform,
  type RowProblem,
  type SkipReason,
} from '../../src/lib/admin/import.schema.ts';
import { csvRecords, CsvSyntaxError } from './csv-stream.ts';
import { readerFor, type ImportRow } from './platforms.ts';

/** An export read through once: what the dry run shows, whatever the file's length, and no row kept. */
export interface ExportSummary {
  platform: ImportPlatform;
  consentColumn: string | null;
  rows: number;
  importable: number;
  skipped: Record<SkipReason, number>;
  products: Map<string, { name: string; rows: number }>;
  /** The buyers' addresses (lower-cased), and those whose export carries their consent. */
  buyers: Set<string>;
  consentBuyers: Set<string>;
  problems: RowProblem[];
  problemCount: number;
}

/**
 * Reads an export as it arrives, from its header (which says the platform) to its last row, handing
 * each good row to `onRow` (the import's batches) and counting the rest. A file that no platform's
 * columns fit, that is not UTF-8 or names too many products is refused; a broken row is a problem at
 * its line, and a record the CSV reader cannot end (an open quote, an endless line) the last one.
 */
export async function readExport(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  onRow: (row: ImportRow) => Promise<void> = () => Promise.resolve(),
): Promise<Result<ExportSummary>> {
  const records = csvRecords(chunks);
  try {
    const header = await records.next();
    if (header.done) return invalid('empty_file', 'admin.import.errors.empty');
    const reader = readerFor(header.value.fields);
    if (!reader) return invalid('unknown_platform', 'admin.import.errors.unknownPlatform');
    const summary: ExportSummary = {
      platform: reader.platform,
      consentColumn: reader.consentColumn,
      rows: 0,
      importable: 0,
      skipped: Object.fromEntries(SKIP_REASONS.map((reason) => [reason, 0])) as Record<SkipReason, number>,
      products: new Map(),
      buyers: new Set(),
      consentBuyers: new Set(),
      problems: [],
      problemCount: 0,
    };
    try {
      for await (const { line, fields } of records) {
        const read = reader.read(line, fields);
        if (read.kind === 'summary') continue;
        summary.rows++;
        if (read.kind === 'skipped') summary.skipped[read.reason]++;
        else if (read.kind === 'problem') addProblem(summary, { line, code: read.code });
        else {
          if (!count(summary, read.row)) return invalid('too_many_products', 'admin.import.errors.tooManyProducts');
          await onRow(read.row);
        }
      }
    } catch (error) {
      if (!(error instanceof CsvSyntaxError)) throw error;
      addProblem(summary, { line: error.line, code: error.reason });
    }
    return ok(summary);
  } catch (error) {
    // TextDecoder's `fatal`: the bytes are not UTF-8 (a spreadsheet saved it in another encoding).
    if ((error as { code?: string }).code === 'ERR_ENCODING_INVALID_ENCODED_DATA')
      return invalid('not_utf8', 'admin.import.errors.notUtf8');
    throw error;
  }
}

function count(summary: ExportSummary, row: ImportRow): boolean {
  const product = summary.products.get(row.productKey);
  if (product) product.rows++;
  else if (summary.products.size >= MAX_IMPORT_PRODUCTS) return false;
  else summary.products.set(row.productKey, { name: row.productName, rows: 1 });
  summary.importable++;
  summary.buyers.add(row.email);
  if (row.consent) summary.consentBuyers.add(row.email);
  return true;
}

function addProblem(summary: ExportSummary, problem: RowProblem): void {
  summary.problemCount++;
  if (summary.problems.length < MAX_SHOWN_PROBLEMS) summary.problems.push(problem);
}
