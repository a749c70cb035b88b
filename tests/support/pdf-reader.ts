import { getDocument, Util } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * A PDF as a reader sees it, parsed by PDF.js (Firefox's PDF reader), never by grepping bytes: the
 * text of each page, where a line sits as the page is shown, the bookmarks, links and metadata.
 */
export interface ReadPdf {
  pages: ReadPage[];
  outline: string[];
  info: Record<string, unknown>;
}

export interface ReadPage {
  text: string;
  links: string[];
  /** Where a line containing `text` is drawn, as the page is shown (rotation applied). */
  placementOf(text: string): { horizontal: boolean; fromBottomPt: number; centreOffsetPt: number } | undefined;
}

export async function readPdf(bytes: Uint8Array): Promise<ReadPdf> {
  // PDF.js takes the buffer over: give it a copy.
  const doc = await getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false }).promise;
  try {
    const pages: ReadPage[] = [];
    for (let number = 1; number <= doc.numPages; number++) {
      const page = await doc.getPage(number);
      const viewport = page.getViewport({ scale: 1 });
      const content = await page.getTextContent();
      const items = content.items.flatMap((item) => ('str' in item ? [item] : []));
      const annotations = (await page.getAnnotations()) as { url?: string }[];
      pages.push({
        text: items.map((item) => item.str).join(' '),
        links: annotations.flatMap((annotation) => (annotation.url ? [annotation.url] : [])),
        placementOf(text) {
          const item = items.find((candidate) => candidate.str.includes(text));
          if (!item) return undefined;
          const [a, b, , , e, f] = Util.transform(viewport.transform, item.transform) as number[];
          return {
            horizontal: a! > 0 && Math.abs(b!) < 1e-6,
            fromBottomPt: viewport.height - f!,
            centreOffsetPt: e! + item.width / 2 - viewport.width / 2,
          };
        },
      });
    }
    const outline = ((await doc.getOutline()) ?? []).map((entry) => entry.title);
    const { info } = await doc.getMetadata();
    return { pages, outline, info: info as Record<string, unknown> };
  } finally {
    await doc.destroy();
  }
}
