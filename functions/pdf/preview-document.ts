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
  PDFPageLeaf,
  PDFRef,
  PDFString,
  rgb,
  type PDFFont,
  type PDFObject,
  type PDFPage,
} from '@cantoo/pdf-lib';
import { decodeBudgetOverrun } from './decode-budget.ts';
import { StampError, type PdfBytes } from './stamp-document.ts';

/**
 * A course's free preview, made inside the PDF worker (pdf-job.worker.ts) like a stamp: the chosen
 * pages copied into a new document (only what they reference travels, never the other pages), each
 * marked with the word "Preview" in the course's language, and the outline trimmed to the bookmarks
 * that lead to those pages. See docs/decisions/0045-free-previews-and-the-funnel.md.
 */
export interface PreviewSpec {
  /** First and last page included, counted from 1; a last page past the end stops at the end. */
  firstPage: number;
  lastPage: number;
  /** The word on every page, already in the course's language. */
  mark: string;
}

const FONT_FILE = fileURLToPath(import.meta.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'));
const MARK_GREY = rgb(0.55, 0.1, 0.1);
const MARK_OPACITY = 0.18;
/** Outline items read at most, and how deep: a looped or endless outline stops here. */
const MAX_OUTLINE_ITEMS = 5_000;
const MAX_OUTLINE_DEPTH = 16;

export async function previewDocument(original: PdfBytes, spec: PreviewSpec): Promise<Uint8Array> {
  const source = await openWithinBudget(original);
  try {
    const pages = source.getPages();
    const last = Math.min(spec.lastPage, pages.length);
    if (spec.firstPage < 1 || spec.firstPage > last) throw new StampError('unreadable');
    const included = pages.slice(spec.firstPage - 1, last);
    for (const page of included) keepOnlyOwnReferences(page.node);
    const preview = await PDFDocument.create({ updateMetadata: false });
    const copies = await preview.copyPages(
      source,
      included.map((_, index) => spec.firstPage - 1 + index),
    );
    for (const page of copies) preview.addPage(page);
    checkNoOtherPages(preview, copies.length);
    preview.registerFontkit(fontkit);
    const font = await preview.embedFont(await readFile(FONT_FILE), { subset: true });
    for (const page of copies) drawMark(page, font, spec.mark);
    const newRefs = new Map(included.map((page, index) => [page.ref.toString(), copies[index]!.ref]));
    trimOutline(source, preview, newRefs);
    copyInfo(source, preview, spec.mark);
    return await preview.save({ useObjectStreams: true, updateFieldAppearances: false });
  } catch (error) {
    if (error instanceof StampError) throw error;
    throw new StampError(decodeBudgetOverrun() ? 'inflation' : 'unreadable', error);
  }
}

async function openWithinBudget(original: PdfBytes): Promise<PDFDocument> {
  const bytes = original.pdf;
  original.pdf = undefined;
  if (!bytes) throw new StampError('unreadable');
  try {
    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    if (decodeBudgetOverrun()) throw new StampError('inflation');
    return doc;
  } catch (error) {
    if (error instanceof StampError) throw error;
    if (decodeBudgetOverrun()) throw new StampError('inflation', error);
    throw new StampError(error instanceof EncryptedPDFError ? 'encrypted' : 'unreadable', error);
  }
}

/**
 * Copying a page copies everything it references: a link to page 40, a form field's parent, an
 * annotation's page, an article bead would each bring their pages along (text included). So an
 * included page keeps only links to web addresses, without their back-reference to the page.
 */
function keepOnlyOwnReferences(page: PDFPageLeaf): void {
  for (const key of ['AA', 'B', 'StructParents']) page.delete(PDFName.of(key));
  const annots = page.lookup(PDFName.of('Annots'));
  if (!(annots instanceof PDFArray)) {
    page.delete(PDFName.of('Annots'));
    return;
  }
  const kept = page.context.obj([]);
  for (let index = 0; index < annots.size(); index++) {
    const annot = annots.lookup(index);
    if (!(annot instanceof PDFDict) || !isWebLink(annot)) continue;
    const copy = annot.clone();
    for (const key of ['P', 'Parent', 'Popup', 'StructParent']) copy.delete(PDFName.of(key));
    kept.push(copy);
  }
  page.set(PDFName.of('Annots'), kept);
}

function isWebLink(annot: PDFDict): boolean {
  if (annot.lookup(PDFName.of('Subtype')) !== PDFName.of('Link')) return false;
  const action = annot.lookup(PDFName.of('A'));
  return (
    action instanceof PDFDict &&
    action.lookup(PDFName.of('S')) === PDFName.of('URI') &&
    !action.has(PDFName.of('Next')) &&
    !annot.has(PDFName.of('Dest'))
  );
}

/** The last guard: a page object the preview does not show means some reference pulled one in. */
function checkNoOtherPages(preview: PDFDocument, shown: number): void {
  let pages = 0;
  for (const [, object] of preview.context.enumerateIndirectObjects()) {
    if (object instanceof PDFPageLeaf || (object instanceof PDFDict && object.lookup(PDFName.of('Type')) === PDFName.of('Page')))
      pages++;
  }
  if (pages !== shown) throw new StampError('unreadable');
}

/** The word across the middle of the page as it is shown (its crop box, turned by /Rotate), faint. */
function drawMark(page: PDFPage, font: PDFFont, mark: string): void {
  const box = page.getCropBox();
  const angle = ((page.getRotation().angle % 360) + 360) % 360;
  const size = Math.max(12, Math.min(box.width, box.height) / Math.max(4, mark.length * 0.75));
  const width = font.widthOfTextAtSize(mark, size);
  const height = font.heightAtSize(size, { descender: false });
  const turn = ((45 + angle) * Math.PI) / 180;
  const [cos, sin] = [Math.cos(turn), Math.sin(turn)];
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  page.drawText(mark, {
    font,
    size,
    color: MARK_GREY,
    opacity: MARK_OPACITY,
    rotate: degrees(45 + angle),
    x: centre.x - (width / 2) * cos + (height / 2) * sin,
    y: centre.y - (width / 2) * sin - (height / 2) * cos,
  });
}

interface OutlineItem {
  title: PDFObject;
  dest: PDFArray | undefined;
  children: OutlineItem[];
}

/** The source's bookmarks that lead to an included page (pointed at its copy); a left-out one's children move up. */
function trimOutline(source: PDFDocument, preview: PDFDocument, newRefs: Map<string, PDFRef>): void {
  const outlines = source.catalog.lookup(PDFName.of('Outlines'));
  if (!(outlines instanceof PDFDict)) return;
  const budget = { items: MAX_OUTLINE_ITEMS, seen: new Set<PDFObject>() };
  const items = readItems(source, outlines.lookup(PDFName.of('First')), newRefs, preview, budget, 0);
  if (items.length === 0) return;
  const root = preview.context.obj({ Type: 'Outlines' });
  const rootRef = preview.context.register(root);
  linkItems(preview, rootRef, root, items);
  preview.catalog.set(PDFName.of('Outlines'), rootRef);
}

function readItems(
  source: PDFDocument,
  first: PDFObject | undefined,
  newRefs: Map<string, PDFRef>,
  preview: PDFDocument,
  budget: { items: number; seen: Set<PDFObject> },
  depth: number,
): OutlineItem[] {
  const items: OutlineItem[] = [];
  let node = first;
  while (node instanceof PDFDict && !budget.seen.has(node) && budget.items-- > 0 && depth < MAX_OUTLINE_DEPTH) {
    budget.seen.add(node);
    const children = readItems(source, node.lookup(PDFName.of('First')), newRefs, preview, budget, depth + 1);
    const dest = previewDest(source, node, newRefs, preview);
    const title = node.lookup(PDFName.of('Title'));
    if (dest && (title instanceof PDFString || title instanceof PDFHexString)) items.push({ title, dest, children });
    else items.push(...children);
    node = node.lookup(PDFName.of('Next'));
  }
  return items;
}

/** The item's destination on its page's copy, or undefined when its page is not in the preview. */
function previewDest(
  source: PDFDocument,
  item: PDFDict,
  newRefs: Map<string, PDFRef>,
  preview: PDFDocument,
): PDFArray | undefined {
  const action = item.lookup(PDFName.of('A'));
  let dest =
    item.lookup(PDFName.of('Dest')) ??
    (action instanceof PDFDict && action.lookup(PDFName.of('S')) === PDFName.of('GoTo')
      ? action.lookup(PDFName.of('D'))
      : undefined);
  if (dest instanceof PDFName || dest instanceof PDFString || dest instanceof PDFHexString) dest = namedDest(source, dest);
  if (dest instanceof PDFDict) dest = dest.lookup(PDFName.of('D'));
  if (!(dest instanceof PDFArray) || dest.size() === 0) return undefined;
  const page = dest.get(0);
  const copy = page instanceof PDFRef ? newRefs.get(page.toString()) : undefined;
  if (!copy) return undefined;
  const view = dest
    .asArray()
    .slice(1)
    .filter((part) => !(part instanceof PDFRef || part instanceof PDFDict || part instanceof PDFArray));
  return preview.context.obj([copy, ...view]);
}

/** A named destination: in the catalogue's /Dests (PDF 1.1) or its /Names /Dests tree. */
function namedDest(source: PDFDocument, name: PDFName | PDFString | PDFHexString): PDFObject | undefined {
  const { catalog } = source;
  if (name instanceof PDFName) {
    const dests = catalog.lookup(PDFName.of('Dests'));
    return dests instanceof PDFDict ? dests.lookup(name) : undefined;
  }
  const names = catalog.lookup(PDFName.of('Names'));
  const tree = names instanceof PDFDict ? names.lookup(PDFName.of('Dests')) : undefined;
  return tree instanceof PDFDict ? inNameTree(tree, name.decodeText(), new Set(), 0) : undefined;
}

function inNameTree(node: PDFDict, key: string, seen: Set<PDFDict>, depth: number): PDFObject | undefined {
  if (seen.has(node) || depth > MAX_OUTLINE_DEPTH) return undefined;
  seen.add(node);
  const names = node.lookup(PDFName.of('Names'));
  if (names instanceof PDFArray) {
    for (let index = 0; index + 1 < names.size(); index += 2) {
      const name = names.lookup(index);
      if ((name instanceof PDFString || name instanceof PDFHexString) && name.decodeText() === key)
        return names.lookup(index + 1);
    }
  }
  const kids = node.lookup(PDFName.of('Kids'));
  if (!(kids instanceof PDFArray)) return undefined;
  for (let index = 0; index < kids.size(); index++) {
    const kid = kids.lookup(index);
    const found = kid instanceof PDFDict ? inNameTree(kid, key, seen, depth + 1) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** Writes `items` under `parent` as a linked outline (First, Last, Prev, Next, Count). */
function linkItems(preview: PDFDocument, parentRef: PDFRef, parent: PDFDict, items: OutlineItem[]): number {
  const { context } = preview;
  const refs = items.map(() => context.nextRef());
  let count = 0;
  items.forEach((item, index) => {
    const dict = context.obj({ Title: item.title, Parent: parentRef, Dest: item.dest });
    if (index > 0) dict.set(PDFName.of('Prev'), refs[index - 1]!);
    if (index < items.length - 1) dict.set(PDFName.of('Next'), refs[index + 1]!);
    const below = item.children.length > 0 ? linkItems(preview, refs[index]!, dict, item.children) : 0;
    if (below > 0) dict.set(PDFName.of('Count'), context.obj(below));
    context.assign(refs[index]!, dict);
    count += 1 + below;
  });
  parent.set(PDFName.of('First'), refs[0]!);
  parent.set(PDFName.of('Last'), refs[refs.length - 1]!);
  parent.set(PDFName.of('Count'), context.obj(count));
  return count;
}

/** The author's title, author and subject, the title marked as a preview. */
function copyInfo(source: PDFDocument, preview: PDFDocument, mark: string): void {
  const title = source.getTitle();
  preview.setTitle(title ? `${title} (${mark})` : mark);
  const author = source.getAuthor();
  if (author) preview.setAuthor(author);
  const subject = source.getSubject();
  if (subject) preview.setSubject(subject);
}
