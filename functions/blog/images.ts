import { createHash } from 'node:crypto';
import { putFile, publicUrl } from '../storage/storage.ts';
import { reencodeImage, scaledToWidth, type UploadedImageProblem } from '../storage/images.ts';
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

const PROBLEMS: Record<UploadedImageProblem, MessageKey> = {
  empty: 'admin.blogs.imageErrors.empty',
  tooLarge: 'admin.blogs.imageErrors.tooLarge',
  notImage: 'admin.blogs.imageErrors.notImage',
  unreadable: 'admin.blogs.imageErrors.notImage',
  tooManyPixels: 'admin.blogs.imageErrors.tooManyPixels',
};
/** Wider inline images are scaled down to this; covers are cut to 1200 × 630. */
const INLINE_MAX_WIDTH = 1200;
const COVER = { width: COVER_WIDTH, height: COVER_HEIGHT };

const refused = (problem: UploadedImageProblem) => invalid('invalid_image', PROBLEMS[problem], { image: PROBLEMS[problem] });

/**
 * An uploaded blog image, made safe to serve (storage/images.ts: judged by its bytes, decoded within a
 * pixel limit, upright, stripped of its metadata) and stored as WebP in the widths `srcset` offers.
 * Named by content: the same image uploaded twice is one set of files.
 */
export async function storeBlogImage(bytes: Uint8Array, kind: BlogImageKind): Promise<Result<StoredBlogImage>> {
  const encoded = await reencodeImage(bytes, (upright) => {
    const shape = kind === 'cover' ? COVER : upright;
    const largest = scaledToWidth(shape, kind === 'cover' ? COVER_WIDTH : INLINE_MAX_WIDTH);
    return storedWidths(largest.width).map((width) => scaledToWidth(shape, width));
  });
  if (!encoded.ok) return refused(encoded.problem);
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const folder = kind === 'cover' ? 'covers' : 'images';
  const largest = encoded.images.at(-1)!;
  for (const image of encoded.images) {
    const name = image === largest ? `${hash}-${largest.width}x${largest.height}` : `${hash}-${image.width}`;
    await putFile('public', `blog/${folder}/${name}.webp`, image.data);
  }
  return ok({
    url: publicUrl(`blog/${folder}/${hash}-${largest.width}x${largest.height}.webp`),
    width: largest.width,
    height: largest.height,
  });
}
