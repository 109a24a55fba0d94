import { Hono } from 'hono';
import type { AppEnv } from './env';
import { MESSAGES } from '../src/i18n';
import { htmlLang, LANGS } from '../src/lib/core/languages';
import { swScript, type SwTexts } from '../src/lib/page/sw-script';

/** The offline list's words (catalogue namespace `offlineLink`) in every language, and each language's HTML `lang`. */
export function swTexts(): SwTexts {
  const words = Object.fromEntries(
    LANGS.map((lang) => {
      const m = MESSAGES[lang];
      return [
        lang,
        {
          title: m['offlineLink.title'],
          intro: m['offlineLink.intro'],
          credential: m['offlineLink.credential'],
          ticket: m['offlineLink.ticket'],
          updated: m['offlineLink.updated'],
          retry: m['offlineLink.retry'],
        },
      ];
    }),
  );
  return { words, htmlLangs: Object.fromEntries(LANGS.map((lang) => [lang, htmlLang(lang)])) };
}

/** The worker's script (src/lib/page/sw-script.ts) with the catalogues' words. */
export const SW_SCRIPT = swScript(swTexts());

/**
 * `GET /sw.js` ("Offline"): the service worker that keeps visited credential and paid e-ticket
 * pages for a visit without a network, and lists them on the expo's shared link offline. Served by the Worker rather than from public/ so that its own
 * headers are ours: a worker runs under its script's CSP, and the static files' CSP
 * (`default-src 'none'`, public/_headers) would block the worker's own fetches; here
 * `connect-src 'self'` lets it fetch this site and nothing else. `no-cache`: the browser checks
 * for a new worker on each registration (it does anyway within 24 h).
 */
export const serviceWorker = new Hono<{ Bindings: AppEnv }>();

export const SW_CSP = "default-src 'none'; connect-src 'self'";

serviceWorker.get('/sw.js', function serviceWorkerScript(c) {
  return c.body(SW_SCRIPT, 200, {
    'content-type': 'text/javascript; charset=utf-8',
    'cache-control': 'no-cache',
    'content-security-policy': SW_CSP,
  });
});
