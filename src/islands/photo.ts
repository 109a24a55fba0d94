/**
 * A picked photo resized in the browser before it is uploaded: the one helper of the
 * business-card camera (CardCamera, spec §5: 750 px, JPEG 0.8) and the health upload
 * (HealthUpload: 1200 px, JPEG 0.85). Issue 30: both used to draw the photo through a `blob:`
 * URL, which the pages' own CSP (`img-src 'self' data:`) refuses, so a real photo never left
 * the phone. Here the file is decoded without any URL (`createImageBitmap` of the file itself),
 * turned upright as its EXIF orientation says (`imageOrientation: 'from-image'`), drawn within
 * the bound on a canvas and encoded again as JPEG: the new file carries no metadata at all (no
 * EXIF, no GPS). A browser without `createImageBitmap` (Safari before 15) reads the file as a
 * `data:` URL instead, which the CSP allows and whose `<img>` modern engines draw upright too.
 * The CSP is unchanged: no page allows `blob:`.
 */
import { fitWithin, type PhotoTarget } from '../lib/form/image';

/** A decoded photo, upright, and how to let its memory go. */
interface Decoded {
  image: CanvasImageSource;
  width: number;
  height: number;
  close(): void;
}

/** The file as a `data:` URL (the only URL the CSP lets an image have that is not this site's). */
export function dataUrlOf(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () =>
      typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('not a data URL'));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(file);
  });
}

async function bitmapOf(file: Blob): Promise<ImageBitmap> {
  try {
    return await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    // Engines from before the option's rename know only 'none' and 'flipY' and refuse
    // 'from-image'; their default ('none' then) already follows the EXIF orientation.
    return await createImageBitmap(file);
  }
}

async function decode(file: Blob): Promise<Decoded | null> {
  if (typeof createImageBitmap === 'function') {
    try {
      const bitmap = await bitmapOf(file);
      return { image: bitmap, width: bitmap.width, height: bitmap.height, close: () => bitmap.close() };
    } catch {
      // not decodable this way: try the image element below
    }
  }
  try {
    const img = new Image();
    img.src = await dataUrlOf(file);
    await img.decode();
    return { image: img, width: img.naturalWidth, height: img.naturalHeight, close: () => img.removeAttribute('src') };
  } catch {
    return null;
  }
}

/**
 * The photo upright, within `target.max` × `target.max` (aspect kept, never enlarged), as a
 * JPEG at `target.quality`, without any of the original's metadata; null when the browser
 * cannot decode it (not an image, or a format it does not know).
 */
export async function resizePhoto(file: Blob, target: PhotoTarget): Promise<Blob | null> {
  const decoded = await decode(file);
  if (!decoded) return null;
  try {
    const size = fitWithin(decoded.width, decoded.height, target.max);
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const ctx = canvas.getContext('2d');
    if (!ctx) return null;
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(decoded.image, 0, 0, size.width, size.height);
    return await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', target.quality));
  } catch {
    return null;
  } finally {
    decoded.close();
  }
}
