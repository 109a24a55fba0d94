/**
 * The scanner's fallback decoder (src/islands/gate/decode.ts, run in the decoder worker where the
 * browser has no BarcodeDetector), on PNGs of QR codes made by the product's own encoder (uqr,
 * src/lib/util/qr-png.ts, the credential's QR): a headless browser has no camera to point at one.
 */
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { decodeFrame } from '../../src/islands/gate/decode';
import { monoPng, qrMatrix, qrPng } from '../../src/lib/util/qr-png';

/** A PNG's RGBA pixels, as a canvas's getImageData gives them. */
function rgba(png: Uint8Array): { data: Uint8ClampedArray; width: number; height: number } {
  const img = PNG.sync.read(Buffer.from(png));
  return { data: new Uint8ClampedArray(img.data.buffer, img.data.byteOffset, img.data.length), width: img.width, height: img.height };
}

// decoding whole frames takes seconds on a busy 2-core machine
describe('the fallback QR decoder', { timeout: 30_000 }, () => {
  it('reads the bare registration code a credential QR holds', async () => {
    const f = rgba(await qrPng('PF4R5MHUHIPEQBHR', 240));
    expect(decodeFrame(f.data, f.width, f.height)).toBe('PF4R5MHUHIPEQBHR');
  });

  it('reads a credential link too', async () => {
    const link = 'https://expo.example/IEAESuccess/MjEzMDg/UEY0UjVNSFVISVBFUUJIUg/MTMwOA/21308/';
    const f = rgba(await qrPng(link, 300));
    expect(decodeFrame(f.data, f.width, f.height)).toBe(link);
  });

  it('reads a light-on-dark code (a phone in dark mode) off-centre in a larger frame', async () => {
    const m = qrMatrix('AR7OY5Q6XIPMQUBJ');
    const scale = 6;
    const side = m.size * scale; // the quiet zone is in the matrix
    const [ox, oy] = [120, 60];
    const png = await monoPng(640, 480, (x, y) => {
      const inside = x >= ox && y >= oy && x < ox + side && y < oy + side;
      if (!inside) return true; // a dark screen around it
      const dark = m.dark[Math.floor((y - oy) / scale)]?.[Math.floor((x - ox) / scale)] === true;
      return !dark; // light modules on dark
    });
    const f = rgba(png);
    expect(decodeFrame(f.data, f.width, f.height)).toBe('AR7OY5Q6XIPMQUBJ');
  });

  it('reads nothing from a frame without a code, or a frame shorter than it says', () => {
    const blank = new Uint8ClampedArray(320 * 240 * 4).fill(255);
    expect(decodeFrame(blank, 320, 240)).toBeNull();
    expect(decodeFrame(new Uint8ClampedArray(10), 320, 240)).toBeNull();
  });
});
