/**
 * `GET /api/share-signature?url=`: the messaging app's JS-SDK signature of one of this site's
 * pages (spec §4 "Type admin triggers a share-signature fetch", §7 ajaxData), for the share
 * card script (src/scripts/wx-share.ts). It answers `{ code: 200, data: { appId, timestamp,
 * nonceStr, signature } }`: what `wx.config` needs, nothing else (the organiser's ticket never
 * leaves the organiser's API).
 *
 * - `url` must be a page of this site (the request's own origin), without a #fragment, at most
 *   2048 characters, on an expo's page (its expo id goes in the upstream's header): 400 otherwise.
 * - A request a browser marks as another site's (`Sec-Fetch-Site: cross-site`, or an `Origin`
 *   of another site) is refused (403): another site must not sign with the organiser's app.
 * - Counted per client address (LIMIT_SHARE_SIGNATURES_PER_IP_MIN): 429 with Retry-After.
 * - An expo without an app id, or one the organiser's expo check (`/wx/checkExpo`, the encoded
 *   expo id) does not confirm: 404.
 */
import { Hono, type Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AppEnv } from '../env';
import { upstreamFor } from '../upstream';
import { checkShareLimits } from '../limits';
import { faultJson, upstreamFault } from './fault';
import { createT } from '../../src/i18n';
import { LANG_COOKIE, resolveLang } from '../../src/lib/core/languages';
import { pageInfo } from '../../src/lib/page/guard';
import { SHARE_URL_MAX, shareableUrl, type ShareSignatureReply } from '../../src/lib/page/wx-share';
import { encodeId } from '../../src/lib/util/ids';

type Ctx = Context<{ Bindings: AppEnv }>;

/** The whole query a signature request may carry (the url, encoded, and room for nothing else). */
const QUERY_MAX = SHARE_URL_MAX * 3 + 16;

type Reply = { code: number; msg: string | null; data: ShareSignatureReply | null };

/** Whether the browser says the request comes from another site. */
function crossSite(c: Ctx): boolean {
  if (c.req.header('sec-fetch-site') === 'cross-site') return true;
  const origin = c.req.header('origin');
  return origin !== undefined && origin !== '' && origin !== new URL(c.req.url).origin;
}

export const share = new Hono<{ Bindings: AppEnv }>();

share.get('/share-signature', async function shareSignature(c) {
  const t = createT(resolveLang(getCookie(c, LANG_COOKIE)));
  c.header('cache-control', 'no-store');
  const bad = () => c.json<Reply>({ code: 400, msg: t('share.badUrl'), data: null }, 400);
  if (crossSite(c)) return c.json<Reply>({ code: 403, msg: t('share.badUrl'), data: null }, 403);
  const self = new URL(c.req.url);
  if (self.search.length > QUERY_MAX) return bad();
  const url = shareableUrl(c.req.query('url') ?? '', self.origin);
  const expoId = url ? pageInfo(url).expoId : null;
  if (!url || expoId === null) return bad();

  const refusal = await checkShareLimits(c);
  if (refusal) {
    if (refusal.retryAfterS !== null) c.header('retry-after', String(refusal.retryAfterS));
    return c.json<Reply>({ code: 600, msg: t(refusal.key, refusal.vars), data: null }, refusal.status);
  }
  try {
    const up = upstreamFor(c.env);
    const appId = await up.wxAppId(expoId);
    if (appId === null) return c.json<Reply>({ code: 404, msg: t('share.unavailable'), data: null }, 404);
    // spec §7 "expo check with encoded expoId": the organiser confirms the expo the page's
    // encoded id names before anything is signed for it.
    if (!(await up.checkExpo({ expoId, eId: encodeId(expoId) }))) return c.json<Reply>({ code: 404, msg: t('share.unavailable'), data: null }, 404);
    const r = await up.ajaxData({ expoId, url: url.href, userId: '' });
    if (!r.ok) return c.json<Reply>({ code: 404, msg: t('share.unavailable'), data: null }, 404);
    return c.json<Reply>({ code: 200, msg: null, data: { appId, ...r.data } });
  } catch (e) {
    return faultJson(c, upstreamFault(e, t, self.pathname));
  }
});
