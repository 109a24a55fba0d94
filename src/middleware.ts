import { env } from 'cloudflare:workers';
import { challengeConfig, readTicket, TICKET_COOKIE } from './lib/security/friction';
import { defineMiddleware } from 'astro:middleware';
import type { AppEnv } from '../functions/env';
import type { StartedPage } from '../functions/middleware/guard';
import { requestUpstream, upstreamScope } from '../functions/upstream';
import { isolateCredentialViews, sharedViewReads } from '../functions/upstream/credential-views';
import { credentialLookupFor } from '../functions/credential-lookup';
import { staffFor } from '../functions/staff/keys';
import { gateCookieName } from './lib/gate/keys';
import { createT } from './i18n';
import { CONTACT_COOKIE, openFormWindow, provenFor } from './lib/lookup/contact-cookie';
import { decodeFlash, FLASH_COOKIE } from './lib/page/flash';
import { LANG_COOKIE, isLang } from './lib/core/languages';
import { applyConfig, startPage } from './lib/page/load';
import { pageRouteLang } from './lib/expo/haisi';
import { needsPledge, PLEDGE_COOKIE, pledgeTicket, readPledged } from './lib/seat/pledge';
import { pageForm } from './lib/screens/form-state';
import { screenOf, type ScreenPage } from './lib/screens';
import type { Tr } from './lib/screens/page';
import { appleWalletKeys } from './lib/wallet/apple-pass';
import { googleWalletKeys, googleWalletSaveUrl, type GooglePass } from './lib/wallet/google-wallet';
import { passSigner } from './lib/wallet/pass-signature';
import { holdsFormWindow, passPath, type SuccessParams } from './lib/core/routes';
import { jsSdkUrl, wantsShareCard } from './lib/page/wx-share';
import { miniProgramContext } from './lib/page/mini-program';
import { bypassEnabled } from './lib/lookup/page';

/**
 * The page pipeline, after its first step (the navigation guard, functions/middleware/guard.ts,
 * which matched the route, verified the contact once, ran the guard's rules and made the
 * request's upstream: `locals.startedPage`). Once per request, before any screen renders, it
 * builds `Astro.locals.page`: the config of the page's expo and url (`getCustomerId`, cached at
 * the edge), what that config does to the page (spec §4: language, title, image, name, ended;
 * src/lib/page/load.ts), the flash of a no-JS round trip (read once, consumed here, shown as
 * `page.form`), whether the expo's pledge (spec §2.5) is still to be made, and the matched
 * screen's data (its loader in src/lib/screens, run here: `page.screen`). `lang` and `t` follow
 * the decided language: a forced language wins over the `_h5_lang` cookie, which is kept
 * (src/lib/expo/config-apply.ts).
 *
 * The Worker's secrets are read here only: screens get what they need from `locals`
 * (the pledge ticket, the wallet links), and never import `functions/`.
 */
export const onRequest = defineMiddleware(async function loadPage(context, next) {
  const appEnv = env as AppEnv;
  const secret = appEnv.SESSION_SECRET ?? '';
  const locals = context.locals as { cfContext?: ExecutionContext; startedPage?: StartedPage };
  const cfContext = locals.cfContext;
  const waitUntil = cfContext ? (p: Promise<unknown>) => cfContext.waitUntil(p) : undefined;
  // A request the guard does not see (not a GET or HEAD) starts its page here.
  const started: StartedPage = locals.startedPage ?? {
    ...(await startPage(context.url, context.cookies.get(CONTACT_COOKIE)?.value, secret, Date.now())),
    upstream: requestUpstream(appEnv, context.request, { waitUntil }),
  };
  const { match, key, contact } = started;
  // What the matched screen's declaration asks the pipeline to prepare (src/lib/screens/define.ts).
  const screenDef = match ? screenOf(match) : null;
  const prepare = screenDef?.prepare ?? {};
  const credentialOf = match && prepare.credential ? prepare.credential(match) : null;
  // A credential page's reads (record, site and bus lists) are shared for a few seconds by
  // every view of the same credential in this isolate (issue 24: functions/upstream/credential-views.ts).
  const upstream = credentialOf ? sharedViewReads(started.upstream, isolateCredentialViews(), upstreamScope(appEnv)) : started.upstream;
  const cookie = context.cookies.get(LANG_COOKIE)?.value?.trim();
  const cookieLang = isLang(cookie) ? cookie : null;

  // A credential's registration: through the unknown-code cache and the
  // per-address miss limit (functions/credential-lookup.ts), beside the config.
  const credential = credentialOf
    ? credentialLookupFor(appEnv, context.request, upstream, waitUntil)({ expoId: credentialOf.expoId, euCode: credentialOf.euCode })
    : null;
  // The share card (spec §4 "Type admin triggers a share-signature fetch"): on the pages with
  // share tags, inside the messaging app or for type admin, when the organiser's API has an app id.
  const userAgent = context.request.headers.get('user-agent') ?? '';
  const appId =
    key && prepare.shareCard && wantsShareCard({ userAgent, ty: key.ty ?? '' })
      ? withinMs(upstream.wxAppId(key.expoId), WX_APP_ID_WAIT_MS)
      : Promise.resolve(null);
  const loaded = key ? await upstream.getCustomerId(key).catch(() => null) : null;
  const config = loaded?.ok ? loaded.data : null;
  const view = applyConfig({ key, config, cookieLang, now: Date.now(), onFormPage: screenDef?.formPage === true, routeLang: pageRouteLang(match, context.url), skipsChecks: started.info.skip });

  const here = `${context.url.pathname}${context.url.search}`;
  const flash = decodeFlash(context.cookies.get(FLASH_COOKIE)?.value, here);
  // A flash is shown once: the page that shows it removes it (the page is then not stored: src/lib/page/policy.ts).
  if (flash) context.cookies.delete(FLASH_COOKIE, { path: '/' });
  // A registration or ticket form holds the contact for its own, longer window (src/lib/lookup/contact-cookie.ts).
  if (holdsFormWindow(match) && key && provenFor(contact, key.expoId)) await reopenFormWindow(context.cookies, secret);

  // spec §2.5 the epidemic-prevention pledge: expos whose config asks for it, until this visit pledged.
  const pledge =
    key !== null && needsPledge(config?.customerWx) &&
    !(await readPledged(context.cookies.get(PLEDGE_COOKIE)?.value, secret).catch(() => [] as number[])).includes(key.expoId);

  const t = createT(view.lang.lang);
  context.locals.lang = view.lang.lang;
  context.locals.t = t;
  // the Turnstile widget only where friction is on for this visitor (its wait ticket).
  const turnstile = challengeConfig(appEnv);
  const challenge =
    prepare.challenge && turnstile.siteKey && (await readTicket(context.cookies.get(TICKET_COOKIE)?.value, secret).catch(() => null))
      ? { siteKey: turnstile.siteKey, scriptUrl: turnstile.scriptUrl }
      : null;
  const tr = t as Tr;
  const screenPage: ScreenPage = {
    url: context.url,
    now: Date.now(),
    lang: view.lang.lang,
    t: tr,
    cookie: (name) => context.cookies.get(name)?.value,
    config,
    configFailed: key !== null && config === null,
    view,
    flash,
    contact,
    pledge,
    challenge,
    bypass: bypassEnabled(appEnv.EXHIBITOR_BYPASS),
    userAgent,
  };
  // The gate (README "The gate"): the expo's staff key from its cookie, checked against the STAFF
  // database; without one the gate screens have no data and the page is the not-found page.
  const staffExpo = match && prepare.gateStaff ? prepare.gateStaff(match) : null;
  const gateStaff =
    staffExpo !== null ? await staffFor(appEnv.STAFF, context.cookies.get(gateCookieName(staffExpo))?.value, staffExpo).catch(() => null) : null;
  const screen = !match || !screenDef ? null : await screenDef.load(match, screenPage, upstream, {
    credential: () => credential ?? Promise.resolve({ kind: 'failed' }),
    secret,
    gateStaff,
    gateStats: upstream,
  });
  context.locals.page = {
    match,
    key,
    config,
    configFailed: screenPage.configFailed,
    view,
    flash,
    form: pageForm(flash, tr),
    contact,
    pledge,
    challenge,
    screen,
    shareCard: await appId.then((id) => (id ? { appId: id, sdkUrl: jsSdkUrl(appEnv.WX_JSSDK_URL) } : null)),
    miniProgramContext: miniProgramContext(userAgent),
    pledgeTicket: prepare.pledgeTicket ? (expoId) => pledgeTicket(expoId, Date.now(), secret).catch(() => '') : undeclared('pledgeTicket'),
    wallet: prepare.wallet ? (params, pass) => walletLinks(appEnv, params, { ...pass, lang: view.lang.lang }, context.url.origin) : undeclared('wallet'),
  };
  return next();
});

/**
 * What a screen asks of the pipeline without declaring it (src/lib/screens/define.ts `prepare`):
 * a programming error, refused loudly so the screen's declaration gets the line it lacks.
 */
function undeclared(what: string): () => Promise<never> {
  return () => Promise.reject(new Error(`the screen did not declare prepare.${what} (src/lib/screens/define.ts)`));
}

/** How long a page waits for the share card's app id (like the guard's messaging-app calls): past it, no card. */
const WX_APP_ID_WAIT_MS = 5_000;

/** A promise's value, or null once it fails or `ms` pass. */
async function withinMs<T>(p: Promise<T>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([p.catch(() => null), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Renews the registration form's window of the contact cookie (src/lib/lookup/contact-cookie.ts). */
async function reopenFormWindow(cookies: { get(name: string): { value: string } | undefined; set(name: string, value: string, o: object): void }, secret: string): Promise<void> {
  const opened = await openFormWindow(cookies.get(CONTACT_COOKIE)?.value, secret).catch(() => null);
  if (opened) cookies.set(CONTACT_COOKIE, opened.value, { path: '/', maxAge: opened.maxAge, httpOnly: true, secure: true, sameSite: 'lax' });
}

/**
 * The credential page's wallet links ("Wallet passes"): the Apple pass's path when the five
 * APPLE_* secrets are set and load (src/lib/wallet/pass-signature.ts, checked once per
 * isolate), the Google save link signed with the service-account key when the GOOGLE_WALLET_*
 * secrets are set. A broken set is logged and shows no link; the page still renders. No key
 * reaches the page, only the signed JWT and the pass's URL.
 */
async function walletLinks(
  appEnv: AppEnv,
  params: SuccessParams,
  pass: Omit<GooglePass, 'euCode' | 'expoId'>,
  origin: string,
): Promise<{ apple: string | null; google: string | null }> {
  const secrets = appEnv as unknown as Record<string, unknown>;
  const appleKeys = appleWalletKeys(secrets);
  const googleKeys = googleWalletKeys(secrets);
  const [apple, google] = await Promise.all([
    appleKeys
      ? passSigner(appleKeys).then(
          () => passPath(params),
          (e: unknown) => {
            console.error('Apple Wallet link not shown (check the APPLE_* secrets)', e);
            return null;
          },
        )
      : null,
    googleKeys
      ? googleWalletSaveUrl(googleKeys, { ...pass, euCode: params.euCode, expoId: params.expoId }, origin).catch((e: unknown) => {
          console.error('Google Wallet link not signed (check GOOGLE_WALLET_SA_KEY)', e);
          return null;
        })
      : null,
  ]);
  return { apple, google };
}
