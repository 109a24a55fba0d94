import { Hono, type Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { encodeFlash, FLASH_COOKIE, FLASH_MAX_AGE_S } from '../../src/lib/page/flash';
import { CLEAR_SITE_DATA, FORGET_COOKIES, forgetTarget } from '../../src/lib/security/forget';
import { htmlLang } from '../../src/lib/page/languages';
import { pickBackPath } from '../../src/lib/util/safe-redirect';
import type { AppEnv } from '../env';
import { readInput } from './input';

/**
 * POST /api/forget ("forget this device"): a shared or borrowed phone drops what
 * it holds of its visitor. Every cookie of ours is expired (src/lib/security/forget.ts: the verified
 * contact, the last contact a code went to, the resend time, flash, pledge, the form drafts of
 * the expo the visitor was on, the openid; not the language), and `Clear-Site-Data: "cache",
 * "storage"` has the browser drop this origin's HTTP cache and storage (the service worker's
 * offline copies and its registration, the lookup island's session keys). With JavaScript the
 * service worker also empties its caches when it sees this post (src/lib/page/sw-script.ts).
 *
 * A plain form post (works without JavaScript): `back` names the page it came from; the answer
 * is 303 to that expo's lookup, which says it is done, in the page's language. From a page of no
 * expo, a small page says so. JSON callers get `{code: 200, msg, data: {location}}`. Like every
 * post, it is refused from another site (403, nothing cleared) and its body is bounded.
 * GET and HEAD answer 405 with `Allow: POST`: forgetting is never a link a crawler or a
 * prefetch could follow.
 */
export const forget = new Hono<{ Bindings: AppEnv }>();

type Ctx = Context<{ Bindings: AppEnv }>;

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);

forget.post('/forget', async (c) => {
  const input = await readInput(c);
  const url = new URL(c.req.url);
  const secure = url.protocol === 'https:';
  const back = pickBackPath([input.fields['back'] ?? null, c.req.header('referer')], url.origin);
  const target = forgetTarget(back);
  const lands = target.lookup !== null && !input.json;
  for (const cookie of FORGET_COOKIES) {
    // The done message rides in a fresh flash cookie instead (set below).
    if (cookie.name === FLASH_COOKIE && lands) continue;
    deleteCookie(c, cookie.name, { path: cookie.path, secure });
  }
  for (const draft of target.drafts) deleteCookie(c, draft.name, { path: draft.path, secure });
  c.header('clear-site-data', CLEAR_SITE_DATA);
  c.header('cache-control', 'no-store');
  const done = input.t('forget.done');
  if (input.json) return c.json({ code: 200, msg: done, data: { location: target.lookup ?? '/' } });
  if (target.lookup !== null) {
    setCookie(c, FLASH_COOKIE, encodeFlash({ path: target.lookup, values: {}, notice: { tone: 'info', key: 'forget.done', vars: {}, text: null } }), {
      path: '/',
      maxAge: FLASH_MAX_AGE_S,
      httpOnly: true,
      sameSite: 'Lax',
      secure,
    });
    return c.redirect(target.lookup, 303);
  }
  const html = `<!doctype html>
<html lang="${htmlLang(input.lang)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(input.t('forget.button'))}</title></head>
<body><main><p role="status">${escapeHtml(done)}</p><p><a href="/">${escapeHtml(input.t('notFound.home'))}</a></p></main></body>
</html>
`;
  return c.html(html, 200);
});

forget.get('/forget', (c: Ctx) => c.text('Forget this device: POST a form to this address.', 405, { allow: 'POST', 'cache-control': 'no-store' }));
