import { describe, expect, it } from 'vitest';
import { checkHealthUpload, HEALTH_MAX_BYTES, imageTypeOf, parseHealthKind } from '../../src/lib/seat/health';
import { JPEG_1X1 } from './image-fixtures';

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2]);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]);

describe('health upload rules', () => {
  it('knows JPEG and PNG by their bytes only', () => {
    expect(imageTypeOf(JPEG)).toBe('image/jpeg');
    expect(imageTypeOf(PNG)).toBe('image/png');
    expect(imageTypeOf(new TextEncoder().encode('<svg xmlns="…"/>'))).toBeNull();
    expect(imageTypeOf(new Uint8Array([0xff, 0xd8]))).toBeNull();
  });

  it('takes kinds 1 to 3', () => {
    expect([' 1', '2', 3, '4', '', '1.0', null].map(parseHealthKind)).toEqual([1, 2, 3, null, null, null, null]);
  });

  it('refuses no kind, no file, over 5 MB, not an image', () => {
    // A real JPEG (issue 19 item 4: the whole file is read, not only its first bytes).
    expect(checkHealthUpload({ kind: '1', bytes: JPEG_1X1 })).toEqual({ ok: true, kind: 1, type: 'image/jpeg', bytes: JPEG_1X1 });
    expect(checkHealthUpload({ kind: '', bytes: JPEG })).toEqual({ ok: false, key: 'health.kindRequired' });
    expect(checkHealthUpload({ kind: '1', bytes: null })).toEqual({ ok: false, key: 'health.fileRequired' });
    const big = new Uint8Array(HEALTH_MAX_BYTES + 1);
    big.set(JPEG);
    expect(checkHealthUpload({ kind: '1', bytes: big })).toEqual({ ok: false, key: 'health.tooLarge' });
    expect(checkHealthUpload({ kind: '3', bytes: new Uint8Array([1, 2, 3]) })).toEqual({ ok: false, key: 'health.notImage' });
  });
});
