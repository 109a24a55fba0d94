import { defineMiddleware } from 'astro:middleware';
import { createT } from './i18n';
import { LANG_COOKIE, resolveLang } from './lib/languages';

/**
 * Language middleware (spec §1, DESIGN.md "Language"): the `_h5_lang` cookie picks one of the
 * seven languages (unknown or missing → zh); `lang` and `t` are placed on locals for pages.
 */
export const onRequest = defineMiddleware(function language(context, next) {
  const lang = resolveLang(context.cookies.get(LANG_COOKIE)?.value);
  context.locals.lang = lang;
  context.locals.t = createT(lang);
  return next();
});
