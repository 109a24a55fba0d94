/**
 * The credential's QR image in workerd (issue 13): GET /qr/{credential segments}.png answers a
 * PNG that decodes to the euCode (CompressionStream and all, as the Worker runs it), kept a day
 * and private; ?save=1 is an attachment; HEAD answers the headers without a body;
 * anything that is not a credential's segments is a 404, never a QR of arbitrary text; nor is
 * a registration that does not admit (awaiting review, void) or that the upstream does not know.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import jsQR from 'jsqr';
import { createApp } from '../../functions/app';
import type { AppEnv } from '../../functions/env';
import { qrImagePath } from '../../src/lib/core/routes';

const app = createApp();
const testEnv = env as unknown as AppEnv;
const get = (path: string, init: RequestInit = {}) => app.request(`https://expo.example${path}`, init, testEnv);
/**
 * pngjs's sync reader needs Node's zlib, which workerd lacks: read the 1-bit greyscale PNG here
 * with the runtime's DecompressionStream (filter type 0 rows, as qr-png.ts writes) into RGBA.
 */
async function readPng(bytes: Uint8Array): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let width = 0;
  let height = 0;
  const idat: Uint8Array[] = [];
  while (at < bytes.length) {
    const len = view.getUint32(at);
    const type = new TextDecoder().decode(bytes.subarray(at + 4, at + 8));
    if (type === 'IHDR') {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      expect([bytes[at + 16], bytes[at + 17]], 'bit depth 1, greyscale').toEqual([1, 0]);
    }
    if (type === 'IDAT') idat.push(bytes.slice(at + 8, at + 8 + len));
    at += 12 + len;
  }
  const stream = new Blob(idat as BlobPart[]).stream().pipeThrough(new DecompressionStream('deflate'));
  const raw = new Uint8Array(await new Response(stream).arrayBuffer());
  const rowBytes = Math.ceil(width / 8) + 1;
  expect(raw.length).toBe(rowBytes * height);
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    expect(raw[y * rowBytes]).toBe(0);
    for (let x = 0; x < width; x++) {
      const white = ((raw[y * rowBytes + 1 + (x >> 3)] ?? 0) >> (7 - (x & 7))) & 1;
      data.fill(white ? 255 : 0, (y * width + x) * 4, (y * width + x) * 4 + 3);
      data[(y * width + x) * 4 + 3] = 255;
    }
  }
  return { width, height, data };
}

const params = { urlId: 21308, euCode: 'IWHBZIMYEOZETLFI', expoId: 1308, fId: 21308 };

describe('GET /qr/….png (issue 13: save the QR to the phone)', () => {
  it('answers a PNG of the euCode, private, kept a day (issue 19 item 3: not a year)', async () => {
    const res = await get(qrImagePath(params));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('private, max-age=86400');
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    expect(res.headers.get('content-disposition')).toBeNull();
    const png = await readPng(new Uint8Array(await res.arrayBuffer()));
    expect(png.width).toBeGreaterThanOrEqual(720);
    expect(jsQR(png.data, png.width, png.height)?.data).toBe(params.euCode);
  });

  it('?save=1: the same bytes as an attachment named after the code', async () => {
    const [plain, saved] = await Promise.all([get(qrImagePath(params)), get(qrImagePath(params, { save: true }))]);
    expect(saved.status).toBe(200);
    expect(saved.headers.get('content-disposition')).toBe('attachment; filename="IWHBZIMYEOZETLFI.png"');
    expect(new Uint8Array(await saved.arrayBuffer())).toEqual(new Uint8Array(await plain.arrayBuffer()));
  });

  it('HEAD answers the headers with no body', async () => {
    const res = await get(qrImagePath(params), { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it.each([
    '/qr/MjEzMDg/SVdIQlpJTVlFT1pFVExGSQ/MTMwOA/21308',
    '/qr/MjEzMDg/SVdIQlpJTVlFT1pFVExGSQ/MTMwOA/21308.png?save=yes',
    '/qr/MjEzMDg/PHNjcmlwdD4/MTMwOA/21308.png',
    `/qr/MjEzMDg/${'QUJD'.repeat(40)}/MTMwOA/21308.png`,
    '/qr/MjEzMDg/SVdIQlpJTVlFT1pFVExGSQ/MTMwOA/0.png',
    '/qr/../../etc/passwd.png',
    '/qr/',
  ])('%s: 404, no image', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).not.toBe('image/png');
  });

  it('no QR for a registration awaiting review (spec §2.5), a void one, or a code the upstream does not know', async () => {
    // Seed: 1106's one@demo.test registration awaits review (functions/reference/SEED.md).
    const review = { urlId: 21106, euCode: 'MMN6R4ECDU5ZN4EI', expoId: 1106, fId: 21106 };
    for (const path of [qrImagePath(review), qrImagePath(review, { save: true }), qrImagePath({ ...params, euCode: 'NOSUCHCODE000000' })]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).not.toBe('image/png');
      expect(res.headers.get('cache-control')).toBe('private, no-store');
    }
    // The same expo's approved registration still has its QR.
    expect((await get(qrImagePath({ ...review, euCode: 'MWNLI4F36KF3OLSR' }))).status).toBe(200);
  });

  it('POST is not an image', async () => {
    const res = await get(qrImagePath(params), { method: 'POST' });
    expect(res.status).not.toBe(200);
  });
});
