/**
 * A streaming CSV reader (RFC 4180, as the platforms' exports write it: quoted fields with `""`,
 * line breaks inside quotes, CRLF or LF, an optional byte-order mark). It holds one record at a time,
 * never the file's rows, so a 20,000-row export costs what its longest row costs. A record longer
 * than `maxRecordChars`, or a quote left open at the end, stops the reading with the line it began on.
 */
export interface CsvRecord {
  /** The physical line the record starts on (the header is line 1). */
  line: number;
  fields: string[];
}

export class CsvSyntaxError extends Error {
  readonly line: number;
  readonly reason: 'record_too_long' | 'unclosed_quote';

  constructor(line: number, reason: 'record_too_long' | 'unclosed_quote') {
    super(`CSV ${reason} at line ${line}`);
    this.line = line;
    this.reason = reason;
  }
}

/** Far above any export row (Gumroad's has about 70 columns), far below what would hurt the server. */
export const MAX_RECORD_CHARS = 64 * 1024;

const QUOTE = 34;
const COMMA = 44;
const CR = 13;
const LF = 10;

/** Splits text as it arrives into records; `push` returns the records each piece completed. */
export class CsvReader {
  private fields: string[] = [];
  private field = '';
  private quoted = false;
  /** A quote inside a quoted field: the end of the field, or the first of `""`, known from the next character. */
  private quoteSeen = false;
  private line = 1;
  private start = 1;
  private size = 0;

  private readonly maxRecordChars: number;

  constructor(maxRecordChars = MAX_RECORD_CHARS) {
    this.maxRecordChars = maxRecordChars;
  }

  push(text: string): CsvRecord[] {
    const done: CsvRecord[] = [];
    let from = 0;
    let recordFrom = 0;
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (this.quoteSeen) {
        this.quoteSeen = false;
        if (code === QUOTE) {
          this.field += text.slice(from, index);
          from = index + 1;
          this.quoted = true;
          continue;
        }
      }
      if (this.quoted) {
        if (code === QUOTE) {
          this.field += text.slice(from, index);
          from = index + 1;
          this.quoted = false;
          this.quoteSeen = true;
        } else if (code === LF) this.line++;
        continue;
      }
      if (code === QUOTE && this.field === '' && from === index) {
        from = index + 1;
        this.quoted = true;
      } else if (code === COMMA) {
        this.fields.push(this.field + text.slice(from, index));
        this.field = '';
        from = index + 1;
      } else if (code === CR || code === LF) {
        this.field += text.slice(from, index);
        from = index + 1;
        if (code === LF) {
          const record = this.endRecord();
          if (record) done.push(record);
          recordFrom = index + 1;
          this.line++;
          this.start = this.line;
        }
      }
    }
    this.field += text.slice(from);
    this.size += text.length - recordFrom;
    if (this.size > this.maxRecordChars) throw new CsvSyntaxError(this.start, 'record_too_long');
    return done;
  }

  /** The last record, when the file does not end with a line break. */
  end(): CsvRecord[] {
    if (this.quoted) throw new CsvSyntaxError(this.start, 'unclosed_quote');
    const record = this.endRecord();
    return record ? [record] : [];
  }

  private endRecord(): CsvRecord | undefined {
    this.fields.push(this.field);
    const fields = this.fields;
    this.fields = [];
    this.field = '';
    this.size = 0;
    // A blank line (the file's last, mostly) is no record.
    if (fields.length === 1 && fields[0]!.trim() === '') return undefined;
    return { line: this.start, fields };
  }
}

/** The records of a CSV file arriving in chunks (a request's upload, a stored file read in slices). */
export async function* csvRecords(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  maxRecordChars = MAX_RECORD_CHARS,
): AsyncGenerator<CsvRecord> {
  // fatal: a file that is not UTF-8 is refused rather than read with replacement characters.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const reader = new CsvReader(maxRecordChars);
  for await (const chunk of chunks) yield* reader.push(decoder.decode(chunk, { stream: true }));
  yield* reader.push(decoder.decode());
  yield* reader.end();
}

/** A stored file as chunks, so it is read the same way as an upload. */
export function* sliced(bytes: Uint8Array, size = 64 * 1024): Generator<Uint8Array> {
  for (let offset = 0; offset < bytes.byteLength; offset += size) yield bytes.subarray(offset, offset + size);
}
