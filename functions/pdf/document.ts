import { fileURLToPath } from 'node:url';
import PDFDocument from 'pdfkit';

// A font with every Turkish letter; PDF's built-in Helvetica has no ş, ğ or ı.
const FONT_REGULAR = fileURLToPath(import.meta.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'));
const FONT_BOLD = fileURLToPath(import.meta.resolve('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf'));

/**
 * The shop's one way to start a PDF: A4, 56 pt margins, the fonts `regular` and `bold` (Noto Sans),
 * and the finished file once the caller ends the document. `bufferPages` keeps every page open until
 * the end, so a footer can be drawn on each ("3/6").
 */
export function startPdf(options: { lang: string; info: PDFKit.DocumentInfo; bufferPages?: boolean }): {
  doc: PDFKit.PDFDocument;
  done: Promise<Buffer>;
} {
  const doc = new PDFDocument({ size: 'A4', margin: 56, ...options });
  doc.registerFont('regular', FONT_REGULAR);
  doc.registerFont('bold', FONT_BOLD);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, done };
}
