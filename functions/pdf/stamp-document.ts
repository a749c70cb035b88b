import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import fontkit from '@cantoo/fontkit';
import {
  degrees,
  EncryptedPDFError,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRef,
  rgb,
  type PDFFont,
  type PDFPage,
} from '@cantoo/pdf-lib';
import { decodeBudgetOverrun } from './decode-budget.ts';

/**
 * The work on a PDF itself, run inside the PDF worker (pdf-job.worker.ts), never on the server's
 * event loop: a small footer line on every page ("Licensed to … · order …") and the order in the
 * document's information dictionary. Everything else of the original survives untouched (bookmarks,
 * links, forms, its own metadata: the document is loaded with `updateMetadata: false` and every object
 * is written back). See docs/decisions/0017-stamped-pdfs-and-course-versions.md.
 */
export interface Stamp {
  /** The footer line, already in the buyer's language. */
  line: string;
  /** The order it was licensed under (functions/orders/orders.ts orderReference). */
  orderReference: string;
  /** "name <e-mail>" for the document's metadata. */
  licensedTo: string;
}

/**
 * Why a PDF cannot be stamped: its owner locked it with a password; it cannot be read as a PDF; its
 * page tree lists a page more than once (every walk over it repeats the work); its compressed
 * structure expands past the decode budget (a flate bomb); or its job passed the time or memory limit.
 */
export type StampProblem = 'encrypted' | 'unreadable' | 'pageTree' | 'inflation' | 'limits';

export class StampError extends Error {
  readonly problem: StampProblem;
  constructor(problem: StampProblem, cause?: unknown) {
    super(`The PDF cannot be stamped (${problem})`, { cause });
    this.name = 'StampError';
    this.problem = problem;
  }
}

/** A stamp for checking that an upload can be stamped: a long name with Turkish letters. */
export const SAMPLE_STAMP: Stamp = {
  line: 'Licensed to Ayşe Yılmaz ayse@example.com · order MC-00000000',
  orderReference: 'MC-00000000',
  licensedTo: 'Ayşe Yılmaz <ayse@example.com>',
};

// A font with every Turkish letter (ş ğ ı İ): the same Noto Sans as the shop's own PDFs (document.ts).
const FONT_FILE = fileURLToPath(import.meta.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'));
const FONT_SIZE_PT = 7;
const MIN_FONT_SIZE_PT = 4;
/** How far the line's baseline sits from the page's visible bottom edge, and its side margins. */
const EDGE_PT = 8;
const STAMP_GREY = rgb(0.35, 0.35, 0.35);

/** A PDF's bytes, let go once parsed: the document keeps its own copy of every object it read. */
export interface PdfBytes {
  pdf: Uint8Array | undefined;
}

/** The stamped file; throws StampError when the original cannot be stamped. */
export async function stampDocument(original: PdfBytes, stamp: Stamp): Promise<Uint8Array> {
  return stampOpened(await openForStamping(original), stamp);
}

/**
 * Whether an upload can be stamped, judged by stamping it once for a sample buyer, and whether it
 * carries a digital signature (which any stamp breaks). Throws StampError when it cannot be stamped.
 */
export async function inspectForStamping(bytes: PdfBytes): Promise<{ signed: boolean }> {
  const doc = await openForStamping(bytes);
  const signed = isSigned(doc);
  await stampOpened(doc, SAMPLE_STAMP);
  return { signed };
}

async function stampOpened(doc: PDFDocument, stamp: Stamp): Promise<Uint8Array> {
  try {
    const pages = doc.getPages();
    if (pages.length === 0) throw new StampError('unreadable');
    doc.registerFontkit(fontkit);
    const font = await doc.embedFont(await readFile(FONT_FILE), { subset: true });
    for (const page of pages) drawFooter(page, font, stamp.line);
    nameTheOrder(doc, stamp);
    return await doc.save({ updateFieldAppearances: false });
  } catch (error) {
    if (error instanceof StampError) throw error;
    throw new StampError(decodeBudgetOverrun() ? 'inflation' : 'unreadable', error);
  }
}

/** The document, loaded within the decode budget, with a page tree that lists every page once. */
async function openForStamping(original: PdfBytes): Promise<PDFDocument> {
  const bytes = original.pdf;
  original.pdf = undefined;
  if (!bytes) throw new StampError('unreadable');
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { updateMetadata: false });
  } catch (error) {
    if (decodeBudgetOverrun()) throw new StampError('inflation', error);
    throw new StampError(error instanceof EncryptedPDFError ? 'encrypted' : 'unreadable', error);
  }
  if (decodeBudgetOverrun()) throw new StampError('inflation');
  try {
    checkPageTree(doc);
  } catch (error) {
    if (error instanceof StampError) throw error;
    throw new StampError('unreadable', error);
  }
  return doc;
}

/**
 * Every node of the page tree once, and no more pages claimed than there are page objects: a tree
 * listing one page 40,000 times is a few kilobytes, and stamping it adds 40,000 footers to one page.
 */
function checkPageTree(doc: PDFDocument): void {
  const { context } = doc;
  const root = doc.catalog.get(PDFName.of('Pages'));
  const seen = new Set<unknown>();
  const waiting: unknown[] = [root];
  let pages = 0;
  while (waiting.length > 0) {
    const entry = waiting.pop();
    // PDFRef.of hands out one object per reference, so a page listed twice is the same entry twice.
    if (seen.has(entry)) throw new StampError('pageTree');
    seen.add(entry);
    const node = entry instanceof PDFRef ? context.lookup(entry) : entry;
    if (!(node instanceof PDFDict)) continue;
    const kids = node.lookup(PDFName.of('Kids'));
    if (kids instanceof PDFArray) for (let index = 0; index < kids.size(); index++) waiting.push(kids.get(index));
    else pages++;
  }
  const rootNode = root instanceof PDFRef ? context.lookup(root) : root;
  const claimed = rootNode instanceof PDFDict ? rootNode.lookup(PDFName.of('Count')) : undefined;
  if (claimed instanceof PDFNumber && claimed.asNumber() > pages) throw new StampError('pageTree');
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
