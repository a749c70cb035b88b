import type { ByteRange } from '../storage/storage.ts';

/**
 * HTTP Range for file downloads (RFC 9110 §14): one range of bytes, so an interrupted download
 * resumes. Several ranges, another unit or a malformed header ask for nothing we serve, and the whole
 * file is the answer (as the RFC allows); a range past the end is unsatisfiable (416).
 */
export type RangeChoice = { whole: true } | { whole: false; range: ByteRange } | { unsatisfiable: true };

const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/;

/**
 * The part of a file of `size` bytes a request asks for. `etag` is the file's: an If-Range naming
 * another (the file changed since the download began) gets the whole new file.
 */
export function chooseRange(headers: Headers, size: number, etag: string): RangeChoice {
  const header = headers.get('range')?.trim();
  const ifRange = headers.get('if-range');
  if (!header || (ifRange !== null && ifRange !== etag)) return { whole: true };
  const match = SINGLE_RANGE.exec(header);
  if (!match || (match[1] === '' && match[2] === '')) return { whole: true };
  const [first, last] = [match[1]!, match[2]!];
  if (first === '') {
    // "bytes=-500": the last 500 bytes.
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { unsatisfiable: true };
    return { whole: false, range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return { whole: true };
  if (start >= size) return { unsatisfiable: true };
  return { whole: false, range: { start, end } };
}

/** The headers of a 206 answer for `range` of a file of `size` bytes. */
export function partialHeaders(range: ByteRange, size: number): Record<string, string> {
  return { 'Content-Range': `bytes ${range.start}-${range.end}/${size}`, 'Content-Length': String(range.end - range.start + 1) };
}

/** The header of a 416 answer: the file's real size. */
export function unsatisfiableHeaders(size: number): Record<string, string> {
  return { 'Content-Range': `bytes */${size}` };
}
