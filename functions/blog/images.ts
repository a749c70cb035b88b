import { createHash } from 'node:crypto';
import sharp, { type Sharp } from 'sharp';
import { putFile, publicUrl } from '../storage/storage.ts';
import { checkCoverImage, type ImageProblem } from '../storage/sniff.ts';
import { COVER_HEIGHT, COVER_WIDTH, storedWidths } from '../../src/lib/blog-images.ts';
import { invalid, ok, type Result } from '../../src/lib/result.ts';
import type { MessageKey } from '../../src/i18n/i18n.ts';

export type BlogImageKind = 'cover' | 'inline';

export interface StoredBlogImage {
  /** The largest width; src/lib/blog-images.ts derives the others from it. */
  url: string;
  width: number;
  height: number;
}

const PROBLEMS: Record<ImageProblem | 'unreadable', MessageKey> = {
  empty: 'admin.blogs.imageErrors.empty',
  tooLarge: 'admin.blogs.imageErrors.tooLarge',
  notImage: 'admin.blogs.imageErrors.notImage',
  unreadable: 'admin.blogs.imageErrors.notImage',
};
/** Wider inline images are scaled down to this; covers are cut to 1200 × 630. */
const INLINE_MAX_WIDTH = 1200;
/** Refuses decompression bombs: a small file that would decode to a huge bitmap. */
const MAX_INPUT_PIXELS = 40_000_000;

const refused = (problem: ImageProblem | 'unreadable') =>
  invalid('invalid_image', PROBLEMS[problem], { image: PROBLEMS[problem] });

/**
 * An uploaded blog image, judged by its bytes (PNG, JPEG or WebP, like course covers), decoded,
 * turned upright, stripped of its metadata (camera, location) and stored as WebP in the widths
 * `srcset` offers. Named by content: the same image uploaded twice is one set of files.
 */
export async function storeBlogImage(bytes: Uint8Array, kind: BlogImageKind): Promise<Result<StoredBlogImage>> {
  const checked = checkCoverImage(bytes);
  if (!checked.ok) return refused(checked.problem);
  let source: Sharp;
  let width: number;
  let height: number;
  try {
    source = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).rotate();
    const meta = await source.metadata();
    const upright = (meta.orientation ?? 1) >= 5;
    width = (upright ? meta.height : meta.width) ?? 0;
    height = (upright ? meta.width : meta.height) ?? 0;
    if (!width || !height) return refused('unreadable');
  } catch {
    return refused('unreadable');
  }
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const folder = kind === 'cover' ? 'covers' : 'images';
  const largest = kind === 'cover' ? { width: COVER_WIDTH, height: COVER_HEIGHT } : scaled(width, height, INLINE_MAX_WIDTH);
  try {
    for (const size of storedWidths(largest.width)) {
      const variant = kind === 'cover' ? scaled(COVER_WIDTH, COVER_HEIGHT, size) : scaled(width, height, size);
      const data = await source
        .clone()
        .resize(variant.width, variant.height, { fit: 'cover', position: 'attention' })
        .webp({ quality: 80 })
        .toBuffer();
      const name = size === largest.width ? `${hash}-${largest.width}x${largest.height}` : `${hash}-${size}`;
      await putFile('public', `blog/${folder}/${name}.webp`, data);
    }
  } catch {
    return refused('unreadable');
  }
  return ok({ url: publicUrl(`blog/${folder}/${hash}-${largest.width}x${largest.height}.webp`), ...largest });
}

/** `width` × `height` scaled to at most `maxWidth` wide, keeping its shape. */
function scaled(width: number, height: number, maxWidth: number): { width: number; height: number } {
  if (width <= maxWidth) return { width, height };
  return { width: maxWidth, height: Math.max(1, Math.round((height * maxWidth) / width)) };
}
