import { Hono } from 'hono';
import { setCookie } from 'hono/cookie';
import { LANG_COOKIE, LANG_COOKIE_MAX_AGE_S, isLang } from '../../src/lib/languages';
import { pickBackPath } from '../../src/lib/safe-redirect';
import type { AppEnv } from '../env';

/**
 * POST /api/lang: sets the `_h5_lang` cookie for 60 days (spec §1) and answers 303 back to
 * the page it came from: a same-origin `back` field, else a same-origin Referer, else home.
 * A plain form post, so it works without JavaScript.
 */
export const lang = new Hono<{ Bindings: AppEnv }>().post('/', async (c) => {
  const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
  const value = body['lang'];
  const url = new URL(c.req.url);
  const back = pickBackPath([typeof body['back'] === 'string' ? body['back'] : null, c.req.header('referer')], url.origin);
  if (!isLang(value)) {
    return c.json({ error: 'lang must be one of zh, en, thai, vn, id, tw, ms' }, 400);
  }
  setCookie(c, LANG_COOKIE, value, {
    path: '/',
    maxAge: LANG_COOKIE_MAX_AGE_S,
    sameSite: 'Lax',
    secure: url.protocol === 'https:',
  });
  return c.redirect(back, 303);
});
