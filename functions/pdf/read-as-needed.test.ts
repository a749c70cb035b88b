import { PDFDocument as PdfLibDocument, PDFName, PDFRawStream, type PDFObject } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { makeLargePdf } from '../../tests/bench/large-pdf.ts';
import { readPdf } from '../../tests/support/pdf-reader.ts';
import { openAsNeeded, ReadAsNeededError } from './read-as-needed.ts';
import { stampDocument, type Stamp, type StampedPdf } from './stamp-document.ts';

const STAMP: Stamp = {
  line: 'Licensed to Şule Işıklı sule@example.com · order MC-1A2B3C4D',
  orderReference: 'MC-1A2B3C4D',
  licensedTo: 'Şule Işıklı <sule@example.com>',
};

/** Ten pages, each with its own image, a bookmark every ten pages and a link a page (the bench's course, small). */
const course = () => makeLargePdf({ pages: 10, targetBytes: 300 * 1024 });

const withStamp = (original: Uint8Array, stamped: StampedPdf) =>
  'update' in stamped ? Buffer.concat([original, stamped.update]) : Buffer.from(stamped.whole);

describe('reading a PDF as the stamp needs it', () => {
  it('reads the pages without parsing an image, and the stamp still reaches every page, bookmark and link', async () => {
    const original = await course();
    const read: PDFObject[] = [];
    const opened = openAsNeeded(original, (_, object) => read.push(object))!;
    expect(opened.doc.getPages()).toHaveLength(10);
    const images = read.filter(
      (object) => object instanceof PDFRawStream && object.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'),
    );
    expect(images).toEqual([]);
    const all = (await PdfLibDocument.load(original)).context.enumerateIndirectObjects().length;
    expect(read.length).toBeLessThan(all / 2);

    const stamped = await stampDocument({ pdf: new Uint8Array(original) }, STAMP);
    expect(stamped).toHaveProperty('update');
    // The update holds the new footer and the changed pages, never an image or a page's own contents again.
    expect((stamped as { update: Uint8Array }).update.length).toBeLessThan(60_000);
    const file = await readPdf(withStamp(original, stamped));
    expect(file.pages.map((page) => page.text.includes(STAMP.line))).toEqual(Array(10).fill(true));
    expect(file.outline).toEqual((await readPdf(original)).outline);
    expect(file.pages.map((page) => page.links.length)).toEqual(Array(10).fill(1));
  });

  it('follows a chain of updates and object streams: a copy stamped again carries both lines', async () => {
    const compressed = Buffer.from(await (await PdfLibDocument.load(await course())).save({ useObjectStreams: true }));
    const once = withStamp(compressed, await stampDocument({ pdf: new Uint8Array(compressed) }, STAMP));
    const again = { ...STAMP, line: 'Licensed to Ada Öztürk ada@example.com · order MC-9Z8Y7X6W', orderReference: 'MC-9Z8Y7X6W' };
    const twice = withStamp(once, await stampDocument({ pdf: new Uint8Array(once) }, again));
    expect(openAsNeeded(once, () => {})?.crossReferenceStreams).toBe(true);
    const file = await readPdf(twice);
    expect(file.pages.every((page) => page.text.includes(STAMP.line) && page.text.includes(again.line))).toBe(true);
    expect(file.info).toMatchObject({ Custom: { OrderReference: 'MC-9Z8Y7X6W' } });
  });

  it('reads a file whole when its objects are not where its cross-reference says, and stamps it all the same', async () => {
    const original = (await course()).toString('latin1');
    // Every offset in the table moved three bytes on: readers repair such files, and so does pdf-lib's loader.
    const shifted = Buffer.from(
      original.replace(
        /^(\d{10}) (\d{5}) n/gm,
        (_, offset: string, generation: string) => `${String(Number(offset) + 3).padStart(10, '0')} ${generation} n`,
      ),
      'latin1',
    );
    expect(() => openAsNeeded(shifted, () => {})?.doc.getPages()).toThrow(ReadAsNeededError);
    const file = await readPdf(withStamp(shifted, await stampDocument({ pdf: new Uint8Array(shifted) }, STAMP)));
    expect(file.pages.map((page) => page.text.includes(STAMP.line))).toEqual(Array(10).fill(true));
  });
});
