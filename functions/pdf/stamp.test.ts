import { degrees, PDFDocument as PdfLibDocument } from '@cantoo/pdf-lib';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { makeSignedPdf } from '../../tests/support/files.ts';
import { readPdf } from '../../tests/support/pdf-reader.ts';
import { makeFlateBombPdf, makeRepeatedPagePdf } from '../../tests/support/hostile-pdfs.ts';
import { PDF_JOB_LIMITS, runPdfJob } from './pdf-job.ts';
import { checkStampable, stampedBytes, stampPdf, StampError, type Stamp } from './stamp.ts';

const STAMP: Stamp = {
  line: 'Licensed to Şule Işıklı İğdeci sule@example.com · order MC-1A2B3C4D',
  orderReference: 'MC-1A2B3C4D',
  licensedTo: 'Şule Işıklı İğdeci <sule@example.com>',
};

/** A real course-like PDF: several pages, bookmarks, a link per page, the author's metadata. */
function makeCourse(options: { pages?: number; encrypt?: 'owner' | 'user' } = {}): Promise<Buffer> {
  const { pages = 4, encrypt } = options;
  const doc = new PDFDocument({
    size: 'A5',
    autoFirstPage: false,
    info: { Title: 'Bütçe Temelleri', Author: 'Ada Teacher', Subject: 'Money', Keywords: 'budget, money' },
    ...(encrypt === 'owner' ? { ownerPassword: 'seller-secret', permissions: { printing: 'highResolution' } } : {}),
    ...(encrypt === 'user' ? { userPassword: 'reader', ownerPassword: 'seller-secret' } : {}),
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  for (let number = 1; number <= pages; number++) {
    doc.addPage();
    doc.fontSize(14).text(`Lesson ${number}`);
    doc.outline.addItem(`Lesson ${number}`);
    doc.link(40, 200, 120, 20, `https://example.com/lesson/${number}`);
  }
  doc.end();
  return done;
}

/** Stamps a copy of `pdf` (the PDF worker takes the bytes it is given). */
async function stampCopy(pdf: Uint8Array, stamp = STAMP): Promise<Uint8Array> {
  const stamped = await stampPdf(() => Promise.resolve(Buffer.from(pdf)), stamp);
  if (!stamped) throw new Error('Nothing was stamped');
  return stampedBytes(pdf, stamped);
}

describe('stampPdf', () => {
  it('puts the buyer line on every page and the order in the metadata, keeping bookmarks, links and metadata', async () => {
    const original = await makeCourse({ pages: 5 });
    const stamped = await stampCopy(original);
    const read = await readPdf(stamped);
    const before = await readPdf(original);

    expect(read.pages).toHaveLength(5);
    for (const [index, page] of read.pages.entries()) {
      expect(page.text, `page ${index + 1}`).toContain(STAMP.line);
      expect(page.text).toContain(`Lesson ${index + 1}`);
      expect(page.links).toEqual([`https://example.com/lesson/${index + 1}`]);
      const placement = page.placementOf('Licensed to')!;
      expect(placement.horizontal).toBe(true);
      expect(placement.fromBottomPt).toBeGreaterThan(0);
      expect(placement.fromBottomPt).toBeLessThan(20);
      expect(Math.abs(placement.centreOffsetPt)).toBeLessThan(2);
    }
    expect(read.outline).toEqual(['Lesson 1', 'Lesson 2', 'Lesson 3', 'Lesson 4', 'Lesson 5']);
    expect(read.outline).toEqual(before.outline);
    expect(read.info).toMatchObject({
      Title: 'Bütçe Temelleri',
      Author: 'Ada Teacher',
      Subject: 'Money',
      Keywords: 'budget, money',
      Producer: before.info.Producer,
      CreationDate: before.info.CreationDate,
      Custom: { OrderReference: 'MC-1A2B3C4D', LicensedTo: 'Şule Işıklı İğdeci <sule@example.com>' },
    });
    // The original is untouched, and its bytes begin the stamped file.
    expect((await readPdf(original)).pages[0]!.text).not.toContain('Licensed to');
    expect(Buffer.from(stamped.subarray(0, original.length)).equals(original)).toBe(true);
  });

  it('appends the stamp as an update: the original’s bytes stay first, and each new cross-reference entry points at its object', async () => {
    const original = await makeCourse({ pages: 3 });
    const stamped = await stampPdf(() => Promise.resolve(Buffer.from(original)), STAMP);
    if (!stamped || !('update' in stamped)) throw new Error('Expected an update');
    const update = Buffer.from(stamped.update).toString('latin1');
    const file = Buffer.concat([original, stamped.update]);
    const table = update.slice(update.lastIndexOf('\nxref\n') + 6, update.indexOf('trailer'));
    const lines = table.trim().split('\n');
    let entries = 0;
    for (let index = 0; index < lines.length;) {
      const [first, count] = lines[index++]!.split(' ').map(Number);
      for (let number = first!; number < first! + count!; number++, index++) {
        const [offset, , kind] = lines[index]!.trim().split(' ');
        if (kind !== 'n') continue;
        expect(file.toString('latin1', Number(offset), Number(offset) + 12)).toMatch(new RegExp(`^${number} 0 obj`));
        entries++;
      }
    }
    expect(entries).toBeGreaterThan(3);
    const startxref = original.toString('latin1').match(/startxref\s+(\d+)/)![1];
    expect(update).toMatch(new RegExp(`/Prev ${startxref}\\b`));
    expect((await readPdf(file)).pages.map((page) => page.text.includes(STAMP.line))).toEqual([true, true, true]);
  });

  it('stamps a file with cross-reference streams as an update of the same kind, and rewrites one whose startxref points nowhere', async () => {
    const compressed = Buffer.from(
      await (await PdfLibDocument.load(await makeCourse({ pages: 2 }))).save({ useObjectStreams: true }),
    );
    const update = await stampPdf(() => Promise.resolve(Buffer.from(compressed)), STAMP);
    expect(update && 'update' in update && Buffer.from(update.update).toString('latin1')).toMatch(/\/Type \/XRef/);
    expect((await readPdf(await stampCopy(compressed))).pages[1]!.text).toContain(STAMP.line);

    const course = (await makeCourse({ pages: 2 })).toString('latin1');
    const misplaced = Buffer.from(course.replace(/startxref\s+\d+/, 'startxref\n12'), 'latin1');
    expect(await stampPdf(() => Promise.resolve(Buffer.from(misplaced)), STAMP)).toHaveProperty('whole');
    const read = await readPdf(await stampCopy(misplaced));
    expect(read.pages.map((page) => page.text.includes(STAMP.line))).toEqual([true, true]);
  });

  it('writes the line along the bottom of the page as it is shown, whatever its rotation', async () => {
    const source = await PdfLibDocument.load(await makeCourse({ pages: 4 }), { updateMetadata: false });
    source.getPages().forEach((page, index) => page.setRotation(degrees(index * 90)));
    const rotated = await source.save();
    const read = await readPdf(await stampCopy(rotated));
    for (const [index, page] of read.pages.entries()) {
      const placement = page.placementOf('Licensed to')!;
      expect(placement, `rotation ${index * 90}`).toMatchObject({ horizontal: true });
      expect(placement.fromBottomPt, `rotation ${index * 90}`).toBeGreaterThan(0);
      expect(placement.fromBottomPt, `rotation ${index * 90}`).toBeLessThan(20);
      expect(Math.abs(placement.centreOffsetPt), `rotation ${index * 90}`).toBeLessThan(2);
    }
  });

  it('shrinks a long line to fit the page', async () => {
    const long = { ...STAMP, line: `Licensed to ${'Uzun İsimli Bir Alıcı '.repeat(6)}uzun@example.com · order MC-1A2B3C4D` };
    const read = await readPdf(await stampCopy(await makeCourse({ pages: 1 }), long));
    expect(read.pages[0]!.text).toContain(long.line);
    expect(Math.abs(read.pages[0]!.placementOf('Licensed to')!.centreOffsetPt)).toBeLessThan(2);
  });

  it('refuses password-protected and unreadable files with their reason', async () => {
    await expect(stampPdf(() => makeCourse({ encrypt: 'owner' }), STAMP)).rejects.toMatchObject({ problem: 'encrypted' });
    await expect(stampPdf(() => makeCourse({ encrypt: 'user' }), STAMP)).rejects.toBeInstanceOf(StampError);
    expect(await checkStampable(await makeCourse({ encrypt: 'owner' }))).toEqual({ ok: false, problem: 'encrypted' });
    expect(await checkStampable(Buffer.from('%PDF-1.4\n%%EOF\n'))).toEqual({ ok: false, problem: 'unreadable' });
    expect(await checkStampable(Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'))).toEqual({
      ok: false,
      problem: 'unreadable',
    });
    expect(await checkStampable(await makeCourse())).toEqual({ ok: true, signed: false });
  });

  it('says when a PDF carries a digital signature, which a stamp would break, and not for an empty signature field', async () => {
    expect(await checkStampable(await makeSignedPdf())).toEqual({ ok: true, signed: true });
    expect(await checkStampable(await makeSignedPdf('Unsigned', { signed: false }))).toEqual({ ok: true, signed: false });
  });

  it('stamps one document at a time, in arrival order', async () => {
    const original = await makeCourse({ pages: 2 });
    const order: string[] = [];
    await Promise.all(
      ['first', 'second', 'third'].map(async (name) => {
        await stampCopy(original, { ...STAMP, orderReference: name });
        order.push(name);
      }),
    );
    expect(order).toEqual(['first', 'second', 'third']);
  });

  it('reads a waiting stamp’s file only when its turn comes, so a queue of first downloads holds no files', async () => {
    const original = await makeCourse({ pages: 1 });
    const reads: string[] = [];
    let releaseFirst = () => {};
    const firstRead = new Promise<void>((resolve) => (releaseFirst = resolve));
    const stamps = ['first', 'second', 'third'].map((name) =>
      stampPdf(
        async () => {
          reads.push(name);
          if (name === 'first') await firstRead;
          return Buffer.from(original);
        },
        { ...STAMP, orderReference: name },
      ),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toEqual(['first']);
    releaseFirst();
    await stamps[0];
    expect(reads.length).toBeLessThanOrEqual(2);
    await Promise.all(stamps);
    expect(reads).toEqual(['first', 'second', 'third']);
  });

  it('refuses a page tree that lists one page many times, and a flate bomb past the decode budget', async () => {
    expect(await checkStampable(makeRepeatedPagePdf(2_000))).toEqual({ ok: false, problem: 'pageTree' });
    // The real budget is 64 MB (tests/integration/http/course-updates.test.ts sends a real bomb); 1 MB here keeps it quick.
    const bomb = await makeFlateBombPdf(4 * 1024 * 1024);
    const limits = { ...PDF_JOB_LIMITS, decodedBytes: 1024 * 1024 };
    expect(await runPdfJob({ kind: 'inspect', pdf: bomb }, { limits })).toEqual({ ok: false, problem: 'inflation' });
    expect(await runPdfJob({ kind: 'inspect', pdf: bomb })).toEqual({ ok: true, signed: false });
  });

  it('ends a job that passes its time or memory limit, and the next job runs', async () => {
    const course = await makeCourse({ pages: 2 });
    const limited = (limits: Partial<typeof PDF_JOB_LIMITS>) =>
      runPdfJob({ kind: 'inspect', pdf: course }, { limits: { ...PDF_JOB_LIMITS, ...limits } });
    expect(await limited({ timeoutMs: 50 })).toEqual({ ok: false, problem: 'limits' });
    expect(await limited({ heapMb: 4 })).toEqual({ ok: false, problem: 'limits' });
    expect(await limited({})).toEqual({ ok: true, signed: false });
  });
});
