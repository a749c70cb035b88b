/**
 * Images editors upload for the blog (functions/blog/images.ts) are stored in several widths, named
 * so that the largest one's URL tells the rest: `…/blog/<kind>/<hash>-<W>x<H>.webp` beside
 * `…/<hash>-<w>.webp` for each standard width below W. Client-safe: pages and the editor both use it.
 */
export const BLOG_IMAGE_WIDTHS = [480, 800, 1200] as const;
/** Covers are cut to the cards' and articles' shape. */
export const COVER_WIDTH = 1200;
export const COVER_HEIGHT = 630;

/** How wide images show: in an article's column, and on the blog's cards. */
export const ARTICLE_IMAGE_SIZES = '(min-width: 48rem) 45rem, calc(100vw - 2rem)';
export const CARD_IMAGE_SIZES = '(min-width: 48rem) 36rem, calc(100vw - 2rem)';

const UPLOADED = /\/blog\/(covers|images)\/[0-9a-f]{16}-(\d{1,5})x(\d{1,5})\.webp$/;

export interface ResponsiveImage {
  src: string;
  /** Absent for images that were not uploaded here (one size only). */
  srcset?: string;
  width: number;
  height: number;
}

/** The widths stored for an image `width` pixels wide at most: the standard ones below it, and itself. */
export function storedWidths(width: number): number[] {
  return [...BLOG_IMAGE_WIDTHS.filter((standard) => standard < width), width];
}

/** `src`, `srcset` and the intrinsic size of an uploaded image; undefined for any other URL. */
export function uploadedImage(url: string): ResponsiveImage | undefined {
  const match = UPLOADED.exec(url);
  if (!match) return undefined;
  const width = Number(match[2]);
  const height = Number(match[3]);
  if (!width || !height) return undefined;
  const srcset = storedWidths(width)
    .map((size) => `${size === width ? url : url.replace(/-\d+x\d+\.webp$/, `-${size}.webp`)} ${size}w`)
    .join(', ');
  return { src: url, srcset, width, height };
}

/** A cover as pages show it: uploaded ones with every width; others (shipped illustrations, links) as they are. */
export function coverImage(url: string): ResponsiveImage {
  return uploadedImage(url) ?? { src: url, width: COVER_WIDTH, height: COVER_HEIGHT };
}
