/**
 * POST /api/health as an attacker (or a careless phone) runs it (issue 19 item 4): a photo
 * with its EXIF GPS position, an HTML polyglot, a PNG whose header says 30,000 × 30,000. The
 * upload used to be judged by its first bytes and stored as posted. Now the image is read
 * whole, refused in the page's language when it is too large or broken (nothing reaches the
 * upstream), and stored as written again without its metadata: what the owner reads back
 * holds no GPS, no text chunk, nothing after the image's end.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../functions/app';
import { CONTACT_COOKIE, signContact } from '../../src/lib/lookup/contact-cookie';
import { encodeId } from '../../src/lib/util/ids';
import { createT } from '../../src/i18n';
import type { HealthReply } from '../../src/lib/actions/replies';
import { BASE, flashOf, spyUpstream, testEnv, SECRET } from './api-lookup.helpers';
import {
  chunk,
  contains,
  GPS_LATITUDE_BYTES,
  JPEG_1X1,
  jpegSized,
  jpegWithGpsAndHtml,
  png2x2,
  pngSized,
} from '../unit/image-fixtures';

const app = createApp();
const EU_CODE = `HEALTHIMG${crypto.randomUUID().replace(/-/g, '').slice(0, 7).toUpperCase()}`;
const credential = `/success/${encodeId(22012)}/${encodeId(EU_CODE)}/${encodeId(2012)}/22012`;
const fields = { expoId: '2012', urlId: '22012', euCode: EU_CODE, kind: '3', back: credential };
let cookie = '';

beforeAll(async () => {
  await testEnv.DB.prepare(
    `INSERT INTO registrations (expo_id, urls_id, eu_code, uname, createtime, email, form_values) VALUES (2012, 22012, ?, '图片测试', '2026-03-01 10:00:00', 'health-images@demo.test', '{}')`,
  )
    .bind(EU_CODE)
    .run();
  cookie = `${CONTACT_COOKIE}=${await signContact({ expoId: 2012, contact: 'health-images@demo.test', checkType: 2, codes: [EU_CODE] }, SECRET)}`;
});

async function upload(file: Uint8Array, o: { lang?: string; form?: boolean; name?: string } = {}): Promise<Response> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('file', new Blob([file as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }), o.name ?? 'photo.jpg');
  const headers: Record<string, string> = { cookie: `${cookie}; _h5_lang=${o.lang ?? 'zh'}` };
  if (!o.form) headers['accept'] = 'application/json';
  return app.request(`${BASE}/api/health`, { method: 'POST', headers, body: form, redirect: 'manual' }, testEnv);
}

/** Uploads, reads back what was stored, deletes it. */
async function storedOf(file: Uint8Array): Promise<{ type: string | null; bytes: Uint8Array }> {
  const up = (await (await upload(file)).json()) as HealthReply;
  expect(up).toMatchObject({ code: 200 });
  const q = `expoId=2012&euCode=${EU_CODE}&id=${up.data?.id}`;
  const img = await app.request(`${BASE}/api/health/image?${q}`, { headers: { cookie } }, testEnv);
  expect(img.status).toBe(200);
  const stored = { type: img.headers.get('content-type'), bytes: new Uint8Array(await img.arrayBuffer()) };
  await app.request(`${BASE}/api/health/item?${q}`, { method: 'DELETE', headers: { cookie } }, testEnv);
  return stored;
}

describe('health uploads are read whole, refused when too large or broken, stored without metadata (issue 19 item 4)', () => {
  it('a phone photo with its EXIF GPS position is stored without it (and without its comment and trailing HTML)', async () => {
    const photo = jpegWithGpsAndHtml();
    expect(contains(photo, GPS_LATITUDE_BYTES)).toBe(true);
    const stored = await storedOf(photo);
    expect(stored.type).toBe('image/jpeg');
    expect(stored.bytes).toEqual(JPEG_1X1);
    for (const gone of ['Exif', '<html', '<script']) expect(contains(stored.bytes, gone), gone).toBe(false);
    expect(contains(stored.bytes, GPS_LATITUDE_BYTES)).toBe(false);
  });

  it('a PNG with a tEXt chunk and HTML after IEND is stored as its image chunks only', async () => {
    const stored = await storedOf(
      png2x2([chunk('tEXt', 'Comment\0<script>alert(1)</script>')], '<html><script>alert(2)</script></html>'),
    );
    expect(stored.type).toBe('image/png');
    expect(stored.bytes).toEqual(png2x2());
    expect(contains(stored.bytes, '<script')).toBe(false);
  });

  it('a 30,000 × 30,000 PNG (and JPEG) is refused in the page language, without an upstream call', async () => {
    const spy = spyUpstream();
    for (const [lang, file] of [
      ['zh', pngSized(30_000, 30_000)],
      ['en', pngSized(30_000, 30_000)],
      ['thai', jpegSized(30_000, 30_000)],
    ] as const) {
      const res = await upload(file, { lang });
      expect(res.status).toBe(400);
      expect(((await res.json()) as HealthReply).msg).toBe(createT(lang)('health.tooManyPixels'));
    }
    expect(spy.paths().filter((p) => p.includes('/health/'))).toEqual([]);
  });

  it('an HTML polyglot that only starts like an image is refused; without JavaScript the page says so', async () => {
    const spy = spyUpstream();
    const polyglot = new Uint8Array([
      0xff,
      0xd8,
      0xff,
      ...new TextEncoder().encode('<html><script>alert(document.cookie)</script></html>'),
    ]);
    const res = await upload(polyglot, { lang: 'en' });
    expect(((await res.json()) as HealthReply).msg).toBe(createT('en')('health.badImage'));
    const plain = await upload(polyglot, { form: true });
    expect(plain.status).toBe(303);
    expect(flashOf(plain, credential)).toMatchObject({ notice: { tone: 'error', key: 'health.badImage' } });
    expect(spy.paths().filter((p) => p.includes('/health/'))).toEqual([]);
  });
});
