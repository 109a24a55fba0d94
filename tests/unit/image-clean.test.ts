/**
 * Health uploads read whole and written again (issue 19 item 4), on real files made in the test
 * (tests/unit/image-fixtures.ts): an EXIF GPS block, an HTML polyglot, a 30,000 × 30,000 PNG.
 */
import { describe, expect, it } from 'vitest';
import { cleanImage, IMAGE_MAX_PIXELS, IMAGE_MAX_SIDE, sizeAllowed } from '../../src/lib/util/image-clean';
import { checkHealthUpload } from '../../src/lib/seat/health';
import {
  bytes,
  chunk,
  comSegment,
  contains,
  GPS_LATITUDE_BYTES,
  IDAT_2X2,
  ihdr,
  JPEG_1X1,
  JPEG_NO_EOI,
  jpegSized,
  jpegWithGpsAndHtml,
  PNG_SIGNATURE,
  png2x2,
  pngSized,
} from './image-fixtures';

describe('JPEG', () => {
  it('drops the EXIF GPS block, the comment and the HTML after EOI; keeps every image segment byte for byte', () => {
    const dirty = jpegWithGpsAndHtml();
    expect(contains(dirty, GPS_LATITUDE_BYTES)).toBe(true);
    const r = cleanImage(dirty);
    expect(r).toMatchObject({ ok: true, type: 'image/jpeg', width: 1, height: 1 });
    if (!r.ok) return;
    expect(r.bytes).toEqual(JPEG_1X1);
    for (const gone of ['Exif', '<html', '<script', 'alert']) expect(contains(r.bytes, gone), gone).toBe(false);
    expect(contains(r.bytes, GPS_LATITUDE_BYTES)).toBe(false);
  });

  it('closes a scan that runs to the end of the file with EOI (the 1×1 JPEG of the browser tests)', () => {
    expect(cleanImage(JPEG_NO_EOI)).toMatchObject({ ok: true, bytes: JPEG_1X1 });
    expect(cleanImage(JPEG_1X1)).toMatchObject({ ok: true, bytes: JPEG_1X1 });
  });

  it('keeps a plain JFIF APP0 but drops one that carries a thumbnail', () => {
    const withThumb = bytes(
      JPEG_1X1.subarray(0, 2),
      [0xff, 0xe0, 0, 16 + 3],
      'JFIF',
      [0, 1, 1, 1, 0, 72, 0, 72, 1, 1],
      [1, 2, 3],
      JPEG_1X1.subarray(20),
    );
    const r = cleanImage(withThumb);
    expect(r.ok && contains(r.bytes, 'JFIF')).toBe(false);
  });

  it('refuses a polyglot that only starts like a JPEG, a truncated segment, a scan before the frame, no scan', () => {
    expect(cleanImage(bytes([0xff, 0xd8, 0xff], '<html><script>alert(1)</script></html>'))).toEqual({
      ok: false,
      key: 'health.badImage',
    });
    expect(cleanImage(JPEG_1X1.subarray(0, 30))).toEqual({ ok: false, key: 'health.badImage' });
    expect(
      cleanImage(bytes([0xff, 0xd8], comSegment('x'), [0xff, 0xda, 0, 8, 1, 1, 0, 0, 0x3f, 0], [1, 2, 0xff, 0xd9])),
    ).toEqual({ ok: false, key: 'health.badImage' });
    expect(cleanImage(bytes([0xff, 0xd8], comSegment('x'), [0xff, 0xd9]))).toEqual({
      ok: false,
      key: 'health.badImage',
    });
    // The edge tests' old 14-byte "JPEG": magic and a JFIF label, nothing else.
    expect(
      cleanImage(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9])),
    ).toEqual({ ok: false, key: 'health.badImage' });
  });

  it('refuses a frame over 8,000 px a side or 40 megapixels, read from SOF', () => {
    expect(cleanImage(jpegSized(30_000, 30_000))).toEqual({ ok: false, key: 'health.tooManyPixels' });
    expect(cleanImage(jpegSized(8_001, 10))).toEqual({ ok: false, key: 'health.tooManyPixels' });
    expect(cleanImage(jpegSized(7_000, 7_000))).toEqual({ ok: false, key: 'health.tooManyPixels' });
    expect(cleanImage(jpegSized(8_000, 5_000))).toMatchObject({ ok: true, width: 8_000, height: 5_000 });
  });
});

describe('PNG', () => {
  it('drops tEXt, zTXt, iTXt, eXIf, tIME, iCCP and everything after IEND; keeps the colour chunks', () => {
    const kept = [
      chunk('gAMA', [0, 0, 0xb1, 0x8f]),
      chunk('sRGB', [0]),
      chunk('pHYs', [0, 0, 0x0b, 0x13, 0, 0, 0x0b, 0x13, 1]),
    ];
    const dropped = [
      chunk('tEXt', 'Comment\0<html><script>alert(1)</script></html>'),
      chunk('zTXt', 'Raw\0\0xxxx'),
      chunk('iTXt', 'XML:com.adobe.xmp\0\0\0\0\0<x:xmpmeta>GPS</x:xmpmeta>'),
      chunk('eXIf', 'MM\0*GPS'),
      chunk('tIME', [7, 234, 11, 24, 23, 0, 0]),
      chunk('iCCP', 'icc\0\0profile'),
    ];
    const dirty = png2x2([...kept, ...dropped], '<html><script>alert(2)</script></html>');
    const r = cleanImage(dirty);
    expect(r).toMatchObject({ ok: true, type: 'image/png', width: 2, height: 2 });
    if (!r.ok) return;
    expect(r.bytes).toEqual(png2x2(kept));
    for (const gone of ['tEXt', 'zTXt', 'iTXt', 'eXIf', 'tIME', 'iCCP', '<html', 'GPS', 'alert'])
      expect(contains(r.bytes, gone), gone).toBe(false);
  });

  it('refuses a 30,000 × 30,000 IHDR (and 8,001 a side, 49 megapixels) before reading further', () => {
    expect(cleanImage(pngSized(30_000, 30_000))).toEqual({ ok: false, key: 'health.tooManyPixels' });
    expect(cleanImage(pngSized(1, 8_001))).toEqual({ ok: false, key: 'health.tooManyPixels' });
    expect(cleanImage(pngSized(7_000, 7_000))).toEqual({ ok: false, key: 'health.tooManyPixels' });
    expect(cleanImage(pngSized(0, 10))).toEqual({ ok: false, key: 'health.badImage' });
  });

  it('refuses what does not parse whole: no IEND, a bad CRC, IHDR not first, no IDAT, an unknown critical chunk, a length past the end', () => {
    const good = png2x2();
    const badCrc = bytes(good);
    badCrc[good.length - 13] = (badCrc[good.length - 13] ?? 0) ^ 1; // inside IDAT's data or CRC
    for (const [what, file] of [
      ['no IEND', good.subarray(0, good.length - 12)],
      ['bad CRC', badCrc],
      ['IHDR not first', bytes(PNG_SIGNATURE, chunk('gAMA', [0, 0, 0, 1]), ihdr(2, 2), IDAT_2X2, chunk('IEND'))],
      ['no IDAT', bytes(PNG_SIGNATURE, ihdr(2, 2), chunk('IEND'))],
      ['unknown critical chunk', png2x2([chunk('HTML', '<script>alert(1)</script>')])],
      ['length past the end', bytes(PNG_SIGNATURE, ihdr(2, 2), [0x7f, 0xff, 0xff, 0xff], 'IDAT')],
      ['signature only', PNG_SIGNATURE],
    ] as const)
      expect(cleanImage(file), what).toEqual({ ok: false, key: 'health.badImage' });
  });
});

describe('the limits and the upload check', () => {
  it('8,000 px a side and 40 megapixels', () => {
    expect([IMAGE_MAX_SIDE, IMAGE_MAX_PIXELS]).toEqual([8_000, 40_000_000]);
    expect(sizeAllowed(8_000, 5_000)).toBe(true);
    expect(sizeAllowed(8_000, 5_001)).toBe(false);
    expect(sizeAllowed(0, 1)).toBe(false);
  });

  it('checkHealthUpload hands back the cleaned bytes, and refuses with the catalogue keys', () => {
    expect(checkHealthUpload({ kind: '1', bytes: jpegWithGpsAndHtml() })).toEqual({
      ok: true,
      kind: 1,
      type: 'image/jpeg',
      bytes: JPEG_1X1,
    });
    expect(checkHealthUpload({ kind: '2', bytes: pngSized(30_000, 30_000) })).toEqual({
      ok: false,
      key: 'health.tooManyPixels',
    });
    expect(checkHealthUpload({ kind: '3', bytes: bytes([0xff, 0xd8, 0xff], '<html>') })).toEqual({
      ok: false,
      key: 'health.badImage',
    });
  });
});
