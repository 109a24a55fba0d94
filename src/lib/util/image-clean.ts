/**
 * An uploaded JPEG or PNG, read whole and written again without what a photo should not carry
 * (item 4: health uploads were checked by their first bytes only, so EXIF GPS was
 * kept, an HTML polyglot and a 30,000 × 30,000 PNG were accepted).
 *
 * - The size comes from the file's own header (JPEG SOFn, PNG IHDR); more than
 *   {@link IMAGE_MAX_SIDE} px a side or {@link IMAGE_MAX_PIXELS} pixels is refused before
 *   anything decodes it (a decompression bomb costs the viewer's memory, not ours).
 * - JPEG: every segment is walked by its length; APPn (EXIF with its GPS, XMP, ICC, Photoshop…)
 *   and COM are dropped, except a plain JFIF APP0 (no thumbnail) and Adobe's APP14 colour flags;
 *   the scans are copied; nothing after EOI is kept (a scan that runs to the end of the file, as
 *   some encoders leave it, is closed with EOI). One number of the EXIF is kept (issue 30): its
 *   Orientation, 2–8, written in a new EXIF block of its own ({@link orientationSegment}), so a
 *   phone photo posted as it is (the form without JavaScript) is still shown upright; nothing
 *   of the original block is copied.
 * - PNG: every chunk is walked by its length and its CRC checked; only the critical chunks (IHDR,
 *   PLTE, IDAT, IEND) and the colour and size ones judged harmless ({@link PNG_KEPT}) are kept;
 *   text (tEXt, zTXt, iTXt), eXIf, iCCP, tIME and the rest are dropped; nothing after IEND.
 * - Anything that does not parse whole (a length past the end, a bad CRC, a missing header,
 *   IDAT or scan, an unknown critical chunk) is refused.
 *
 * Pure (no Node or DOM API): it runs on workerd and in node tests alike. No npm library did
 * this without Node APIs or a full decode (see README's dependency table).
 */
import { concatBytes, crc32 } from './bytes';

/** Longest side accepted, in pixels (a phone photo is about 4,000; the browser resizes to 1,200). */
export const IMAGE_MAX_SIDE = 8_000;
/** Most pixels accepted (40 megapixels: about 160 MB once decoded as RGBA). */
export const IMAGE_MAX_PIXELS = 40_000_000;

/** Why a file is refused, as a catalogue key. */
export type ImageRefusal = 'health.tooManyPixels' | 'health.badImage';

export type CleanImage =
  | { ok: true; type: 'image/jpeg' | 'image/png'; bytes: Uint8Array<ArrayBuffer>; width: number; height: number }
  | { ok: false; key: ImageRefusal };

const BAD: CleanImage = { ok: false, key: 'health.badImage' };

/**
 * Reads a JPEG or PNG whole and writes it again without metadata; refuses oversized or broken files.
 * @example cleanImage(jpegWithExifGps) // { ok: true, type: 'image/jpeg', bytes: (no APP1), width, height }
 */
export function cleanImage(bytes: Uint8Array): CleanImage {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return cleanJpeg(bytes);
  if (bytes.length >= 8 && PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return cleanPng(bytes);
  return BAD;
}

/** Whether a size is within the limits (both sides at least 1). */
export function sizeAllowed(width: number, height: number): boolean {
  return (
    width >= 1 &&
    height >= 1 &&
    width <= IMAGE_MAX_SIDE &&
    height <= IMAGE_MAX_SIDE &&
    width * height <= IMAGE_MAX_PIXELS
  );
}

function sized(type: 'image/jpeg' | 'image/png', parts: Uint8Array[], width: number, height: number): CleanImage {
  if (!sizeAllowed(width, height)) return { ok: false, key: 'health.tooManyPixels' };
  return { ok: true, type, bytes: concatBytes(parts), width, height };
}

const u16 = (b: Uint8Array, at: number): number => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
const u32 = (b: Uint8Array, at: number): number =>
  (((b[at] ?? 0) << 24) | ((b[at + 1] ?? 0) << 16) | ((b[at + 2] ?? 0) << 8) | (b[at + 3] ?? 0)) >>> 0;
const ascii = (b: Uint8Array, at: number, n: number): string => String.fromCharCode(...b.subarray(at, at + n));

// ---- JPEG (ITU-T T.81 Annex B) ----

/** EOI, made when needed (a top-level `new` would ship in every island that shares a chunk with this module). */
const eoi = (): Uint8Array => new Uint8Array([0xff, 0xd9]);
/** SOFn markers: C0–CF except DHT (C4), JPG (C8) and DAC (CC). */
const isSof = (m: number): boolean => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

/** APPn segments kept (`len` is the segment's length field): a plain JFIF APP0 (16, no thumbnail) and Adobe's APP14 colour-transform flags (14). */
function keptApp(b: Uint8Array, marker: number, at: number, len: number): boolean {
  if (marker === 0xe0) return len === 16 && ascii(b, at + 4, 5) === 'JFIF\0' && b[at + 16] === 0 && b[at + 17] === 0;
  if (marker === 0xee) return len === 14 && ascii(b, at + 4, 5) === 'Adobe';
  return false;
}

/**
 * The Orientation (tag 0x0112) of an EXIF APP1 segment's IFD0, 1–8; 1 (as stored) when the
 * segment is not EXIF, has none, or does not parse. `at` is the segment's FF E1, `end` its end.
 * @example exifOrientation(app1, 0, app1.length) // 6: turn 90° clockwise to view
 */
export function exifOrientation(b: Uint8Array, at: number, end: number): number {
  const tiff = at + 10; // FF E1, the length, 'Exif\0\0'
  if (end - tiff < 8 || ascii(b, at + 4, 6) !== 'Exif\0\0') return 1;
  const order = ascii(b, tiff, 2);
  if (order !== 'II' && order !== 'MM') return 1;
  const little = order === 'II';
  const r16 = (o: number) => (little ? (b[o] ?? 0) | ((b[o + 1] ?? 0) << 8) : u16(b, o));
  const r32 = (o: number) => (little ? (((b[o + 3] ?? 0) << 24) | ((b[o + 2] ?? 0) << 16) | ((b[o + 1] ?? 0) << 8) | (b[o] ?? 0)) >>> 0 : u32(b, o));
  if (r16(tiff + 2) !== 42) return 1;
  const ifd = tiff + r32(tiff + 4);
  if (ifd + 2 > end) return 1;
  const count = r16(ifd);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > end) return 1;
    // SHORT (3), one value, in the entry itself
    if (r16(entry) === 0x0112) {
      const value = r16(entry + 8);
      return r16(entry + 2) === 3 && r32(entry + 4) === 1 && value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
}

/** An EXIF APP1 segment that holds the Orientation alone (big-endian TIFF, IFD0 of one entry). */
export function orientationSegment(orientation: number): Uint8Array<ArrayBuffer> {
  // 'Exif\0\0' (6) + TIFF header (8) + entry count (2) + one entry (12) + next IFD (4) = 32; with the length field, 34
  // prettier-ignore
  return new Uint8Array([
    0xff, 0xe1, 0x00, 0x22,
    0x45, 0x78, 0x69, 0x66, 0x00, 0x00,
    0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x08,
    0x00, 0x01,
    0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, orientation & 0xff, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00,
  ]);
}

function cleanJpeg(b: Uint8Array): CleanImage {
  const parts: Uint8Array[] = [b.subarray(0, 2)];
  let at = 2;
  let width = 0;
  let height = 0;
  let scans = 0;
  let oriented = false;
  for (;;) {
    if (at >= b.length) return BAD; // no EOI after the last segment
    if (b[at] !== 0xff) return BAD;
    while (b[at] === 0xff) at++; // fill bytes before a marker
    const marker = b[at++] ?? 0;
    if (marker === 0xd9) {
      if (scans === 0) return BAD;
      parts.push(eoi()); // what follows EOI (a polyglot's HTML, a zip) is dropped
      return sized('image/jpeg', parts, width, height);
    }
    if (marker === 0x00 || marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) return BAD; // not a segment here
    const len = u16(b, at);
    const start = at - 2;
    if (len < 2 || at + len > b.length) return BAD;
    const end = at + len;
    if (isSof(marker)) {
      if (len < 8 || width !== 0) return BAD;
      height = u16(b, at + 3);
      width = u16(b, at + 5);
      if (width === 0 || height === 0) return BAD;
    }
    const metadata = (marker >= 0xe0 && marker <= 0xef) || marker === 0xfe;
    if (!metadata || keptApp(b, marker, start, len)) parts.push(b.subarray(start, end));
    else if (marker === 0xe1 && !oriented) {
      // the EXIF's orientation alone, in a block of its own, where the EXIF was (the first one counts)
      const orientation = exifOrientation(b, start, end);
      if (orientation !== 1) parts.push(orientationSegment(orientation));
      oriented = ascii(b, start + 4, 6) === 'Exif\0\0';
    }
    at = end;
    if (marker === 0xda) {
      if (width === 0) return BAD; // a scan before the frame header
      scans++;
      // The entropy-coded data: up to the next marker that is not a stuffed 0xFF00 or an RSTn.
      const data = at;
      for (;;) {
        if (at >= b.length) {
          // The file ends inside the scan, as some encoders leave it: close it with EOI.
          parts.push(b.subarray(data, at), eoi());
          return sized('image/jpeg', parts, width, height);
        }
        if (b[at] === 0xff) {
          const next = b[at + 1];
          if (next === 0x00 || (next !== undefined && next >= 0xd0 && next <= 0xd7)) {
            at += 2;
            continue;
          }
          if (next === 0xff) {
            at++;
            continue;
          }
          if (next === undefined) return BAD;
          break;
        }
        at++;
      }
      parts.push(b.subarray(data, at));
    }
  }
}

// ---- PNG (ISO/IEC 15948, W3C PNG 3rd edition) ----

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;
/**
 * The chunks kept: the critical ones, and the colour and size chunks that change how the
 * pixels look but carry no free text (gamma, chromaticities, sRGB intent, transparency,
 * significant bits, background, physical pixel size).
 */
export const PNG_KEPT: ReadonlySet<string> = new Set([
  'IHDR',
  'PLTE',
  'IDAT',
  'IEND',
  'tRNS',
  'gAMA',
  'cHRM',
  'sRGB',
  'sBIT',
  'bKGD',
  'pHYs',
]);

function cleanPng(b: Uint8Array): CleanImage {
  const parts: Uint8Array[] = [b.subarray(0, 8)];
  let at = 8;
  let width = 0;
  let height = 0;
  let idat = false;
  for (let first = true; ; first = false) {
    if (at + 12 > b.length) return BAD; // no IEND
    const len = u32(b, at);
    if (len > b.length - at - 12) return BAD;
    const type = ascii(b, at + 4, 4);
    if (!/^[A-Za-z]{4}$/.test(type)) return BAD;
    const end = at + 12 + len;
    if (crc32(b.subarray(at + 4, at + 8 + len)) !== u32(b, at + 8 + len)) return BAD;
    if (first !== (type === 'IHDR')) return BAD; // IHDR first, and only first
    if (type === 'IHDR') {
      if (len !== 13) return BAD;
      width = u32(b, at + 8);
      height = u32(b, at + 12);
      if (width === 0 || height === 0) return BAD;
      // Refused here, before the rest is even read: the header says what a decoder would allocate.
      if (!sizeAllowed(width, height)) return { ok: false, key: 'health.tooManyPixels' };
    }
    if (type === 'IDAT') idat = true;
    const critical = type.charCodeAt(0) < 0x61; // upper-case first letter (PNG §5.4)
    if (critical && !PNG_KEPT.has(type)) return BAD; // a critical chunk we cannot judge
    if (PNG_KEPT.has(type)) parts.push(b.subarray(at, end));
    at = end;
    if (type === 'IEND') return idat ? sized('image/png', parts, width, height) : BAD; // nothing after IEND is kept
  }
}
