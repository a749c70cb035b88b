import { MAX_COVER_BYTES, MAX_PDF_BYTES } from '../../src/lib/admin/courses.schema.ts';

/**
 * Uploads are judged by their bytes, never by their name or the browser's declared type: a PNG
 * renamed .pdf, an HTML page with a PDF header, an SVG with a script are all refused.
 */
export type PdfProblem = 'empty' | 'tooLarge' | 'notPdf' | 'polyglot';
export type ImageProblem = 'empty' | 'tooLarge' | 'notImage';

export interface ImageType {
  extension: 'png' | 'jpg' | 'webp';
  contentType: 'image/png' | 'image/jpeg' | 'image/webp';
}

const PDF_HEADER = Buffer.from('%PDF-');
const PDF_EOF = Buffer.from('%%EOF');
/** Readers look for %%EOF in the last 1024 bytes (PDF 32000-1 implementation notes). */
export const PDF_EOF_WINDOW_BYTES = 1024;
export const POLYGLOT_WINDOW_BYTES = 1024;
// A browser sniffing the file as HTML would run these; a real PDF never starts with them.
const MARKUP_MARKERS = ['<html', '<script', '<!doctype', '<body', '<iframe', '<svg', '<object', '<embed'];

export function checkPdf(bytes: Uint8Array): { ok: true } | { ok: false; problem: PdfProblem } {
  if (bytes.byteLength === 0) return { ok: false, problem: 'empty' };
  if (bytes.byteLength > MAX_PDF_BYTES) return { ok: false, problem: 'tooLarge' };
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!data.subarray(0, PDF_HEADER.length).equals(PDF_HEADER)) return { ok: false, problem: 'notPdf' };
  const tailStart = Math.max(0, data.length - PDF_EOF_WINDOW_BYTES);
  const eofAt = data.lastIndexOf(PDF_EOF);
  if (eofAt < tailStart) return { ok: false, problem: 'notPdf' };
  // Markup in the head, or anything after the last %%EOF, is a file built to be read two ways.
  if (hasMarkup(data.subarray(0, POLYGLOT_WINDOW_BYTES)) || hasMarkup(data.subarray(eofAt + PDF_EOF.length)))
    return { ok: false, problem: 'polyglot' };
  return { ok: true };
}

export function sniffImage(bytes: Uint8Array): ImageType | undefined {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { extension: 'png', contentType: 'image/png' };
  if (startsWith(data, [0xff, 0xd8, 0xff])) return { extension: 'jpg', contentType: 'image/jpeg' };
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP')
    return { extension: 'webp', contentType: 'image/webp' };
  return undefined;
}

export function checkCoverImage(bytes: Uint8Array): { ok: true; type: ImageType } | { ok: false; problem: ImageProblem } {
  if (bytes.byteLength === 0) return { ok: false, problem: 'empty' };
  if (bytes.byteLength > MAX_COVER_BYTES) return { ok: false, problem: 'tooLarge' };
  const type = sniffImage(bytes);
  return type ? { ok: true, type } : { ok: false, problem: 'notImage' };
}

function startsWith(data: Buffer, signature: number[]): boolean {
  return data.length >= signature.length && signature.every((byte, index) => data[index] === byte);
}

function hasMarkup(window: Buffer): boolean {
  const text = window.toString('latin1').toLowerCase();
  return MARKUP_MARKERS.some((marker) => text.includes(marker));
}
