import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createDeflate, deflateSync, crc32 } from 'node:zlib';
import sharp from 'sharp';
import { PDFDocument as PdfLibDocument, PDFHexString, PDFName, PDFString } from '@cantoo/pdf-lib';
import PDFDocument from 'pdfkit';

/** Real files for upload tests, made on the spot. */
export function makePdf(text = 'Test course'): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A6', margin: 24, info: { Title: text } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.fontSize(14).text(text);
  doc.end();
  return done;
}

/**
 * A PDF as a signing tool leaves it: a signature field whose value is a signature dictionary (the
 * bytes of the signature itself are zeros: the shop judges the structure, it never verifies one).
 * `signed: false` leaves the field empty, waiting for a signature.
 */
export async function makeSignedPdf(text = 'Signed course', { signed = true } = {}): Promise<Uint8Array> {
  const doc = await PdfLibDocument.load(await makePdf(text));
  const { context } = doc;
  const signature = context.obj({
    Type: 'Sig',
    Filter: 'Adobe.PPKLite',
    SubFilter: 'adbe.pkcs7.detached',
    ByteRange: [0, 0, 0, 0],
    Contents: PDFHexString.of('00'.repeat(64)),
  });
  const field = context.obj({
    Type: 'Annot',
    Subtype: 'Widget',
    FT: 'Sig',
    T: PDFString.of('Signature1'),
    Rect: [0, 0, 0, 0],
    F: 132,
    P: doc.getPage(0).ref,
    ...(signed ? { V: context.register(signature) } : {}),
  });
  doc.catalog.set(PDFName.of('AcroForm'), context.obj({ Fields: [context.register(field)], SigFlags: signed ? 3 : 0 }));
  return doc.save();
}

/** A valid PNG of one colour. */
export function makePng(width = 16, height = 9, [red, green, blue]: [number, number, number] = [79, 70, 229]): Buffer {
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([red, green, blue], 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG of random pixels: about 3 bytes a pixel however it is compressed (for files of a known size). */
export function makeNoisePng(width: number, height: number): Buffer {
  const raw = Buffer.concat(Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), randomBytes(width * 3)])));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A photo as a phone leaves it: a JPEG whose EXIF says where it was taken (GPS, Istanbul). */
export function makeJpegWithGps(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#4f46e5' } })
    .jpeg()
    .withExifMerge({
      IFD0: { Make: 'Test Phone' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '41/1 0/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '28/1 58/1 0/1' },
    })
    .toBuffer();
}

/** A decompression bomb: a valid 30000 × 30000 PNG (900 megapixels, black and white) of about 110 KB. */
export async function makePngBomb(side = 30_000): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const compressed: Buffer[] = [];
  deflate.on('data', (part: Buffer) => compressed.push(part));
  // A thousand rows at a time: each a filter byte and one bit a pixel, all black.
  const rows = Buffer.alloc((1 + side / 8) * 1000);
  for (let done = 0; done < side; done += 1000) if (!deflate.write(rows)) await once(deflate, 'drain');
  deflate.end();
  await once(deflate, 'end');
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([1, 0, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', Buffer.concat(compressed)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The smallest JPEG and WebP headers: enough for content sniffing, not for display. */
export const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
export const WEBP_HEAD = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);
export const SVG_WITH_SCRIPT = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script><rect width="10" height="10"/></svg>',
);
export const PDF_HTML_POLYGLOT = Buffer.from(
  '%PDF-1.4\n<!doctype html><html><body><script>alert(document.cookie)</script></body></html>\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n',
);

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
