import type { Sharp } from 'sharp';
import { loadSharp } from '#server/lib/lazy-packages.ts';

export const photoSizes = { main: 720, thumb: 240 } as const;
const blurSigma = 28;

export type ProcessedPhoto = {
  main: Buffer;
  thumb: Buffer;
  blurred: Buffer;
  blurredThumb: Buffer;
  width: number;
  height: number;
};

export class UnsupportedImageError extends Error {
  override name = 'UnsupportedImageError';
}

/**
 * Decodes and re-encodes an image: orientation applied, metadata (EXIF, GPS, ICC) dropped,
 * a main size and a thumbnail as WebP, and blurred copies made here so a viewer who may not
 * see the photo never receives the original.
 */
export async function processPhoto(input: Buffer): Promise<ProcessedPhoto> {
  try {
    return await encode(input);
  } catch (error) {
    // Whatever libvips refuses (not an image, truncated or corrupt data, too many pixels) is the
    // upload's fault, found while decoding: the header may read fine and the pixels fail later.
    if (error instanceof UnsupportedImageError) throw error;
    throw new UnsupportedImageError(error instanceof Error ? error.message : 'unreadable image');
  }
}

async function encode(input: Buffer): Promise<ProcessedPhoto> {
  const sharp = await loadSharp();
  const base: Sharp = sharp(input, { failOn: 'error', limitInputPixels: 50_000_000 }).rotate();
  const metadata = await base.metadata();
  if (!metadata.width || !metadata.height) throw new UnsupportedImageError('no dimensions');
  const main = await base
    .clone()
    .resize(photoSizes.main, photoSizes.main, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 80 })
    .toBuffer({ resolveWithObject: true });
  const thumb = await base
    .clone()
    .resize(photoSizes.thumb, photoSizes.thumb, { fit: 'cover' })
    .webp({ quality: 75 })
    .toBuffer();
  // Blur from the small versions: cheaper, and no detail survives to be recovered.
  const blurred = await sharp(main.data).blur(blurSigma).webp({ quality: 50 }).toBuffer();
  const blurredThumb = await sharp(thumb)
    .blur(blurSigma / 2)
    .webp({ quality: 50 })
    .toBuffer();
  return {
    main: main.data,
    thumb,
    blurred,
    blurredThumb,
    width: main.info.width,
    height: main.info.height,
  };
}
