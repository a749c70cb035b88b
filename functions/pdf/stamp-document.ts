import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import fontkit from '@cantoo/fontkit';
import {
  beginText,
  concatTransformationMatrix,
  drawObject,
  endText,
  EncryptedPDFError,
  popGraphicsState,
  pushGraphicsState,
  setFillingColor,
  setFontAndSize,
  showText,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRef,
  PDFStream,
  rgb,
  type DocumentSnapshot,
  type PDFObject,
  type PDFFont,
  type PDFPage,
} from '@cantoo/pdf-lib';
import { decodeBudgetOverrun } from './decode-budget.ts';
import { openAsNeeded } from './read-as-needed.ts';

/**
 * The work on a PDF itself, run inside the PDF worker (pdf-job.worker.ts), never on the server's
 * event loop: a small footer line on every page ("Licensed to … · order …") and the order in the
 * document's information dictionary, written as an incremental update (PDF 2.0 § 7.5.6) to append to
 * the original: every byte the author wrote stays as it was (bookmarks, links, forms, their metadata),
 * and the worker never builds a second whole copy of a large course. See
 * docs/decisions/0017-stamped-pdfs-and-course-versions.md.
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

/**
 * A stamped file: usually an update, the bytes to append to the original; the whole file written anew
 * when the original's last cross-reference cannot be found where its `startxref` says (readers repair
 * such files on the fly, and an update pointing back into them would leave that to each reader).
 */
export type StampedPdf = { update: Uint8Array } | { whole: Uint8Array };

/**
 * The stamp; throws StampError when the original cannot be stamped. The original is read as the stamp
 * needs it (read-as-needed.ts); a file whose cross-reference cannot be followed, or whose objects are
 * not where it says, is read whole by pdf-lib's loader instead, as readers repair such files.
 */
export async function stampDocument(original: PdfBytes, stamp: Stamp): Promise<StampedPdf> {
  const bytes = original.pdf;
  const asNeeded = bytes && openForStampingAsNeeded(bytes);
  if (asNeeded) {
    try {
      return await stampOpened(asNeeded, stamp);
    } catch (error) {
      if (!(error instanceof StampError && error.problem === 'unreadable')) throw error;
    }
  }
  return stampOpened(await openForStamping(original), stamp);
}

/**
 * Whether an upload can be stamped, judged by stamping it once for a sample buyer, and whether it
 * carries a digital signature (which any stamp breaks). Throws StampError when it cannot be stamped.
 */
export async function inspectForStamping(bytes: PdfBytes): Promise<{ signed: boolean }> {
  const opened = await openForStamping(bytes);
  const signed = isSigned(opened.doc);
  await stampOpened(opened, SAMPLE_STAMP);
  return { signed };
}

/** A loaded document and what its original was, to write the stamp as an update of it. */
interface OpenedPdf {
  doc: PDFDocument;
  original: Revision;
}

async function stampOpened({ doc, original }: OpenedPdf, stamp: Stamp): Promise<StampedPdf> {
  try {
    const pages = doc.getPages();
    if (pages.length === 0) throw new StampError('unreadable');
    doc.registerFontkit(fontkit);
    const font = await doc.embedFont(await readFile(FONT_FILE), { subset: true });
    const footer = footerLines(doc, font, stamp.line);
    for (const page of pages) drawFooter(page, footer);
    nameTheOrder(doc, stamp);
    if (!original.appendable) return { whole: await doc.save({ updateFieldAppearances: false }) };
    return { update: await doc.saveIncremental(changesSince(original), { useObjectStreams: original.crossReferenceStreams }) };
  } catch (error) {
    if (error instanceof StampError) throw error;
    throw new StampError(decodeBudgetOverrun() ? 'inflation' : 'unreadable', error);
  }
}

/** The document, loaded within the decode budget, with a page tree that lists every page once. */
async function openForStamping(original: PdfBytes): Promise<OpenedPdf> {
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
  checkPageTreeOf(doc);
  return { doc, original: revisionOf(doc, bytes) };
}

function checkPageTreeOf(doc: PDFDocument): void {
  try {
    checkPageTree(doc);
  } catch (error) {
    if (error instanceof StampError) throw error;
    throw new StampError(decodeBudgetOverrun() ? 'inflation' : 'unreadable', error);
  }
}

/** The document read as the stamp looks its objects up, or undefined when it must be read whole. */
function openForStampingAsNeeded(bytes: Uint8Array): OpenedPdf | undefined {
  const objects = new Map<number, string>();
  let opened: ReturnType<typeof openAsNeeded>;
  try {
    opened = openAsNeeded(bytes, (objectNumber, object) => objects.set(objectNumber, writtenForm(object)));
  } catch (error) {
    if (error instanceof EncryptedPDFError) throw new StampError('encrypted', error);
    if (decodeBudgetOverrun()) throw new StampError('inflation', error);
    return undefined;
  }
  if (!opened) return undefined;
  const { doc, crossReferenceStreams } = opened;
  checkPageTreeOf(doc);
  const { context } = doc;
  return {
    doc,
    original: {
      context,
      bytes: bytes.length,
      lastObjectNumber: context.largestObjectNumber,
      objects,
      crossReferenceStreams,
      appendable: true,
    },
  };
}

/** What the update appends to: the original's size, its objects as they were, and its kind of cross-reference. */
interface Revision {
  context: PDFDocument['context'];
  bytes: number;
  lastObjectNumber: number;
  /** The written form of each object read from the original (read as needed: filled as they are read). */
  objects: Map<number, string>;
  crossReferenceStreams: boolean;
  /** Its `startxref` points at a cross-reference section, which the update's trailer points back to. */
  appendable: boolean;
}

/** An object as written, for telling which ones the stamp changed (a stream by its dictionary: its data is never touched). */
function writtenForm(object: PDFObject): string {
  return object instanceof PDFStream ? `stream ${object.dict.toString()}` : object.toString();
}

function revisionOf(doc: PDFDocument, bytes: Uint8Array): Revision {
  const { context } = doc;
  // New objects take numbers past every one the original declared, free ones included.
  const declared = context.trailerInfo.Size?.asNumber() ?? 0;
  context.largestObjectNumber = Math.max(context.largestObjectNumber, declared - 1);
  const objects = new Map<number, string>();
  let crossReferenceStreams = false;
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    objects.set(ref.objectNumber, writtenForm(object));
    if (object instanceof PDFStream && object.dict.lookup(PDFName.of('Type')) === PDFName.of('XRef'))
      crossReferenceStreams = true;
  }
  return {
    context,
    bytes: bytes.length,
    lastObjectNumber: context.largestObjectNumber,
    objects,
    crossReferenceStreams,
    appendable: startsCrossReference(bytes, context.pdfFileDetails.prevStartXRef),
  };
}

/** Whether a cross-reference table (`xref`) or stream (`12 0 obj`) starts at `offset`. */
function startsCrossReference(bytes: Uint8Array, offset: number): boolean {
  if (!(offset > 0 && offset < bytes.length)) return false;
  const start = new TextDecoder('latin1').decode(bytes.subarray(offset, offset + 32));
  return /^(xref\s|\d+\s+\d+\s+obj\b)/.test(start);
}

/**
 * The objects to write in the update: every new one, and every one the stamp changed (the pages, their
 * resources, the information dictionary). Decided when the writer asks, after the font is embedded.
 */
function changesSince(original: Revision): DocumentSnapshot {
  let changed: Set<number> | undefined;
  const changedNow = () => {
    changed = new Set();
    for (const [ref, object] of original.context.enumerateIndirectObjects()) {
      if (original.objects.get(ref.objectNumber) !== writtenForm(object)) changed.add(ref.objectNumber);
    }
    return changed;
  };
  const ignored = () => {};
  return {
    pdfSize: original.bytes,
    prevStartXRef: original.context.pdfFileDetails.prevStartXRef,
    deletedCount: 0,
    shouldSave: (objectNumber) => objectNumber > original.lastObjectNumber || (changed ?? changedNow()).has(objectNumber),
    deletedRef: () => null,
    markRefForSave: ignored,
    markRefsForSave: ignored,
    markObjForSave: ignored,
    markObjsForSave: ignored,
    markDeletedRef: ignored,
    markDeletedObj: ignored,
  };
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

/**
 * The footer line laid out once per size it is drawn at, as a form XObject each page places: a
 * 300-page course shapes the line once (most pages share a size), not once a page.
 */
interface FooterLines {
  font: PDFFont;
  line: string;
  /** Its width at the full size, for telling which pages need a smaller one. */
  fullWidth: number;
  bySize: Map<number, { ref: PDFRef; width: number }>;
  context: PDFDocument['context'];
}

function footerLines(doc: PDFDocument, font: PDFFont, line: string): FooterLines {
  return { font, line, fullWidth: font.widthOfTextAtSize(line, FONT_SIZE_PT), bySize: new Map(), context: doc.context };
}

function footerAt(footer: FooterLines, size: number): { ref: PDFRef; width: number } {
  let laid = footer.bySize.get(size);
  if (!laid) {
    const { font, line, context } = footer;
    const width = font.widthOfTextAtSize(line, size);
    const height = font.heightAtSize(size);
    const form = context.formXObject(
      [beginText(), setFillingColor(STAMP_GREY), setFontAndSize('F', size), showText(font.encodeText(line)), endText()],
      { BBox: [0, -height, width, height], Resources: { Font: { F: font.ref } } },
    );
    laid = { ref: context.register(form), width };
    footer.bySize.set(size, laid);
  }
  return laid;
}

/** The line centred at the bottom of the page as it is shown (its crop box, turned by /Rotate). */
function drawFooter(page: PDFPage, footer: FooterLines): void {
  const box = page.getCropBox();
  const angle = ((page.getRotation().angle % 360) + 360) % 360;
  const across = angle === 90 || angle === 270 ? box.height : box.width;
  const { fullWidth } = footer;
  const size =
    fullWidth > across - 2 * EDGE_PT
      ? Math.max(MIN_FONT_SIZE_PT, (FONT_SIZE_PT * (across - 2 * EDGE_PT)) / fullWidth)
      : FONT_SIZE_PT;
  const { ref, width } = footerAt(footer, size);
  const start = (across - width) / 2;
  const placed =
    angle === 90
      ? { x: box.x + box.width - EDGE_PT, y: box.y + start }
      : angle === 180
        ? { x: box.x + box.width - start, y: box.y + box.height - EDGE_PT }
        : angle === 270
          ? { x: box.x + EDGE_PT, y: box.y + box.height - start }
          : { x: box.x + start, y: box.y + EDGE_PT };
  const radians = (angle * Math.PI) / 180;
  const [cos, sin] = [Math.round(Math.cos(radians)), Math.round(Math.sin(radians))];
  const name = page.node.newXObject('Licence', ref);
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(cos, sin, -sin, cos, placed.x, placed.y),
    drawObject(name),
    popGraphicsState(),
  );
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
