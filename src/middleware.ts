import { env } from 'cloudflare:workers';
import { challengeConfig, readTicket, TICKET_COOKIE } from './lib/security/friction';
import { defineMiddleware } from 'astro:middleware';
import type { AppEnv } from '../functions/env';
import { requestUpstream } from '../functions/upstream';
import { credentialLookupFor } from '../functions/credential-lookup';
import { createT } from './i18n';
import { CONTACT_COOKIE, openFormWindow, provenFor, verifyContact } from './lib/lookup/contact-cookie';
import { decodeFlash, FLASH_COOKIE } from './lib/page/flash';
import { LANG_COOKIE, isLang } from './lib/page/languages';
import { applyConfig, configKey } from './lib/page/load';
import { needsPledge, PLEDGE_COOKIE, readPledged } from './lib/seat/pledge';
import { matchRoute } from './lib/page/routes';

/**
 * The page loader: once per request, before any screen renders, it builds
 * `Astro.locals.page`: the route match, the request's upstream (shared with the navigation
 * guard, which may already have loaded the config: functions/upstream requestUpstream), the
 * config of the page's expo and url (`getCustomerId`, cached at the edge), what that config
 * does to the page (spec §4: language, title, image, name, ended; src/lib/page/load.ts), the
 * flash message of a no-JS round trip (consumed here), the verified contact and whether the
 * expo's pledge (spec §2.5) is still to be made. `lang` and `t`
 * follow the decided language: a forced language wins over the `_h5_lang` cookie, which is
 * kept (src/lib/expo/config-apply.ts).
 *
 * Screens read `Astro.locals.page` and never import `functions/`.
 */
export const onRequest = defineMiddleware(async function loadPage(context, next) {
  const appEnv = env as AppEnv;
  const cookie = context.cookies.get(LANG_COOKIE)?.value?.trim();
  const cookieLang = isLang(cookie) ? cookie : null;
  const match = matchRoute(context.url.pathname);
  const key = match ? configKey(match) : null;
  const cfContext = (context.locals as { cfContext?: ExecutionContext }).cfContext;
  const upstream = requestUpstream(appEnv, context.request, {
    waitUntil: cfContext ? (p) => cfContext.waitUntil(p) : undefined,
  });

  // The credential page's registration: through the unknown-code cache and the
  // per-address miss limit (functions/credential-lookup.ts), beside the config.
  const credentialOf = match?.screen === 'success'
    ? credentialLookupFor(appEnv, context.request, upstream, cfContext ? (p) => cfContext.waitUntil(p) : undefined)({ expoId: match.params.expoId, euCode: match.params.euCode })
    : null;
  const [loaded, credential] = await Promise.all([
    key ? upstream.getCustomerId(key).catch(() => null) : null,
    credentialOf,
  ]);
  const config = loaded?.ok ? loaded.data : null;
  const view = applyConfig({ key, config, cookieLang, now: Date.now(), onFormPage: match?.screen === 'form' });

  const here = `${context.url.pathname}${context.url.search}`;
  const flash = decodeFlash(context.cookies.get(FLASH_COOKIE)?.value, here);
  // A flash is shown once: the page that shows it removes it (the page is then not stored: src/lib/page/policy.ts).
  if (flash) context.cookies.delete(FLASH_COOKIE, { path: '/' });
  const vcValue = context.cookies.get(CONTACT_COOKIE)?.value;
  const secret = appEnv.SESSION_SECRET ?? '';
  // A registration form holds the contact for its own, longer window (src/lib/lookup/contact-cookie.ts);
  // every other page reads it for 10 minutes after the proof.
  const onForm = match?.screen === 'form';
  const contact = vcValue ? await verifyContact(vcValue, secret, Date.now(), onForm ? 'register' : 'read').catch(() => null) : null;
  if (onForm && key && provenFor(contact, key.expoId)) {
    const opened = await openFormWindow(vcValue, secret).catch(() => null);
    if (opened) {
      context.cookies.set(CONTACT_COOKIE, opened.value, {
        path: '/',
        maxAge: opened.maxAge,
        httpOnly: true,
        secure: true,
        sameSite: 'lax',
      });
    }
  }

  // spec §2.5 the epidemic-prevention pledge: expos whose config asks for it, until this visit pledged.
  const pledge =
    key !== null && needsPledge(config?.customerWx) &&
    !(await readPledged(context.cookies.get(PLEDGE_COOKIE)?.value, appEnv.SESSION_SECRET ?? '').catch(() => [] as number[])).includes(key.expoId);

  context.locals.lang = view.lang.lang;
  context.locals.t = createT(view.lang.lang);
  // the Turnstile widget only where friction is on for this visitor (its wait ticket).
  const turnstile = challengeConfig(appEnv);
  const challenge =
    (match?.screen === 'search' || match?.screen === 'home') && turnstile.siteKey && (await readTicket(context.cookies.get(TICKET_COOKIE)?.value, secret).catch(() => null))
      ? { siteKey: turnstile.siteKey, scriptUrl: turnstile.scriptUrl }
      : null;
  context.locals.page = { match, key, upstream, config, configFailed: key !== null && config === null, view, flash, contact, pledge, challenge, credential };
  return next();
});
