import { Hono, type Context } from 'hono';
import { admits } from '../src/lib/expo/view';
import { getCookie } from 'hono/cookie';
import type { AppEnv } from './env';
import { requestUpstream } from './upstream';
import { credentialLookupFor } from './credential-lookup';
import { CONTACT_COOKIE, readsCredential, verifyContact } from '../src/lib/lookup/contact-cookie';
import { variantByExpoId } from '../src/lib/core/variants';
import { waitUntilOf } from './wait-until';
import { createT } from '../src/i18n';
import { appleWalletKeys } from '../src/lib/wallet/apple-pass';
import { registrationLabel } from '../src/lib/core/labels';
import { LANG_COOKIE, isLang } from '../src/lib/core/languages';
import { applyConfig, configKey } from '../src/lib/page/load';
import { passSigner } from '../src/lib/wallet/pass-signature';
import { buildPkpass, PKPASS_CONTENT_TYPE } from '../src/lib/wallet/pkpass';
import { matchPassPath, routePath } from '../src/lib/core/routes';

/**
 * `GET /pass/{urlId}/{euCode}/{expoId}/{fId}.pkpass` ("Wallet passes"): the
 * credential as a signed Apple Wallet pass. The pass carries the attendee's name, so, like the
 * credential page's personal details, it is given only to the visitor whose own
 * lookup found this code (the `vc` cookie, src/lib/lookup/contact-cookie.ts readsCredential); anyone
 * else holding the link (a chat history, a shared phone) is sent to the credential page, which
 * shows the QR and the way to prove the contact. The path carries exactly the credential URL's
 * segments (src/lib/core/routes.ts passPath). It reads the registration as the credential page does
 * (functions/credential-lookup.ts: the unknown-code cache and the per-address miss limit; the
 * expo's name from the config, in the language the page would use) and answers 404 for a path
 * that is not a credential's (before any upstream call), for an unknown code, and while the five
 * APPLE_* secrets are not all set and valid; 429 past the miss limit. The pass itself
 * is built in src/lib (pkpass.ts). `private, no-store`: personal data. HEAD is answered by
 * Hono from the GET handler without a body.
 */
export const applePass = new Hono<{ Bindings: AppEnv }>();

type Ctx = Context<{ Bindings: AppEnv }>;

const notFound = (c: Ctx) => c.text('Not found', 404, { 'cache-control': 'private, no-store' });

applePass.get('/*', async function applePassFile(c) {
  const url = new URL(c.req.url);
  const params = url.search === '' ? matchPassPath(url.pathname) : null;
  const keys = appleWalletKeys(c.env as unknown as Record<string, unknown>);
  if (!params || !keys) return notFound(c);
  const signer = await passSigner(keys).catch((e: unknown) => {
    console.error('Apple Wallet pass not signed (check the APPLE_* secrets)', e);
    return null;
  });
  if (!signer) return notFound(c);

  const vc = await verifyContact(getCookie(c, CONTACT_COOKIE), c.env.SESSION_SECRET ?? '').catch(() => null);
  if (!readsCredential(vc, params)) {
    const page = routePath({ screen: 'credential', variant: variantByExpoId(params.expoId), params });
    return c.redirect(page, 303);
  }

  const waitUntil = waitUntilOf(c);
  const upstream = requestUpstream(c.env, c.req.raw, { waitUntil });
  const key = configKey({ screen: 'credential', variant: null, params });
  const [credential, loaded] = await Promise.all([
    credentialLookupFor(c.env, c.req.raw, upstream, waitUntil)({ expoId: params.expoId, euCode: params.euCode }),
    key ? upstream.getCustomerId(key).catch(() => null) : null,
  ]);
  if (credential.kind === 'limited') {
    return c.text('Too many unknown credential links: try again later.', 429, { 'retry-after': String(credential.retryAfterS), 'cache-control': 'private, no-store' });
  }
  const record = credential.kind === 'found' ? credential.record : null;
  // A void credential (a refunded ticket) or one awaiting review (spec §2.5) gets no pass.
  if (!record || !admits(record)) return notFound(c);

  // The language the credential page shows (the visitor's cookie, unless the config forces one).
  const cookie = getCookie(c, LANG_COOKIE)?.trim();
  const view = applyConfig({ key, config: loaded?.ok ? loaded.data : null, cookieLang: isLang(cookie) ? cookie : null, now: Date.now(), onFormPage: false });
  const t = createT(view.lang.lang);
  const tk = (k: string) => t(k as Parameters<typeof t>[0]);
  const pass = {
    euCode: params.euCode,
    expoId: params.expoId,
    expoName: view.name ?? '',
    attendeeName: record.uname ?? '',
    attendeeClass: registrationLabel(record, tk),
  };
  const labels = { title: t('success.title'), event: t('success.event'), name: t('success.name'), class: t('success.class'), code: t('success.code') };
  const zip = await buildPkpass({ keys, signer, pass, labels, now: new Date() });
  return c.body(zip as Uint8Array<ArrayBuffer>, 200, {
    'content-type': PKPASS_CONTENT_TYPE,
    'content-disposition': `attachment; filename="${params.euCode}.pkpass"`,
    'cache-control': 'private, no-store',
    'x-robots-tag': 'noindex',
  });
});
