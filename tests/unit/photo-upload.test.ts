/**
 * Issue 30 "Real hands, real phones", the pure part of the photo fix: the one resize target each
 * screen hands to src/islands/photo.ts, what the health island sends when the browser could not
 * resize a photo, and the server's clean copy of a JPEG keeping the EXIF Orientation alone (a
 * phone photo posted without JavaScript is still shown upright; its GPS is still dropped).
 */
import { describe, expect, it } from 'vitest';
import { CARD_PHOTO, fitWithin } from '../../src/lib/form/image';
import { HEALTH_MAX_BYTES, HEALTH_PHOTO, checkHealthUpload, healthUploadOf } from '../../src/lib/seat/health';
import { cleanImage, exifOrientation, orientationSegment } from '../../src/lib/util/image-clean';
import { bytes, contains, GPS_LATITUDE_BYTES, JPEG_1X1, phoneExifSegment, phoneJpeg } from './image-fixtures';

/** The latitude rationals as a little-endian EXIF stores them. */
const GPS_LATITUDE_LE = new Uint8Array([48, 1, 51, 1, 296, 10].flatMap((n) => [n & 0xff, (n >> 8) & 0xff, 0, 0]));

describe('resize targets (spec §5: the card 750 px JPEG 0.8; the health upload 1200 px JPEG 0.85)', () => {
  it('a 4000 × 3000 phone photo, upright as portrait, fits 563 × 750 for the card and 900 × 1200 for the health upload', () => {
    expect(CARD_PHOTO).toEqual({ max: 750, quality: 0.8 });
    expect(HEALTH_PHOTO).toEqual({ max: 1200, quality: 0.85 });
    expect(fitWithin(3000, 4000, CARD_PHOTO.max)).toEqual({ width: 563, height: 750 });
    expect(fitWithin(3000, 4000, HEALTH_PHOTO.max)).toEqual({ width: 900, height: 1200 });
  });
});

describe('healthUploadOf: what the health island sends', () => {
  const resized = { size: 240_000, name: 'resized' };
  it('the resized photo whenever there is one', () => {
    expect(healthUploadOf(resized, { size: 11_500_000, name: 'picked' })).toEqual({
      ok: true,
      file: resized,
      resized: true,
    });
  });

  it('the picked file when the browser could not resize it and the server could take it (≤ 5 MB)', () => {
    const picked = { size: HEALTH_MAX_BYTES, name: 'picked' };
    expect(healthUploadOf(null, picked)).toEqual({ ok: true, file: picked, resized: false });
    expect(healthUploadOf({ size: 0, name: 'empty' }, picked)).toEqual({ ok: true, file: picked, resized: false });
  });

  it('nothing, and health.tooLarge at once, for an 11.5 MB photo the browser could not resize', () => {
    expect(healthUploadOf(null, { size: 11_500_000 })).toEqual({ ok: false, key: 'health.tooLarge' });
    expect(healthUploadOf(null, { size: HEALTH_MAX_BYTES + 1 })).toEqual({ ok: false, key: 'health.tooLarge' });
  });
});

describe('the server keeps a phone photo upright, and nothing else of its EXIF', () => {
  it.each(['MM', 'II'] as const)('reads the Orientation of an EXIF block (%s byte order)', (order) => {
    for (const o of [1, 3, 6, 8]) {
      const seg = phoneExifSegment(o, order);
      expect(exifOrientation(seg, 0, seg.length)).toBe(o);
    }
  });

  it('reads 1 from what is not an EXIF Orientation: XMP, a broken TIFF, an orientation out of range, a cut IFD', () => {
    const xmp = bytes([0xff, 0xe1, 0, 40], 'http://ns.adobe.com/xap/1.0/\0', new Uint8Array(10));
    expect(exifOrientation(xmp, 0, xmp.length)).toBe(1);
    const bad = phoneExifSegment(6);
    bad[10] = 0x58; // 'XM': no byte order
    expect(exifOrientation(bad, 0, bad.length)).toBe(1);
    const nine = phoneExifSegment(9);
    expect(exifOrientation(nine, 0, nine.length)).toBe(1);
    const cut = phoneExifSegment(6);
    expect(exifOrientation(cut, 0, 30)).toBe(1);
  });

  it.each(['MM', 'II'] as const)(
    'a phone JPEG with Orientation 6, Make and GPS (%s) is stored with a new EXIF of the orientation alone',
    (order) => {
      const dirty = phoneJpeg(phoneExifSegment(6, order));
      expect(contains(dirty, 'PhoneCo')).toBe(true);
      const r = cleanImage(dirty);
      expect(r).toMatchObject({ ok: true, type: 'image/jpeg', width: 1, height: 1 });
      if (!r.ok) return;
      expect(r.bytes).toEqual(bytes(JPEG_1X1.subarray(0, 2), orientationSegment(6), JPEG_1X1.subarray(20)));
      expect(exifOrientation(r.bytes, 2, 2 + 36)).toBe(6);
      expect(contains(r.bytes, 'PhoneCo')).toBe(false);
      expect(contains(r.bytes, GPS_LATITUDE_BYTES)).toBe(false);
      expect(contains(r.bytes, GPS_LATITUDE_LE)).toBe(false);
    },
  );

  it('an upright photo (Orientation 1) keeps no EXIF at all; a second EXIF block never adds another', () => {
    const upright = cleanImage(phoneJpeg(phoneExifSegment(1)));
    expect(upright).toMatchObject({ ok: true, bytes: bytes(JPEG_1X1.subarray(0, 2), JPEG_1X1.subarray(20)) });
    const two = cleanImage(phoneJpeg(bytes(phoneExifSegment(6), phoneExifSegment(3))));
    expect(two).toMatchObject({
      ok: true,
      bytes: bytes(JPEG_1X1.subarray(0, 2), orientationSegment(6), JPEG_1X1.subarray(20)),
    });
  });

  it('the health upload stores it so (checkHealthUpload hands back the oriented clean copy)', () => {
    const r = checkHealthUpload({ kind: '1', bytes: phoneJpeg(phoneExifSegment(6, 'II')) });
    expect(r).toMatchObject({ ok: true, type: 'image/jpeg' });
    if (!r.ok) return;
    expect(contains(r.bytes, orientationSegment(6))).toBe(true);
    expect(contains(r.bytes, GPS_LATITUDE_LE)).toBe(false);
  });
});
