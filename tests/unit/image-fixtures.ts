/**
 * Real image files made in the test (issue 19 item 4), with no Node API so the workerd tests
 * use them too: a 1×1 JPEG, the same with an EXIF GPS block, a comment and HTML after EOI, and
 * PNGs with any IHDR size, text chunks and trailing bytes.
 */

const enc = new TextEncoder();

export function bytes(...parts: (Uint8Array | number[] | string)[]): Uint8Array<ArrayBuffer> {
  const arrays = parts.map((p) =>
    typeof p === 'string' ? enc.encode(p) : p instanceof Uint8Array ? p : new Uint8Array(p),
  );
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

const be16 = (n: number) => [(n >> 8) & 0xff, n & 0xff];
const be32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];

/** Whether `needle` occurs in `hay`. */
export function contains(hay: Uint8Array, needle: Uint8Array | string): boolean {
  const n = typeof needle === 'string' ? enc.encode(needle) : needle;
  outer: for (let i = 0; i + n.length <= hay.length; i++) {
    for (let j = 0; j < n.length; j++) if (hay[i + j] !== n[j]) continue outer;
    return true;
  }
  return false;
}

// ---- JPEG ----

const b64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
/**
 * A 1×1 progressive JPEG (SOI, JFIF APP0, DQT, SOF2, DHT, SOS and its scan), without EOI, as
 * tests/e2e/seats.spec.ts uploads it.
 */
export const JPEG_NO_EOI = b64(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
);
/** The same 1×1 JPEG, closed with EOI: what a clean JPEG of it is. */
export const JPEG_1X1 = bytes(JPEG_NO_EOI, [0xff, 0xd9]);
/** Where the JFIF APP0 ends (SOI 2 + APP0 18): the metadata goes in after it. */
const AFTER_APP0 = 20;

/** The GPS position the EXIF block carries: 48°51'29.6" N (as rationals). */
const LATITUDE = [...be32(48), ...be32(1), ...be32(51), ...be32(1), ...be32(296), ...be32(10)];

/** An APP1 EXIF segment (big-endian TIFF) whose IFD0 points at a GPS IFD with a latitude. */
export function exifGpsSegment(): Uint8Array<ArrayBuffer> {
  // TIFF: header (8), IFD0 at 8: 1 entry (2 + 12 + 4 = 18) → GPS IFD at 26: 2 entries (2 + 24 + 4 = 30) → latitude at 56.
  const tiff = bytes(
    'MM',
    [0, 42],
    be32(8),
    be16(1),
    [...be16(0x8825), ...be16(4), ...be32(1), ...be32(26)],
    be32(0),
    be16(2),
    [...be16(0x0001), ...be16(2), ...be32(2), 0x4e, 0, 0, 0],
    [...be16(0x0002), ...be16(5), ...be32(3), ...be32(56)],
    be32(0),
    LATITUDE,
  );
  const body = bytes('Exif', [0, 0], tiff);
  return bytes([0xff, 0xe1], be16(body.length + 2), body);
}

const le16 = (n: number) => [n & 0xff, (n >> 8) & 0xff];
const le32 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff];

/**
 * A phone's EXIF APP1 (issue 30): IFD0 with Make ('PhoneCo'), Orientation and a pointer to a
 * GPS IFD with the latitude; big-endian ('MM') or little-endian ('II', as many phones write it).
 */
export function phoneExifSegment(orientation: number, order: 'MM' | 'II' = 'MM'): Uint8Array<ArrayBuffer> {
  const w16 = order === 'MM' ? be16 : le16;
  const w32 = order === 'MM' ? be32 : le32;
  const rationals = [48, 1, 51, 1, 296, 10].flatMap(w32);
  // TIFF header (8) · IFD0 at 8: 3 entries (2 + 36 + 4 = 42) → Make at 50 (8) → GPS IFD at 58: 2 entries (30) → latitude at 88.
  const tiff = bytes(
    order,
    w16(42),
    w32(8),
    w16(3),
    [...w16(0x010f), ...w16(2), ...w32(8), ...w32(50)],
    [...w16(0x0112), ...w16(3), ...w32(1), ...w16(orientation), 0, 0],
    [...w16(0x8825), ...w16(4), ...w32(1), ...w32(58)],
    w32(0),
    'PhoneCo\0',
    w16(2),
    [...w16(0x0001), ...w16(2), ...w32(2), 0x4e, 0, 0, 0],
    [...w16(0x0002), ...w16(5), ...w32(3), ...w32(88)],
    w32(0),
    rationals,
  );
  const body = bytes('Exif', [0, 0], tiff);
  return bytes([0xff, 0xe1], be16(body.length + 2), body);
}

/** The 1×1 JPEG as a phone writes it: SOI, its EXIF (no JFIF APP0), the image. */
export function phoneJpeg(exif: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes(JPEG_1X1.subarray(0, 2), exif, JPEG_1X1.subarray(AFTER_APP0));
}

/** A COM segment. */
export const comSegment = (text: string) => {
  const body = enc.encode(text);
  return bytes([0xff, 0xfe], be16(body.length + 2), body);
};

/** The 1×1 JPEG with an EXIF GPS block, an XMP-like APP1, a comment, and HTML after EOI. */
export function jpegWithGpsAndHtml(): Uint8Array<ArrayBuffer> {
  return bytes(
    JPEG_1X1.subarray(0, AFTER_APP0),
    exifGpsSegment(),
    comSegment('<html><script>alert(document.cookie)</script></html>'),
    JPEG_1X1.subarray(AFTER_APP0),
    '<html><body><script>alert(1)</script></body></html>',
  );
}

/** The GPS latitude's bytes (what must not survive). */
export const GPS_LATITUDE_BYTES = new Uint8Array(LATITUDE);

/** A JPEG whose SOF says `width`×`height` (the rest as the 1×1 one; refused before any decode). */
export function jpegSized(width: number, height: number): Uint8Array<ArrayBuffer> {
  const out = bytes(JPEG_1X1);
  // SOF2 follows DQT: find FF C2, then height at +5, width at +7.
  for (let i = 0; i + 8 < out.length; i++) {
    if (out[i] === 0xff && out[i + 1] === 0xc2) {
      out.set(be16(height), i + 5);
      out.set(be16(width), i + 7);
      return out;
    }
  }
  throw new Error('no SOF2');
}

// ---- PNG ----

let table: number[] | undefined;
function crc32(data: Uint8Array): number {
  table ??= Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let c = 0xffffffff;
  for (const b of data) c = (table[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** One PNG chunk, with its real CRC. */
export function chunk(type: string, data: Uint8Array | number[] | string = new Uint8Array()): Uint8Array<ArrayBuffer> {
  const body = bytes(type, typeof data === 'string' ? enc.encode(data) : data);
  return bytes(be32(body.length - 4), body, be32(crc32(body)));
}

/** zlib of `raw` in one stored (uncompressed) deflate block, with its Adler-32. */
function zlibStored(raw: Uint8Array): Uint8Array<ArrayBuffer> {
  let a = 1;
  let b = 0;
  for (const x of raw) {
    a = (a + x) % 65521;
    b = (b + a) % 65521;
  }
  const len = raw.length;
  return bytes(
    [0x78, 0x01, 0x01, len & 0xff, len >> 8, ~len & 0xff, (~len >> 8) & 0xff],
    raw,
    be32(((b << 16) | a) >>> 0),
  );
}

export const PNG_SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** IHDR of an 8-bit RGB image. */
export const ihdr = (width: number, height: number) => chunk('IHDR', [...be32(width), ...be32(height), 8, 2, 0, 0, 0]);

/** A real 2×2 RGB PNG's IDAT (red, green / blue, white). */
export const IDAT_2X2 = chunk(
  'IDAT',
  zlibStored(new Uint8Array([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255])),
);

/** A 2×2 PNG: signature, IHDR, `middle` chunks, IDAT, IEND, then `trailing`. */
export function png2x2(middle: Uint8Array[] = [], trailing: Uint8Array | string = ''): Uint8Array<ArrayBuffer> {
  return bytes(PNG_SIGNATURE, ihdr(2, 2), ...middle, IDAT_2X2, chunk('IEND'), trailing);
}

/** A PNG whose IHDR says `width`×`height` (its IDAT is the 2×2 one: refused before any decode). */
export function pngSized(width: number, height: number): Uint8Array<ArrayBuffer> {
  return bytes(PNG_SIGNATURE, ihdr(width, height), IDAT_2X2, chunk('IEND'));
}
