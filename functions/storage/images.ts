import sharp from 'sharp';
import { checkCoverImage, type ImageProblem } from './sniff.ts';

/** Refuses decompression bombs: a small file that would decode to a huge bitmap. */
export const MAX_INPUT_PIXELS = 40_000_000;

export type UploadedImageProblem = ImageProblem | 'unreadable' | 'tooManyPixels';

export interface ImageSize {
  width: number;
  height: number;
}

export interface EncodedImage extends ImageSize {
  data: Buffer;
}

const refused = (problem: UploadedImageProblem) => ({ ok: false as const, problem });

/**
 * An uploaded image made safe to serve, for blog images and course covers alike: judged by its bytes
 * (PNG, JPEG or WebP), refused before decoding when it would decode to more than MAX_INPUT_PIXELS,
 * decoded, turned upright, stripped of its metadata (camera, location) and encoded anew as WebP in
 * each of the sizes `sizes` asks for given its upright size (cut to a size's shape where it differs).
 */
export async function reencodeImage(
  bytes: Uint8Array,
  sizes: (upright: ImageSize) => ImageSize[],
): Promise<{ ok: true; images: EncodedImage[] } | { ok: false; problem: UploadedImageProblem }> {
  const checked = checkCoverImage(bytes);
  if (!checked.ok) return checked;
  let upright: ImageSize;
  try {
    // The header alone: nothing is decoded until the size is known to be safe.
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (!meta.width || !meta.height) return refused('unreadable');
    if (meta.width * meta.height > MAX_INPUT_PIXELS) return refused('tooManyPixels');
    const turned = (meta.orientation ?? 1) >= 5;
    upright = turned ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height };
  } catch {
    return refused('unreadable');
  }
  try {
    const source = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).rotate();
    const images: EncodedImage[] = [];
    for (const size of sizes(upright)) {
      const data = await source
        .clone()
        .resize(size.width, size.height, { fit: 'cover', position: 'attention' })
        .webp({ quality: 80 })
        .toBuffer();
      images.push({ ...size, data });
    }
    return { ok: true, images };
  } catch {
    return refused('unreadable');
  }
}

/** `size` scaled to at most `maxWidth` wide, keeping its shape. */
export function scaledToWidth({ width, height }: ImageSize, maxWidth: number): ImageSize {
  if (width <= maxWidth) return { width, height };
  return { width: maxWidth, height: Math.max(1, Math.round((height * maxWidth) / width)) };
}
