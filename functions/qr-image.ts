import { Hono } from 'hono';
import type { AppEnv } from './env';
import { credentialLookupFor } from './credential-lookup';
import { requestUpstream } from './upstream';
import { waitUntilOf } from './wait-until';
import { admits } from '../src/lib/expo/view';
import { matchQrImagePath } from '../src/lib/core/routes';
import { qrPng } from '../src/lib/util/qr-png';
import { QR_IMAGE_MAX_ENTRIES } from '../src/lib/credential/view-cache';
import { BoundedMemo, perIsolate } from './upstream/memo';

/**
 * `GET /qr/{urlId}/{euCode}/{expoId}/{fId}.png[?save=1]`: the credential's QR code
 * as a PNG, drawn from the URL alone (src/lib/util/qr-png.ts): the bytes are a pure function of
 * the URL. It is answered only for a registration that admits its holder (src/lib/expo/view.ts
 * admits): the registration is read as the credential page reads it (functions/credential-lookup.ts:
 * the unknown-code cache and the per-address miss limit), and an unknown, void or awaiting-review
 * code is a 404 (spec §2.5: until the organiser approves there is no admission QR), 429 past the
 * miss limit, 503 when the upstream cannot say. Cached
 * `private` (a registration code is personal; shared caches keep out) for one day, not a year
 * (item 3: a shared phone should not keep it past the visit; the service worker keeps
 * its own copy only while the credential page's offline copy lives, src/lib/page/sw-script.ts, and
 * "forget this device" drops both), and `noindex`. The QR stays public for whoever holds the link,
 * like the code it encodes (README "Who may read or change a registration"). `?save=1` answers the same bytes as an attachment named after the code (the
 * page's "save image" link). Anything else under /qr is a plain 404. HEAD is answered by Hono
 * from the GET handler without a body.
 */
export const qrImage = new Hono<{ Bindings: AppEnv }>();

export const QR_CACHE_CONTROL = 'private, max-age=86400';

/**
 * The drawn images of this isolate, by code (issue 24): the PNG is a pure function of the code,
 * so it is drawn once per isolate, not per view; bounded, the least recently drawn dropped first.
 * Only the drawn bytes are kept, never the drawing's promise (it reads a CompressionStream of the
 * request that started it, which another request must not await); every request still reads the
 * registration (shared for a few seconds) to decide whether it admits.
 */
const qrImages = perIsolate(() => new BoundedMemo<Uint8Array>(QR_IMAGE_MAX_ENTRIES));

/** The code's QR image, drawn at most once per isolate while it stays among the recent ones (views at the same moment each draw). */
export async function qrImageOf(euCode: string, memo: BoundedMemo<Uint8Array> = qrImages()): Promise<Uint8Array> {
  const kept = memo.get(euCode);
  if (kept) return kept;
  const drawn = await qrPng(euCode);
  memo.set(euCode, drawn);
  return drawn;
}

qrImage.get('/*', async function qrImageFile(c) {
  const params = matchQrImagePath(new URL(c.req.url).pathname);
  const save = c.req.query('save');
  if (!params || (save !== undefined && save !== '1')) return c.text('Not found', 404);
  const waitUntil = waitUntilOf(c);
  const read = await credentialLookupFor(c.env, c.req.raw, requestUpstream(c.env, c.req.raw, { waitUntil }), waitUntil)({
    expoId: params.expoId,
    euCode: params.euCode,
  });
  const noStore = { 'cache-control': 'private, no-store' };
  if (read.kind === 'limited') {
    return c.text('Too many unknown credential links: try again later.', 429, { ...noStore, 'retry-after': String(read.retryAfterS) });
  }
  if (read.kind === 'failed') return c.text('The registration could not be read: try again.', 503, noStore);
  if (read.kind !== 'found' || !admits(read.record)) return c.text('Not found', 404, noStore);
  const png = await qrImageOf(params.euCode);
  const headers: Record<string, string> = {
    'content-type': 'image/png',
    'cache-control': QR_CACHE_CONTROL,
    'x-robots-tag': 'noindex',
  };
  if (save === '1') headers['content-disposition'] = `attachment; filename="${params.euCode}.png"`;
  return c.body(png as Uint8Array<ArrayBuffer>, 200, headers);
});
