import { Hono } from 'hono';
import type { AppEnv } from './env';
import { matchQrImagePath } from '../src/lib/page/routes';
import { qrPng } from '../src/lib/util/qr-png';

/**
 * `GET /qr/{urlId}/{euCode}/{expoId}/{fId}.png[?save=1]`: the credential's QR code
 * as a PNG, drawn from the URL alone (src/lib/util/qr-png.ts). It carries only what the credential
 * URL carries and asks the upstream nothing, so the bytes are a pure function of the URL. Cached
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

qrImage.get('/*', async function qrImageFile(c) {
  const params = matchQrImagePath(new URL(c.req.url).pathname);
  const save = c.req.query('save');
  if (!params || (save !== undefined && save !== '1')) return c.text('Not found', 404);
  const png = await qrPng(params.euCode);
  const headers: Record<string, string> = {
    'content-type': 'image/png',
    'cache-control': QR_CACHE_CONTROL,
    'x-robots-tag': 'noindex',
  };
  if (save === '1') headers['content-disposition'] = `attachment; filename="${params.euCode}.png"`;
  return c.body(png as Uint8Array<ArrayBuffer>, 200, headers);
});
