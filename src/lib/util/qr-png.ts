/**
 * The credential's QR code as a PNG ("Save the QR to the phone"): in messaging-app
 * in-app browsers a long press saves or recognises an `<img>`, not inline SVG. The matrix is
 * uqr's, the same as src/lib/util/qr.ts draws; the PNG is written here with no dependency: a 1-bit
 * greyscale image, each module an integer square of pixels (crisp when scaled), compressed with
 * the platform's `CompressionStream('deflate')` (zlib format, as PNG's IDAT wants) and framed
 * with CRC-32 chunks. Runs the same on workerd and Node.
 */
import { encode } from 'uqr';
import { BoundedMemo, remembered } from './bounded-memo';
import { concatBytes, crc32 } from './bytes';

/** The smallest side in pixels: 256 CSS px (the widest the page shows it, 16rem) at 3× density. */
export const QR_PNG_MIN_PIXELS = 768;

/** A QR code's modules, quiet zone included, as the page and the image both draw them. */
export interface QrMatrix {
  size: number;
  /** `dark[y][x]` */
  dark: readonly (readonly boolean[])[];
}

/** Error correction M and a 4-module quiet zone, as src/lib/util/qr.ts. */
export function qrMatrix(text: string): QrMatrix {
  const { data, size } = encode(text, { ecc: 'M', border: 4 });
  return { size, dark: data };
}

const sizes = new BoundedMemo<number>(1024);
/**
 * The matrix's side in modules (quiet zone included), remembered per text: the credential page
 * needs only the size for its `<img>` (issue 24: encoding, with its mask scoring, was a
 * millisecond of every view). Bounded to the last 1,024 texts.
 * @example qrSize('XCOE6GON4WB4N6BR') // 29 (version 2, 25 modules, and the quiet zone)
 */
export function qrSize(text: string): number {
  return remembered(sizes, text, () => qrMatrix(text).size);
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

async function deflate(raw: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([raw as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Pixels per module so that the image is at least `minPixels` wide. */
export function qrScale(size: number, minPixels = QR_PNG_MIN_PIXELS): number {
  return Math.max(1, Math.ceil(minPixels / size));
}

/**
 * A QR code for `text` as PNG bytes: black on white, 1 bit per pixel, at least `minPixels` square.
 * @example (await qrPng('AB12CD34')).subarray(1, 4) // 'PNG'
 */
export async function qrPng(text: string, minPixels = QR_PNG_MIN_PIXELS): Promise<Uint8Array> {
  const { size, dark } = qrMatrix(text);
  const scale = qrScale(size, minPixels);
  return monoPng(size * scale, size * scale, (x, y) => dark[Math.floor(y / scale)]?.[Math.floor(x / scale)] === true);
}

/**
 * A black-and-white image as PNG bytes, 1 bit per pixel: `isDark(x, y)` for each pixel. The QR
 * code above and the wallet pass's icon (src/lib/wallet/pass-images.ts) are drawn with it.
 * @example (await monoPng(2, 2, (x, y) => x === y)).subarray(1, 4) // 'PNG'
 */
export async function monoPng(width: number, height: number, isDark: (x: number, y: number) => boolean): Promise<Uint8Array> {
  const rowBytes = Math.ceil(width / 8);
  const raw = new Uint8Array((rowBytes + 1) * height);
  for (let y = 0; y < height; y++) {
    // One pixel row (filter 0, none); 1 = white, 0 = black in greyscale.
    const at = y * (rowBytes + 1) + 1;
    for (let x = 0; x < width; x++) {
      if (!isDark(x, y)) raw[at + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  const ihdr = new Uint8Array(13);
  const h = new DataView(ihdr.buffer);
  h.setUint32(0, width);
  h.setUint32(4, height);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  // compression 0 (deflate), filter 0, interlace 0: already zero
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', await deflate(raw)),
    chunk('IEND', new Uint8Array(0)),
  ];
  return concatBytes(parts);
}
