import { describe, expect, it } from 'vitest';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { inflateSync } from 'node:zlib';
import { crc32 } from '../../src/lib/util/bytes';
import { qrMatrix, qrPng, QR_PNG_MIN_PIXELS } from '../../src/lib/util/qr-png';

describe('qrPng (issue 13: the QR code as an image to save)', () => {
  it.each(['IWHBZIMYEOZETLFI', 'AB12CD34', 'a-much-longer-registration-code-0123456789'])('decodes back to %s with pngjs + jsQR', async (text) => {
    const bytes = await qrPng(text);
    const png = PNG.sync.read(Buffer.from(bytes));
    expect(png.width).toBe(png.height);
    expect(png.width).toBeGreaterThanOrEqual(QR_PNG_MIN_PIXELS);
    expect(jsQR(Uint8ClampedArray.from(png.data), png.width, png.height)?.data).toBe(text);
  });

  it('draws every module as a whole square of pixels, black on white, quiet zone white', async () => {
    const text = 'AB12CD34';
    const { size, dark } = qrMatrix(text);
    const png = PNG.sync.read(Buffer.from(await qrPng(text)));
    const scale = png.width / size;
    expect(Number.isInteger(scale)).toBe(true);
    const wrong: string[] = [];
    for (let y = 0; y < png.height; y++) {
      for (let x = 0; x < png.width; x++) {
        const want = dark[Math.floor(y / scale)]?.[Math.floor(x / scale)] ? 0 : 255;
        if (png.data[(y * png.width + x) * 4] !== want && wrong.length < 5) wrong.push(`${x},${y}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('is a 1-bit greyscale PNG whose IDAT is zlib (RFC 1950) and whose chunks carry valid CRCs', async () => {
    const bytes = await qrPng('IWHBZIMYEOZETLFI');
    expect(Array.from(bytes.subarray(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const types: string[] = [];
    let at = 8;
    while (at < bytes.length) {
      const len = view.getUint32(at);
      const type = new TextDecoder().decode(bytes.subarray(at + 4, at + 8));
      types.push(type);
      expect(view.getUint32(at + 8 + len), `${type} CRC`).toBe(crc32(bytes.subarray(at + 4, at + 8 + len)));
      if (type === 'IHDR') expect([bytes[at + 16], bytes[at + 17]]).toEqual([1, 0]);
      if (type === 'IDAT') expect(inflateSync(bytes.subarray(at + 8, at + 8 + len)).length).toBeGreaterThan(0);
      at += 12 + len;
    }
    expect(types).toEqual(['IHDR', 'IDAT', 'IEND']);
  });

  it('stays small: the page with its QR image fits the 20 KB budget', async () => {
    expect((await qrPng('a-much-longer-registration-code-0123456789')).length).toBeLessThan(4000);
  });

  it('crc32 matches the known check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new TextEncoder().encode('IEND'))).toBe(0xae426082);
  });
});
