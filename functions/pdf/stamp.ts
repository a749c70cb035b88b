import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import fontkit from '@cantoo/fontkit';
import {
  degrees,
  EncryptedPDFError,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  rgb,
  type PDFFont,
  type PDFPage,
} from '@cantoo/pdf-lib';

/**
 * Stamps a course PDF for its buyer: a small footer line on every page ("Licensed to … · order …") and
 * the order in the document's information dictionary. Everything else of the original survives
 * untouched (bookmarks, links, forms, its own metadata: the document is loaded with
 * `updateMetadata: false` and every object is written back). The document is held in memory while it
 * is stamped, so stamps take turns (one at a time per process): memory is bounded by one file.
 * See docs/decisions/0017-stamped-pdfs-and-course-versions.md.
 */
export interface Stamp {
  /** The footer line, already in the buyer's language. */
  line: string;
  /** The order it was licensed under (functions/orders/orders.ts orderReference). */
  orderReference: string;
  /** "name <e-mail>" for the document's metadata. */
  licensedTo: string;
}

/** Why a PDF cannot be stamped: its owner locked it with a password, or it cannot be read as a PDF. */
export type StampProblem = 'encrypted' | 'unreadable';

export class StampError extends Error {
  readonly problem: StampProblem;
  constructor(problem: StampProblem, cause?: unknown) {
    super(problem === 'encrypted' ? 'The PDF is encrypted' : 'The PDF cannot be read', { cause });
    this.name = 'StampError';
    this.problem = problem;
  }
}

// A font with every Turkish letter (ş ğ ı İ): the same Noto Sans as the shop's own PDFs (document.ts).
const FONT_FILE = fileURLToPath(import.meta.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'));
const FONT_SIZE_PT = 7;
const MIN_FONT_SIZE_PT = 4;
/** How far the line's baseline sits from the page's visible bottom edge, and its side margins. */
const EDGE_PT = 8;
const STAMP_GREY = rgb(0.35, 0.35, 0.35);
/** Stamps at once in one process: each holds a whole document in memory. */
export const STAMP_CONCURRENCY = 1;

let fontBytes: Promise<Buffer> | undefined;
const loadFont = () => (fontBytes ??= readFile(FONT_FILE));

/** Stamps `original`; throws StampError when the file is encrypted or unreadable. */
export function stampPdf(original: Uint8Array, stamp: Stamp): Promise<Uint8Array> {
  return inTurn(() => stampNow(original, stamp));
}

/**
 * Whether a PDF can be stamped, judged by stamping it once (for a sample buyer): an upload the shop
 * could not stamp is refused before any buyer meets it. `signed`: the file carries a digital
 * signature, which any stamp breaks (the caller decides, as only a course that stamps cares).
 */
export async function checkStampable(
  bytes: Uint8Array,
): Promise<{ ok: true; signed: boolean } | { ok: false; problem: StampProblem }> {
  try {
    await stampPdf(bytes, {
      line: 'Licensed to Ayşe Yılmaz ayse@example.com · order MC-00000000',
      orderReference: 'MC-00000000',
      licensedTo: 'Ayşe Yılmaz <ayse@example.com>',
    });
    return { ok: true, signed: isSigned(await loadForStamping(bytes)) };
  } catch (error) {
    if (error instanceof StampError) return { ok: false, problem: error.problem };
    throw error;
  }
}

/** A signature field with a value (an empty signature field waiting to be signed does not count). */
function isSigned(doc: PDFDocument): boolean {
  try {
    const fields = doc.catalog.getAcroForm()?.getAllFields() ?? [];
    return fields.some(
      ([field]) => field.getInheritableAttribute(PDFName.of('FT')) === PDFName.of('Sig') && field.V() !== undefined,
    );
  } catch (error) {
    throw new StampError('unreadable', error);
  }
}

async function loadForStamping(original: Uint8Array): Promise<PDFDocument> {
  try {
    return await PDFDocument.load(original, { updateMetadata: false });
  } catch (error) {
    throw new StampError(error instanceof EncryptedPDFError ? 'encrypted' : 'unreadable', error);
  }
}

async function stampNow(original: Uint8Array, stamp: Stamp): Promise<Uint8Array> {
  const doc = await loadForStamping(original);
  try {
    const pages = doc.getPages();
    if (pages.length === 0) throw new StampError('unreadable');
    doc.registerFontkit(fontkit);
    const font = await doc.embedFont(await loadFont(), { subset: true });
    for (const page of pages) drawFooter(page, font, stamp.line);
    nameTheOrder(doc, stamp);
    return await doc.save({ updateFieldAppearances: false });
  } catch (error) {
    if (error instanceof StampError) throw error;
    throw new StampError('unreadable', error);
  }
}

/** The line centred at the bottom of the page as it is shown (its crop box, turned by /Rotate). */
function drawFooter(page: PDFPage, font: PDFFont, line: string): void {
  const box = page.getCropBox();
  const angle = ((page.getRotation().angle % 360) + 360) % 360;
  const across = angle === 90 || angle === 270 ? box.height : box.width;
  let size = FONT_SIZE_PT;
  let width = font.widthOfTextAtSize(line, size);
  if (width > across - 2 * EDGE_PT) {
    size = Math.max(MIN_FONT_SIZE_PT, (size * (across - 2 * EDGE_PT)) / width);
    width = font.widthOfTextAtSize(line, size);
  }
  const start = (across - width) / 2;
  const placed =
    angle === 90
      ? { x: box.x + box.width - EDGE_PT, y: box.y + start, rotate: 90 }
      : angle === 180
        ? { x: box.x + box.width - start, y: box.y + box.height - EDGE_PT, rotate: 180 }
        : angle === 270
          ? { x: box.x + EDGE_PT, y: box.y + box.height - start, rotate: 270 }
          : { x: box.x + start, y: box.y + EDGE_PT, rotate: 0 };
  page.drawText(line, { x: placed.x, y: placed.y, size, font, color: STAMP_GREY, rotate: degrees(placed.rotate) });
}

/** Adds the order to the information dictionary (as UTF-16 text strings), keeping every entry the author wrote. */
function nameTheOrder(doc: PDFDocument, stamp: Stamp): void {
  const { context } = doc;
  let info = context.trailerInfo.Info ? context.lookup(context.trailerInfo.Info) : undefined;
  if (!(info instanceof PDFDict)) {
    info = context.obj({});
    context.trailerInfo.Info = context.register(info);
  }
  const dict = info as PDFDict;
  dict.set(PDFName.of('OrderReference'), PDFHexString.fromText(stamp.orderReference));
  dict.set(PDFName.of('LicensedTo'), PDFHexString.fromText(stamp.licensedTo));
}

let running = 0;
const waiting: (() => void)[] = [];

/** Runs `work` when a stamping slot is free (STAMP_CONCURRENCY), in arrival order. */
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= STAMP_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}
