import { describe, expect, it } from 'vitest';
import { checkCoverImage, checkPdf, sniffImage } from './sniff.ts';
import { MAX_COVER_BYTES, MAX_PDF_BYTES } from '../../src/lib/admin/courses.schema.ts';
import { JPEG_HEAD, PDF_HTML_POLYGLOT, SVG_WITH_SCRIPT, WEBP_HEAD, makePdf, makePng } from '../../tests/support/files.ts';

describe('PDF content check', () => {
  it('accepts a real PDF', async () => {
    expect(checkPdf(await makePdf('Bütçe 101 — ışık, şeker, ğ'))).toEqual({ ok: true });
  });

  it('judges the bytes, not the name: a PNG, plain text or an empty file is not a PDF', () => {
    expect(checkPdf(makePng())).toEqual({ ok: false, problem: 'notPdf' });
    expect(checkPdf(Buffer.from('just some text %%EOF'))).toEqual({ ok: false, problem: 'notPdf' });
    expect(checkPdf(Buffer.alloc(0))).toEqual({ ok: false, problem: 'empty' });
  });

  it('needs the header at the very start and %%EOF near the end', async () => {
    const pdf = await makePdf();
    expect(checkPdf(Buffer.concat([Buffer.from(' '), pdf]))).toEqual({ ok: false, problem: 'notPdf' });
    expect(checkPdf(pdf.subarray(0, pdf.length - 8))).toEqual({ ok: false, problem: 'notPdf' });
    expect(checkPdf(Buffer.concat([pdf, Buffer.alloc(4096, 0x20)]))).toEqual({ ok: false, problem: 'notPdf' });
    expect(checkPdf(Buffer.concat([pdf, Buffer.from('\n\n')]))).toEqual({ ok: true });
  });

  it('refuses PDF/HTML polyglots: markup in the first kilobyte or after the last %%EOF', async () => {
    expect(checkPdf(PDF_HTML_POLYGLOT)).toEqual({ ok: false, problem: 'polyglot' });
    expect(checkPdf(Buffer.from('%PDF-1.7\n<SCRIPT>alert(1)</SCRIPT>\n%%EOF'))).toEqual({ ok: false, problem: 'polyglot' });
    const pdf = await makePdf();
    expect(checkPdf(Buffer.concat([pdf, Buffer.from('<html><script>alert(1)</script>')]))).toEqual({
      ok: false,
      problem: 'polyglot',
    });
  });

  it('refuses more than MAX_PDF_BYTES (50 MB) without reading it as text', () => {
    const big = Buffer.alloc(MAX_PDF_BYTES + 1, 0x20);
    big.write('%PDF-1.7\n', 0);
    big.write('%%EOF\n', big.length - 6);
    expect(checkPdf(big)).toEqual({ ok: false, problem: 'tooLarge' });
    expect(checkPdf(big.subarray(big.length - MAX_PDF_BYTES))).not.toEqual({ ok: false, problem: 'tooLarge' });
  });
});

describe('cover image content check', () => {
  it('recognises PNG, JPEG and WebP by their magic bytes', () => {
    expect(sniffImage(makePng())).toEqual({ extension: 'png', contentType: 'image/png' });
    expect(sniffImage(JPEG_HEAD)).toEqual({ extension: 'jpg', contentType: 'image/jpeg' });
    expect(sniffImage(WEBP_HEAD)).toEqual({ extension: 'webp', contentType: 'image/webp' });
  });

  it('refuses SVG (with or without script), GIF, HTML, a PDF and near-misses', async () => {
    for (const bytes of [
      SVG_WITH_SCRIPT,
      Buffer.from('GIF89a....'),
      Buffer.from('<!doctype html><img src=x onerror=alert(1)>'),
      await makePdf(),
      makePng().subarray(0, 7),
      Buffer.from('RIFF\0\0\0\0WAVEfmt '),
    ]) {
      expect(checkCoverImage(bytes)).toEqual({ ok: false, problem: 'notImage' });
    }
    expect(checkCoverImage(Buffer.alloc(0))).toEqual({ ok: false, problem: 'empty' });
  });

  it('refuses more than MAX_COVER_BYTES (5 MB)', () => {
    const big = Buffer.concat([makePng(), Buffer.alloc(MAX_COVER_BYTES)]);
    expect(checkCoverImage(big)).toEqual({ ok: false, problem: 'tooLarge' });
  });
});
