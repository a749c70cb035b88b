import { PDFDict, PDFDocument as PdfLibDocument, PDFName } from '@cantoo/pdf-lib';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { readPdf } from '../../tests/support/pdf-reader.ts';
import { previewPdf } from './preview.ts';

/** A course of `pages` lessons: a bookmark each (lesson 3 under a chapter), a web link, and a link to the last page. */
function makeCourse(pages: number): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A5',
    autoFirstPage: false,
    bufferPages: true,
    info: { Title: 'Bütçe Temelleri', Author: 'Ada Teacher' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  let chapter: PDFKit.PDFOutline | undefined;
  for (let number = 1; number <= pages; number++) {
    doc.addPage();
    doc.fontSize(14).text(`Lesson ${number} secret-${number}`);
    if (number === 2) chapter = doc.outline.addItem(`Lesson ${number}`);
    else if (number === 3) chapter!.addItem(`Lesson ${number}`);
    else doc.outline.addItem(`Lesson ${number}`);
    doc.link(40, 200, 120, 20, `https://example.com/lesson/${number}`);
    if (number === pages) doc.addNamedDestination('answers');
  }
  doc.switchToPage(1);
  doc.goTo(40, 300, 120, 20, 'answers');
  doc.end();
  return done.then(linkToLastPage);
}

/** A link on page 2 straight to the last page's object (an explicit destination, as most tools write). */
async function linkToLastPage(bytes: Buffer): Promise<Buffer> {
  const doc = await PdfLibDocument.load(bytes);
  const pages = doc.getPages();
  const link = doc.context.obj({ Type: 'Annot', Subtype: 'Link', Rect: [40, 400, 160, 420], Dest: [pages.at(-1)!.ref, 'Fit'] });
  pages[1]!.node.addAnnot(doc.context.register(link));
  return Buffer.from(await doc.save());
}

describe('previewPdf', () => {
  it('keeps only the chosen pages, marks each in the course language, trims the outline and leaves the other pages out of the file', async () => {
    const course = await makeCourse(6);
    const preview = await previewPdf(() => Promise.resolve(Buffer.from(course)), { firstPage: 2, lastPage: 3, mark: 'Önizleme' });
    const read = await readPdf(preview!);

    expect(read.pages).toHaveLength(2);
    for (const [index, page] of read.pages.entries()) {
      expect(page.text).toContain(`Lesson ${index + 2}`);
      expect(page.text).toContain('Önizleme');
      expect(page.links).toEqual([`https://example.com/lesson/${index + 2}`]);
    }
    expect(read.outline).toEqual(['Lesson 2']);
    expect(read.info).toMatchObject({ Title: 'Bütçe Temelleri (Önizleme)', Author: 'Ada Teacher' });
    // Page 2's link to the last page is gone: no page object but the two shown travelled with them.
    const structure = await PdfLibDocument.load(preview!);
    const pageObjects = structure.context
      .enumerateIndirectObjects()
      .filter(([, object]) => object instanceof PDFDict && object.lookup(PDFName.of('Type')) === PDFName.of('Page'));
    expect(pageObjects).toHaveLength(2);
  });

  it('stops at the last page when the range runs past it, and lifts a left-out chapter’s bookmarks', async () => {
    const preview = await previewPdf(async () => makeCourse(4), { firstPage: 3, lastPage: 50, mark: 'Preview' });
    const read = await readPdf(preview!);
    expect(read.pages.map((page) => page.text.includes('Preview'))).toEqual([true, true]);
    expect(read.outline).toEqual(['Lesson 3', 'Lesson 4']);
  });
});
