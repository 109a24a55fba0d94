import { describe, expect, it } from 'vitest';
import jsQR from 'jsqr';
import { qrPath } from '../../src/lib/util/qr';

/** Rasterises the path (only the M x y h n v1 H x z runs qrPath writes) at `scale` px per module. */
function rasterise(text: string, scale = 4): { data: Uint8ClampedArray; width: number } {
  const { size, d } = qrPath(text);
  const width = size * scale;
  const data = new Uint8ClampedArray(width * width * 4).fill(255);
  for (const m of d.matchAll(/M(\d+) (\d+)h(\d+)v1H\d+z/g)) {
    const [x, y, len] = [Number(m[1]), Number(m[2]), Number(m[3])];
    for (let py = y * scale; py < (y + 1) * scale; py++) {
      for (let px = x * scale; px < (x + len) * scale; px++) {
        const i = (py * width + px) * 4;
        data[i] = data[i + 1] = data[i + 2] = 0;
      }
    }
  }
  return { data, width };
}

describe('qrPath', () => {
  it.each(['AB12CD34', 'K7QW3ZP9M2XR', 'a-much-longer-registration-code-0123456789'])('decodes back to %s', (text) => {
    const { data, width } = rasterise(text);
    expect(jsQR(data, width, width)?.data).toBe(text);
  });

  it('keeps a 4-module quiet zone', () => {
    const { size, d } = qrPath('AB12CD34');
    for (const m of d.matchAll(/M(\d+) (\d+)h(\d+)/g)) {
      const [x, y, len] = [Number(m[1]), Number(m[2]), Number(m[3])];
      expect(x).toBeGreaterThanOrEqual(4);
      expect(y).toBeGreaterThanOrEqual(4);
      expect(x + len).toBeLessThanOrEqual(size - 4);
    }
  });
});
