import { Hono } from 'hono';
import { setCookie } from 'hono/cookie';
import { LANG_COOKIE, LANG_COOKIE_MAX_AGE_S, isLang } from '../../src/lib/page/languages';
import { pickBackPath } from '../../src/lib/util/safe-redirect';
import type { AppEnv } from '../env';
import { badRequest } from './bad-request';
import { readInput } from './input';

/**
 * POST /api/lang: sets the `_h5_lang` cookie for 60 days (spec §1) and answers 303 back to
 * the page it came from: a same-origin `back` field, else a same-origin Referer, else home.
 * A plain form post, so it works without JavaScript. A value that is not a language is
 * answered in the visitor's current language: JSON to a JSON caller, a small
 * page with a link back to a browser's form post.
 */
export const lang = new Hono<{ Bindings: AppEnv }>().post('/', async (c) => {
  const input = await readInput(c);
  const value = input.fields['lang'];
  const url = new URL(c.req.url);
  const back = pickBackPath([input.fields['back'] ?? null, c.req.header('referer')], url.origin);
  if (!isLang(value)) return badRequest(c, input, input.t('api.badLanguage'), input.t('app.back'), back);
  setCookie(c, LANG_COOKIE, value, {
    path: '/',
    maxAge: LANG_COOKIE_MAX_AGE_S,
    sameSite: 'Lax',
    secure: url.protocol === 'https:',
  });
  return c.redirect(back, 303);
});
