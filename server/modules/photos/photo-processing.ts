import sharp, { type Sharp } from 'sharp';

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
  let base: Sharp;
  try {
    base = sharp(input, { failOn: 'error', limitInputPixels: 50_000_000 }).rotate();
    const metadata = await base.metadata();
    if (!metadata.width || !metadata.height) throw new UnsupportedImageError('no dimensions');
  } catch (error) {
    if (error instanceof UnsupportedImageError) throw error;
    throw new UnsupportedImageError(error instanceof Error ? error.message : 'unreadable image');
  }
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
