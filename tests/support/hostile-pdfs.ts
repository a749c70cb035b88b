import { createDeflate } from 'node:zlib';

/**
 * PDFs built to hurt whoever parses them, made on the spot from their few objects (no binary blobs):
 * each is a small, valid file a reader opens, with one hostile structure.
 */

/** One page listed `listings` times in its page tree (40,000 times: about 240 KB). */
export function makeRepeatedPagePdf(listings = 40_000): Buffer {
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${'3 0 R '.repeat(listings)}] /Count ${listings} >>`,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << >> /Contents 4 0 R >>',
    streamObject('', Buffer.from('0 0 1 rg 72 72 451 698 re f\n')),
  ]);
}

/**
 * A flate bomb in an object stream, which a parser must expand to read the objects inside: zeros
 * that inflate to `inflatedBytes` (256 MB from about 250 KB).
 */
export async function makeFlateBombPdf(inflatedBytes = 256 * 1024 * 1024): Promise<Buffer> {
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << >> >>',
    streamObject('/Type /ObjStm /N 1 /First 8 /Filter /FlateDecode', await deflatedZeros(inflatedBytes)),
  ]);
}

function streamObject(dictionary: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream', 'latin1'),
  ]);
}

/** `%PDF-1.7`, objects 1… in order, a cross-reference table that finds each, and the trailer. */
function assemblePdf(objects: (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(length);
    const part = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`, 'latin1'),
      typeof object === 'string' ? Buffer.from(object, 'latin1') : object,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(part);
    length += part.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n `),
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    `startxref\n${length}`,
    '%%EOF\n',
  ].join('\n');
  return Buffer.concat([...parts, Buffer.from(xref, 'latin1')]);
}

/** Deflated zeros, fed a megabyte at a time so the test never holds what the bomb expands to. */
function deflatedZeros(bytes: number): Promise<Buffer> {
  const chunk = Buffer.alloc(1024 * 1024);
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (data: Buffer) => out.push(data));
  const done = new Promise<Buffer>((resolve, reject) => {
    deflate.on('end', () => resolve(Buffer.concat(out)));
    deflate.on('error', reject);
  });
  void (async () => {
    for (let written = 0; written < bytes; written += chunk.length) {
      if (!deflate.write(chunk.subarray(0, Math.min(chunk.length, bytes - written))))
        await new Promise((resolve) => deflate.once('drain', resolve));
    }
    deflate.end();
  })();
  return done;
}

/**
 * One array of 20 million numbers (40 MB, under the upload limit): a few bytes each in the file, tens
 * of bytes each once parsed, so a parser outgrows the PDF worker's memory limit.
 */
export function makeHugeArrayPdf(numbers = 20_000_000): Buffer {
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R /Filler 4 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << >> >>',
    `[${'0 '.repeat(numbers)}]`,
  ]);
}
