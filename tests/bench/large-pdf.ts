import PDFDocument from 'pdfkit';
import { makeNoisePng } from '../support/files.ts';

/**
 * A course-sized PDF for the stamping benchmark: `pages` pages of text, each with its own
 * incompressible image (so the file reaches about `targetBytes`), a bookmark every ten pages and a
 * link on every page.
 */
export function makeLargePdf({ pages = 300, targetBytes = 20 * 1024 * 1024 } = {}): Promise<Buffer> {
  const side = Math.round(Math.sqrt(targetBytes / pages / 3));
  const doc = new PDFDocument({ size: 'A4', autoFirstPage: false, info: { Title: 'Benchmark course', Author: 'Bench' } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  for (let number = 1; number <= pages; number++) {
    doc.addPage();
    doc.fontSize(18).text(`Lesson ${number}`);
    doc.image(makeNoisePng(side, side), 72, 120, { width: 300 });
    doc.fontSize(10).text('A practical paragraph about money and calm. '.repeat(40), 72, 440);
    if (number % 10 === 1) doc.outline.addItem(`Chapter ${Math.ceil(number / 10)}`);
    doc.link(72, 760, 120, 20, `https://example.com/lesson/${number}`);
  }
  doc.end();
  return done;
}
