/**
 * The language switch (spec §1): sets the `_h5_lang` cookie for 60 days and goes back to the
 * page it came from (a same-origin `back` field, else a same-origin Referer, else home). A
 * value that is not a language is a request no page of ours makes.
 */
import { z } from 'zod';
import { isLang, LANG_COOKIE, LANG_COOKIE_MAX_AGE_S } from '../core/languages';
import { pickBackPath } from '../util/safe-redirect';
import { defineAction, type ActionOutcome } from './outcome';

const Input = z.object({ lang: z.string().default(''), back: z.string().default('') });

export const lang = defineAction({
  path: '/api/lang',
  bodyLimit: 4 * 1024,
  input: Input,
  back: (fields, ctx) => pickBackPath([fields['back'] ?? null, ctx.referer], ctx.origin),
  async run(input, _ports: null, ctx): Promise<ActionOutcome> {
    if (!isLang(input.lang)) return { kind: 'broken', message: ctx.t('api.badLanguage') };
    return {
      kind: 'navigate',
      location: pickBackPath([input.back, ctx.referer], ctx.origin),
      // Not HttpOnly: the language names no one.
      cookies: [{ name: LANG_COOKIE, value: input.lang, maxAge: LANG_COOKIE_MAX_AGE_S, script: true }],
    };
  },
});
