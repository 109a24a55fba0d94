/**
 * A phone photo made at run time for the browser specs (issue 30 "Real hands, real phones"):
 * 4,000 × 3,000 px of noise (so it stays about 11 MB as a JPEG, like a real phone photo, and
 * must be resized before any upload limit), a red block in its stored top-left corner, and the
 * EXIF a phone writes: Orientation 6 (turn 90° clockwise to view) and a GPS position. Nothing is
 * committed: Chromium encodes the pixels (a canvas JPEG), the EXIF APP1 is built here by hand.
 *
 * And the checks on what left the page: {@link jpegInfo} walks a JPEG's segments (its size from
 * SOF, its APPn names, whether any EXIF or GPS bytes remain); {@link regionColours} decodes it in
 * the browser and averages the colour of each corner, to see where the red block went.
 */
import type { Browser, Page } from '@playwright/test';

/** The stored (coded) size, as a phone's sensor writes it, before its orientation is applied. */
export const PHOTO_CODED = { width: 4000, height: 3000 } as const;

/** A photo's stored size and JPEG quality. */
export interface PhotoSize {
  width: number;
  height: number;
  quality: number;
}
/** EXIF Orientation 6: the stored image is turned 90° clockwise to be viewed (portrait, 3000 × 4000). */
export const PHOTO_ORIENTATION = 6;
/** The GPS latitude the EXIF carries: 48°51'29.6" N, as three rationals (what must not survive). */
const LATITUDE_RATIONALS = [48, 1, 51, 1, 296, 10];

const be16 = (n: number) => [(n >> 8) & 0xff, n & 0xff];
const be32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];

/** The GPS latitude's bytes as the APP1 stores them (big-endian). */
export const GPS_LATITUDE_BYTES = Buffer.from(LATITUDE_RATIONALS.flatMap(be32));

/**
 * An EXIF APP1 segment (big-endian TIFF, as many phones write it): IFD0 with Make, Orientation
 * and a pointer to a GPS IFD holding a latitude.
 */
export function exifSegment(orientation = PHOTO_ORIENTATION): Buffer {
  const make = Buffer.from('PhoneCo\0', 'latin1'); // 8 bytes: stored outside the entry
  // TIFF header (8) · IFD0 at 8: 3 entries (2 + 36 + 4 = 42) → Make at 50 (8) → GPS IFD at 58:
  // 2 entries (2 + 24 + 4 = 30) → latitude at 88 (24).
  const ifd0 = [
    ...be16(3),
    ...[...be16(0x010f), ...be16(2), ...be32(make.length), ...be32(50)], // Make, ASCII
    ...[...be16(0x0112), ...be16(3), ...be32(1), ...be16(orientation), 0, 0], // Orientation, SHORT
    ...[...be16(0x8825), ...be16(4), ...be32(1), ...be32(58)], // GPS IFD pointer, LONG
    ...be32(0),
  ];
  const gps = [
    ...be16(2),
    ...[...be16(0x0001), ...be16(2), ...be32(2), 0x4e, 0, 0, 0], // GPSLatitudeRef 'N'
    ...[...be16(0x0002), ...be16(5), ...be32(3), ...be32(88)], // GPSLatitude, 3 RATIONAL
    ...be32(0),
  ];
  const tiff = Buffer.concat([
    Buffer.from([0x4d, 0x4d, 0, 42, ...be32(8), ...ifd0]),
    make,
    Buffer.from(gps),
    GPS_LATITUDE_BYTES,
  ]);
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  return Buffer.concat([Buffer.from([0xff, 0xe1, ...be16(body.length + 2)]), body]);
}

/**
 * The phone photo: Chromium draws the noise and the red block (a quarter of each side, stored
 * top-left) and encodes it as JPEG (4000 × 3000 at 0.95 by default: about 11 MB) in a blank
 * page of its own (no site, no CSP involved); its JFIF APP0 is replaced by the EXIF APP1, where
 * a phone camera puts it.
 */
export async function phonePhoto(
  browser: Browser,
  size: PhotoSize = { ...PHOTO_CODED, quality: 0.95 },
): Promise<Buffer> {
  const page = await browser.newPage({ javaScriptEnabled: true }); // the project's own setting may be off
  try {
    const base64 = await page.evaluate(async ({ width, height, quality }) => {
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const ctx = canvas.getContext('2d');
      if (!ctx) throw new Error('no 2d context');
      const img = ctx.createImageData(width, height);
      const d = img.data;
      let s = 0x2545f491;
      const next = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 24;
      for (let i = 0; i < d.length; i += 4) {
        d[i] = next();
        d[i + 1] = next();
        d[i + 2] = (d[i] ?? 0) ^ 0x55;
        d[i + 3] = 255;
      }
      ctx.putImageData(img, 0, 0);
      ctx.fillStyle = '#ff0000';
      ctx.fillRect(0, 0, width / 4, height / 4);
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
      if (!blob) throw new Error('no JPEG');
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let bin = '';
      for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(bin);
    }, size);
    const jpeg = Buffer.from(base64, 'base64');
    // SOI, then a JFIF APP0 (FF E0, its length): dropped for the EXIF APP1.
    if (jpeg[2] !== 0xff || jpeg[3] !== 0xe0) throw new Error('Chromium JPEG without a JFIF APP0');
    const afterApp0 = 4 + jpeg.readUInt16BE(4);
    return Buffer.concat([jpeg.subarray(0, 2), exifSegment(), jpeg.subarray(afterApp0)]);
  } finally {
    await page.close();
  }
}

export interface JpegInfo {
  width: number;
  height: number;
  /** every APPn segment: its marker (0xE0–0xEF) and the name it starts with ('Exif', 'JFIF', …) */
  apps: { marker: number; name: string }[];
  /** an APP1 EXIF segment is present */
  exif: boolean;
}

/** Walks a JPEG's segments up to its first scan; throws when it is not a JPEG. */
export function jpegInfo(b: Buffer): JpegInfo {
  if (b[0] !== 0xff || b[1] !== 0xd8) throw new Error('not a JPEG');
  const info: JpegInfo = { width: 0, height: 0, apps: [], exif: false };
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) throw new Error(`no marker at ${at}`);
    const marker = b[at + 1] ?? 0;
    const len = b.readUInt16BE(at + 2);
    if (marker >= 0xe0 && marker <= 0xef) {
      const name =
        b
          .subarray(at + 4, Math.min(at + 2 + len, at + 12))
          .toString('latin1')
          .split('\0')[0] ?? '';
      info.apps.push({ marker, name });
      if (marker === 0xe1 && name === 'Exif') info.exif = true;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      info.height = b.readUInt16BE(at + 5);
      info.width = b.readUInt16BE(at + 7);
    }
    if (marker === 0xda) break;
    at += 2 + len;
  }
  return info;
}

/** The mean colour of each corner of an image (an eighth of each side), as the browser decodes it. */
export interface Quarters {
  width: number;
  height: number;
  topLeft: [number, number, number];
  topRight: [number, number, number];
  bottomLeft: [number, number, number];
  bottomRight: [number, number, number];
}

/** Decodes a JPEG in `page` (no URL: createImageBitmap of its bytes) and averages each corner's colour. */
export async function regionColours(page: Page, jpeg: Buffer): Promise<Quarters> {
  return page.evaluate(async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/jpeg' }));
    const { width, height } = bitmap;
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2d context');
    ctx.drawImage(bitmap, 0, 0);
    // A corner's eighth of each side, inset a little: inside the red block (a quarter of each side) wherever it went.
    const w = Math.floor(width / 8);
    const h = Math.floor(height / 8);
    const mean = (right: boolean, bottom: boolean): [number, number, number] => {
      const x = right ? width - w - 4 : 4;
      const y = bottom ? height - h - 4 : 4;
      const d = ctx.getImageData(x, y, w, h).data;
      const sum = [0, 0, 0];
      for (let i = 0; i < d.length; i += 4) for (let c = 0; c < 3; c++) sum[c] = (sum[c] ?? 0) + (d[i + c] ?? 0);
      const n = d.length / 4;
      return [Math.round((sum[0] ?? 0) / n), Math.round((sum[1] ?? 0) / n), Math.round((sum[2] ?? 0) / n)];
    };
    return {
      width,
      height,
      topLeft: mean(false, false),
      topRight: mean(true, false),
      bottomLeft: mean(false, true),
      bottomRight: mean(true, true),
    };
  }, jpeg.toString('base64'));
}
