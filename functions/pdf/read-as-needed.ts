import {
  decodePDFRawStream,
  PDFCatalog,
  PDFContext,
  PDFDict,
  PDFDocument,
  PDFHeader,
  PDFName,
  PDFNumber,
  PDFObjectParser,
  PDFRawStream,
  PDFRef,
  PDFXRefStreamParser,
  type PDFObject,
} from '@cantoo/pdf-lib';

/**
 * A PDF opened the way a reader opens it: from its cross-reference sections, each object parsed when
 * it is first looked up. The stamp looks up the catalogue, the page tree, each page's resources and
 * contents, and the information dictionary; a course's images and fonts are never parsed nor copied,
 * so the PDF worker holds the file and a few hundred small objects, not every object of it a second
 * time (pdf-lib's own loader parses and copies all of them). See decision 46.
 */

/** Where the file keeps an object: at a byte offset, inside an object stream, or nowhere (a free entry). */
type Location = { offset: number; generation: number } | { inStream: number } | { free: true };

/** An object is not where the file's cross-reference says: the caller reads the file whole instead. */
export class ReadAsNeededError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReadAsNeededError';
  }
}

export interface OpenedAsNeeded {
  doc: PDFDocument;
  /** The file's last cross-reference section is a stream (an update must write one too). */
  crossReferenceStreams: boolean;
}

// Chains of updates longer than this are read whole (pdf-lib's loader walks them in one pass).
const MAX_SECTIONS = 256;
const TYPE = PDFName.of('Type');

type Lookup = (key: unknown, ...types: unknown[]) => unknown;

/**
 * The document, reading each object only when it is looked up; `onRead` hears of each object as the
 * file had it. Undefined when the file's cross-reference cannot be followed from its last `startxref`
 * (pdf-lib's loader, which scans the whole file, then reads it). Throws pdf-lib's EncryptedPDFError
 * for a locked file, as its loader does.
 */
export function openAsNeeded(
  pdf: Uint8Array,
  onRead: (objectNumber: number, object: PDFObject) => void,
): OpenedAsNeeded | undefined {
  const bytes = new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const startXRef = lastStartXRef(file);
  if (startXRef === undefined) return undefined;
  const context = PDFContext.create();
  const sections = readCrossReferences(bytes, file, startXRef, context);
  if (!sections) return undefined;
  const { locations, trailers } = sections;

  const trailerEntry = (name: string) => trailers.map((trailer) => trailer.get(PDFName.of(name))).find(Boolean);
  const sizes = trailers.map((trailer) => trailer.lookup(PDFName.of('Size'))).filter((size) => size instanceof PDFNumber);
  const size = Math.max(0, ...sizes.map((entry) => entry.asNumber()), ...[...locations.keys()].map((n) => n + 1));
  context.trailerInfo = { Size: PDFNumber.of(size) };
  for (const name of ['Root', 'Encrypt', 'Info', 'ID'] as const) {
    const entry = trailerEntry(name);
    if (entry) context.trailerInfo[name] = entry;
  }
  context.largestObjectNumber = size - 1;
  // A new context calls itself decrypted; this one is read as the file is, so a locked file stays locked.
  context.isDecrypted = false;
  context.header = headerOf(file);
  Object.assign(context.pdfFileDetails, {
    pdfSize: bytes.length,
    prevStartXRef: startXRef,
    useObjectStreams: sections.crossReferenceStreams,
  });

  const loaded = new Set<number>();
  const remember = (ref: PDFRef, object: PDFObject) => {
    context.assign(ref, object);
    onRead(ref.objectNumber, object);
  };
  const readObjectStream = (streamNumber: number) => {
    const stream = context.lookup(PDFRef.of(streamNumber, 0));
    if (!(stream instanceof PDFRawStream) || stream.dict.lookup(TYPE) !== PDFName.of('ObjStm'))
      throw new ReadAsNeededError(`Object stream ${streamNumber} is missing`);
    const decoded = decodePDFRawStream(stream).decode();
    const first = stream.dict.lookup(PDFName.of('First'), PDFNumber).asNumber();
    const count = stream.dict.lookup(PDFName.of('N'), PDFNumber).asNumber();
    const index = Buffer.from(decoded.buffer, decoded.byteOffset, Math.min(first, decoded.length))
      .toString('latin1')
      .trim()
      .split(/\s+/)
      .map(Number);
    for (let entry = 0; entry < count; entry++) {
      const [objectNumber, offset] = [index[2 * entry]!, index[2 * entry + 1]!];
      const location = locations.get(objectNumber);
      // An object a later update replaced stays as the update wrote it.
      if (!location || !('inStream' in location) || location.inStream !== streamNumber || loaded.has(objectNumber)) continue;
      loaded.add(objectNumber);
      const ref = PDFRef.of(objectNumber, 0);
      remember(ref, PDFObjectParser.forBytes(decoded.subarray(first + offset), context).parseObject(ref));
    }
  };
  const read = (ref: PDFRef) => {
    const { objectNumber, generationNumber } = ref;
    if (loaded.has(objectNumber)) return;
    const location = locations.get(objectNumber);
    if (location && 'inStream' in location) {
      if (generationNumber === 0) readObjectStream(location.inStream);
    } else if (location && 'offset' in location && location.generation === generationNumber) {
      loaded.add(objectNumber);
      const header = /^\s*(\d+)\s+(\d+)\s+obj\b/.exec(file.toString('latin1', location.offset, location.offset + 40));
      if (!header || Number(header[1]) !== objectNumber || Number(header[2]) !== generationNumber)
        throw new ReadAsNeededError(`Object ${objectNumber} is not at offset ${location.offset}`);
      remember(ref, parseAt(bytes, location.offset + header[0].length, context, ref));
    }
    // A reference to a free or unknown object is null (PDF 2.0 § 7.3.10), as pdf-lib answers it.
    loaded.add(objectNumber);
  };
  // Every lookup pdf-lib makes goes through these two: each reads its object first.
  const readFirst =
    (lookup: Lookup): Lookup =>
    (key, ...types) => {
      if (key instanceof PDFRef) read(key);
      return lookup(key, ...types);
    };
  context.lookup = readFirst(context.lookup.bind(context) as Lookup) as PDFContext['lookup'];
  context.lookupMaybe = readFirst(context.lookupMaybe.bind(context) as Lookup) as PDFContext['lookupMaybe'];

  // pdf-lib's constructor is private to its loader, which would parse the whole file.
  const doc = Reflect.construct(PDFDocument, [context, false, false]) as PDFDocument;
  if (!(doc.catalog instanceof PDFCatalog)) return undefined;
  return { doc, crossReferenceStreams: sections.crossReferenceStreams };
}

/** The offset after the file's last `startxref`, looked for where writers put it: in its last kilobyte. */
function lastStartXRef(file: Buffer): number | undefined {
  const tail = file.toString('latin1', Math.max(0, file.length - 1024));
  const matches = [...tail.matchAll(/startxref\s+(\d+)/g)];
  const offset = Number(matches.at(-1)?.[1]);
  return Number.isSafeInteger(offset) && offset > 0 && offset < file.length ? offset : undefined;
}

function headerOf(file: Buffer): PDFHeader {
  const version = /%PDF-(\d+)\.(\d+)/.exec(file.toString('latin1', 0, 1024));
  return version ? PDFHeader.forVersion(Number(version[1]), Number(version[2])) : PDFHeader.forVersion(1, 7);
}

function parseAt(bytes: Uint8Array, offset: number, context: PDFContext, ref?: PDFRef): PDFObject {
  return PDFObjectParser.forBytes(bytes.subarray(offset), context).parseObject(ref);
}

interface CrossReferences {
  locations: Map<number, Location>;
  /** Newest first. */
  trailers: PDFDict[];
  crossReferenceStreams: boolean;
}

/**
 * Every cross-reference section from the last one back through `/Prev` (and a hybrid file's
 * `/XRefStm`), the newest entry of each object winning; undefined when one cannot be read.
 */
function readCrossReferences(
  bytes: Uint8Array,
  file: Buffer,
  startXRef: number,
  context: PDFContext,
): CrossReferences | undefined {
  const locations = new Map<number, Location>();
  const trailers: PDFDict[] = [];
  let crossReferenceStreams: boolean | undefined;
  const pending = [startXRef];
  const seen = new Set<number>();
  while (pending.length > 0) {
    const offset = pending.shift()!;
    if (seen.has(offset) || seen.size >= MAX_SECTIONS || offset <= 0 || offset >= bytes.length) return undefined;
    seen.add(offset);
    const section = readSection(bytes, file, offset, context);
    if (!section) return undefined;
    crossReferenceStreams ??= section.stream;
    for (const [objectNumber, location] of section.entries)
      if (!locations.has(objectNumber)) locations.set(objectNumber, location);
    trailers.push(section.trailer);
    // A hybrid file's table wins over its stream's entries, which win over the sections before them.
    const next = ['XRefStm', 'Prev'].map((name) => section.trailer.lookup(PDFName.of(name)));
    pending.unshift(...next.filter((entry) => entry instanceof PDFNumber).map((entry) => entry.asNumber()));
  }
  return { locations, trailers, crossReferenceStreams: crossReferenceStreams ?? false };
}

interface Section {
  entries: Map<number, Location>;
  trailer: PDFDict;
  stream: boolean;
}

function readSection(bytes: Uint8Array, file: Buffer, offset: number, context: PDFContext): Section | undefined {
  const head = file.toString('latin1', offset, offset + 40);
  if (/^xref\s/.test(head)) return readTable(bytes, file, offset + 'xref'.length, context);
  const header = /^(\d+)\s+(\d+)\s+obj\b/.exec(head);
  if (!header) return undefined;
  const ref = PDFRef.of(Number(header[1]), Number(header[2]));
  const stream = parseAt(bytes, offset + header[0].length, context, ref);
  if (!(stream instanceof PDFRawStream) || stream.dict.lookup(TYPE) !== PDFName.of('XRef')) return undefined;
  const entries = new Map<number, Location>();
  for (const entry of PDFXRefStreamParser.forStream(stream).parseIntoContext()) {
    const location: Location = entry.deleted
      ? { free: true }
      : entry.inObjectStream
        ? { inStream: entry.offset }
        : { offset: entry.offset, generation: entry.ref.generationNumber };
    entries.set(entry.ref.objectNumber, location);
  }
  return { entries, trailer: stream.dict, stream: true };
}

/** A classic table (`xref`, subsections of `first count`, then `offset generation n|f` lines) and its trailer. */
function readTable(bytes: Uint8Array, file: Buffer, from: number, context: PDFContext): Section | undefined {
  const trailerAt = file.indexOf('trailer', from, 'latin1');
  if (trailerAt < 0) return undefined;
  const words = file.toString('latin1', from, trailerAt).trim().split(/\s+/);
  const entries = new Map<number, Location>();
  for (let at = 0; at + 1 < words.length;) {
    const [first, count] = [Number(words[at]), Number(words[at + 1])];
    at += 2;
    if (!Number.isSafeInteger(first) || !Number.isSafeInteger(count) || at + 3 * count > words.length) return undefined;
    for (let objectNumber = first; objectNumber < first + count; objectNumber++, at += 3) {
      const [offset, generation, kind] = [Number(words[at]), Number(words[at + 1]), words[at + 2]];
      if (kind === 'f') entries.set(objectNumber, { free: true });
      else if (kind === 'n' && Number.isSafeInteger(offset) && Number.isSafeInteger(generation))
        entries.set(objectNumber, { offset, generation });
      else return undefined;
    }
  }
  const trailer = parseAt(bytes, trailerAt + 'trailer'.length, context);
  return trailer instanceof PDFDict ? { entries, trailer, stream: false } : undefined;
}
