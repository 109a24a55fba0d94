/**
 * Business-card photo rules (spec §5 "Camera upload"): images only; resized in the browser to
 * at most 750×750 (aspect kept), JPEG quality 0.8 (canvas), before the upload.
 */
export const CARD_MAX_PX = 750;
export const CARD_JPEG_QUALITY = 0.8;

/**
 * How a screen resizes a picked photo before it is uploaded (src/islands/photo.ts, the one
 * helper of the camera and the health upload): upright, within `max` × `max`, JPEG at `quality`.
 */
export interface PhotoTarget {
  max: number;
  quality: number;
}

/** The business card's (spec §5): 750 px, JPEG 0.8. */
export const CARD_PHOTO: PhotoTarget = { max: CARD_MAX_PX, quality: CARD_JPEG_QUALITY };

/** Whether a picked file may be sent: an image type (spec §5: else the home.camera message). */
export function isImageType(type: string | null | undefined): boolean {
  return /^image\/[a-z0-9.+-]+$/i.test(type ?? '');
}

/**
 * The size to draw at: within max×max, aspect kept, never enlarged, at least 1 px.
 * @example fitWithin(3000, 2000) // { width: 750, height: 500 }
 */
export function fitWithin(width: number, height: number, max = CARD_MAX_PX): { width: number; height: number } {
  if (!(width > 0) || !(height > 0)) return { width: 1, height: 1 };
  const scale = Math.min(1, max / width, max / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** The base64 part of a `data:image/jpeg;base64,...` URL, or null. */
export function base64OfDataUrl(url: string): string | null {
  const m = /^data:image\/[a-z0-9.+-]+;base64,([A-Za-z0-9+/]+={0,2})$/i.exec(url);
  return m ? (m[1] ?? null) : null;
}

/** Whether base64 text starts like a JPEG or PNG (what the browser sends): images only at the edge too. */
export function looksLikeImage(base64: string): boolean {
  return base64.startsWith('/9j/') || base64.startsWith('iVBORw0KGgo');
}
