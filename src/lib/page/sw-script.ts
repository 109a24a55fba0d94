import { OFFLINE_UNTIL_HEADER, offlineCopyAlive } from './offline-copy';
import { expoOfLink, langOfContent, offlineListPage, OFFLINE_COPY_HEADER, OFFLINE_SAVED_HEADER, readCopyMeta, voidedCopies, type OfflineWords } from './offline-list';

/**
 * The service worker's source ("Offline"), served as `/sw.js` by the Worker
 * (functions/service-worker.ts) and registered by the lookup island and the hold countdown of the purchase pages (the credential page
 * stays script-free). Plain text rather than a bundled module: the build must not rewrite it.
 *
 * - Credential pages (`/{Variant}Success/…`, `/success/…`) and the pages of a paid order
 *   (`/orderDetails/…?orderNo=`, `/ticketSuccess/…?orderNo=`: its e-tickets), navigations only: network first;
 *   a good reply is stored while its `X-Offline-Until` (src/lib/page/offline-copy.ts: the expo's end
 *   plus a day) lies ahead; without a network the stored copy is served with its
 *   `[data-offline]` line shown (src/components/credential/UsageGlance.astro renders it hidden,
 *   with when the copy was saved: the time alone that day, date and time on a later one), but only until that instant: after it the
 *   copy is deleted and the browser's own offline error shows. A page that answers it is no longer
 *   kept (refunded, void: 200 without the header) or gone (404, 410) takes every copy of the same
 *   order or credential with it (voidedCopies: an order's two pages), so the offline list drops them.
 * - The QR images (`/qr/….png`, a pure function of their URL) and the build's `/_astro/` assets
 *   (hashed names): cache first, stored on the first fetch. A QR image is kept only while a
 *   stored page of the same credential is (same four segments).
 * - Each credential navigation sweeps the cache: expired pages and orphaned QR images go.
 * - The shared link (`[/{name}]/{fId}/{eid}[/{ty}]`: the event home, its lookup, any page of the
 *   expo; src/lib/page/offline-list.ts expoOfLink), navigations only: network first, noting the
 *   page's language (`Content-Language`) for its expo; without a network, the offline list of the
 *   copies of that expo this phone holds, in the language of the last page of that expo seen
 *   (offlineListPage), or, with none, the browser's own offline page.
 * - "Forget this device" (`POST /api/forget`): the worker deletes every cache
 *   of ours while the post goes on to the network (whose `Clear-Site-Data` also unregisters it).
 * - Everything else passes through untouched.
 */
export const SW_CACHE = 'expo-pass-credential-v1';

/** A credential path as src/lib/core/routes.ts builds it (routePath 'success'; the haisi family's end in `SuccessEn`, spec §2.3). */
export const SW_PAGE_PATTERN = /^\/(?:[A-Za-z0-9_-]*Success(?:En)?|success)\/[^/]+\/[^/]+\/[^/]+\/\d{1,12}\/?$/;
/** A paid order's page (routes.ts `ticket` screens `orderDetails`, `ticketSuccess`), kept only with `?orderNo=`, matched by its whole URL. */
export const SW_ORDER_PATTERN = /^\/(?:orderDetails|ticketSuccess)\/\d{1,12}\/[A-Za-z0-9_=-]{1,24}(?:\/[A-Za-z0-9_-]{0,32})?\/?$/;
/** A QR image path as src/lib/core/routes.ts builds it (qrImagePath, no `?save`). */
export const SW_IMAGE_PATTERN = /^\/qr\/[^/]+\/[^/]+\/[^/]+\/\d{1,12}\.png$/;

/**
 * The stored page as shown offline: the hidden `[data-offline]` element made visible. From its
 * `data-offline-day-end` (ms) on, the copy was saved on an earlier day than `now`: its
 * `[data-saved-today]` text (the time alone) is hidden and `[data-saved-earlier]` (date and time)
 * shown (src/components/credential/UsageGlance.astro). Self-contained: embedded in the worker.
 * @example showOfflineLine('<p data-offline hidden>x</p>') // '<p data-offline>x</p>'
 */
export function showOfflineLine(html: string, now?: number): string {
  const shown = html.replace(/(<[a-z]+\b[^>]*\bdata-offline\b[^>]*?)\s+hidden(?:="[^"]*")?/, '$1');
  const end = /<[a-z]+\b[^>]*\bdata-offline-day-end="(\d{1,16})"/.exec(shown);
  if (typeof now !== 'number' || !end || now < Number(end[1])) return shown;
  return shown
    .replace(/(<[a-z]+\b[^>]*\bdata-saved-today\b[^>]*?)(\s*\/?>)/, '$1 hidden$2')
    .replace(/(<[a-z]+\b[^>]*\bdata-saved-earlier\b[^>]*?)\s+hidden(?:="[^"]*")?/, '$1');
}

/** The form post of "forget this device" (functions/api/forget.ts), which the worker also answers by emptying its caches. */
export const SW_FORGET_PATH = '/api/forget';

/** The offline list's words in every language, and each language's HTML `lang` (functions/service-worker.ts builds them from the catalogues). */
export interface SwTexts {
  words: Readonly<Record<string, OfflineWords>>;
  htmlLangs: Readonly<Record<string, string>>;
}

/** The worker's script with the offline list's words. */
export function swScript(texts: SwTexts): string {
  return `'use strict';
const CACHE = ${JSON.stringify(SW_CACHE)};
const PAGE = ${SW_PAGE_PATTERN.toString()};
const IMAGE = ${SW_IMAGE_PATTERN.toString()};
const ORDER = ${SW_ORDER_PATTERN.toString()};
const UNTIL = ${JSON.stringify(OFFLINE_UNTIL_HEADER)};
const META = ${JSON.stringify(OFFLINE_COPY_HEADER)};
const SAVED = ${JSON.stringify(OFFLINE_SAVED_HEADER)};
const WORDS = ${JSON.stringify(texts.words)};
const HTML_LANGS = ${JSON.stringify(texts.htmlLangs)};
const LANG_KEY = '/sw-meta/lang/';
const FORGET = ${JSON.stringify(SW_FORGET_PATH)};
const showOfflineLine = ${showOfflineLine.toString()};
const offlineCopyAlive = ${offlineCopyAlive.toString()};
const readCopyMeta = ${readCopyMeta.toString()};
const expoOfLink = ${expoOfLink.toString()};
const voidedCopies = ${voidedCopies.toString()};
const offlineListPage = ${offlineListPage.toString()};
const langOfContent = ${langOfContent.toString()};

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('expo-pass-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => caches.open(CACHE))
      .then(sweep)
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.method === 'POST' && url.pathname === FORGET) {
    // Not answered here: the post goes on to the network as it would without a worker.
    event.waitUntil(forget());
    return;
  }
  if (req.method !== 'GET') return;
  if (req.mode === 'navigate' && isCopyPage(url)) event.respondWith(page(req, event));
  else if (req.mode === 'navigate' && expoOfLink(url.pathname) !== null) event.respondWith(link(req, event, expoOfLink(url.pathname)));
  else if ((IMAGE.test(url.pathname) && url.search === '') || url.pathname.startsWith('/_astro/')) event.respondWith(stored(req));
});

/** Every cache of ours, gone. */
function forget() {
  return caches.keys().then((keys) => Promise.all(keys.filter((k) => k.startsWith('expo-pass-')).map((k) => caches.delete(k))));
}

/** A page the worker may keep: a credential, or a paid order's page (its whole URL). */
function isCopyPage(url) {
  return PAGE.test(url.pathname) || (ORDER.test(url.pathname) && url.searchParams.has('orderNo'));
}

/** The credential a page or QR image path names: its four segments. */
function credentialOf(pathname) {
  const parts = pathname.replace(/\\.png$/, '').split('/').filter(Boolean);
  return parts.slice(1, 5).join('/');
}

/** Drops expired pages, then QR images whose credential has no page left. */
async function sweep(cache) {
  const now = Date.now();
  const keys = await cache.keys();
  const alive = new Set();
  for (const key of keys) {
    const url = new URL(key.url);
    if (!isCopyPage(url)) continue;
    const hit = await cache.match(key);
    if (hit && offlineCopyAlive(hit.headers.get(UNTIL), now)) alive.add(credentialOf(url.pathname));
    else await cache.delete(key);
  }
  for (const key of keys) {
    const path = new URL(key.url).pathname;
    if (IMAGE.test(path) && !alive.has(credentialOf(path))) await cache.delete(key);
  }
}

/** Notes the language of a page of an expo (its Content-Language): the offline list speaks it. */
async function noteLang(cache, expo, res) {
  const lang = langOfContent(res.headers.get('content-language'), HTML_LANGS);
  if (expo !== null && lang) await cache.put(self.location.origin + LANG_KEY + expo, new Response(lang)).catch(() => {});
}

/** The offline list of an expo's copies (offlineListPage), or null when this phone holds none. */
async function listed(expo) {
  const cache = await caches.open(CACHE);
  const now = Date.now();
  const copies = [];
  for (const key of await cache.keys()) {
    const url = new URL(key.url);
    if (!isCopyPage(url)) continue;
    const hit = await cache.match(key);
    const meta = hit && offlineCopyAlive(hit.headers.get(UNTIL), now) ? readCopyMeta(hit.headers.get(META)) : null;
    if (meta && meta.expo === expo) copies.push({ url: url.pathname + url.search, meta, savedAt: Number(hit.headers.get(SAVED)) || 0 });
  }
  const noted = await cache.match(self.location.origin + LANG_KEY + expo);
  const newest = copies.slice().sort((a, b) => b.savedAt - a.savedAt)[0];
  const lang = (noted && (await noted.text())) || (newest && newest.meta.lang) || 'zh';
  const shown = offlineListPage(copies, expo, lang, now, WORDS, HTML_LANGS);
  if (!shown) return null;
  return new Response(shown.html, {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'",
      'x-robots-tag': 'noindex',
    },
  });
}

/** The shared link (any page of an expo's {fId}/{eid}/{ty} family): the network, else the expo's offline list. */
async function link(req, event, expo) {
  let res;
  try {
    res = await fetch(req);
  } catch (err) {
    const list = await listed(expo);
    if (!list) throw err;
    return list;
  }
  if (res.status === 200) event.waitUntil(caches.open(CACHE).then((cache) => noteLang(cache, expo, res)).catch(() => {}));
  return res;
}

async function page(req, event) {
  const cache = await caches.open(CACHE);
  // An order's page is matched by its whole URL (another order shares the path).
  const exact = !PAGE.test(new URL(req.url).pathname);
  let res;
  try {
    res = await fetch(req);
  } catch (err) {
    const hit = (await cache.match(req.url)) || (exact ? undefined : await cache.match(req.url, { ignoreSearch: true }));
    // An order page with no copy of its own: the expo's list, as the shared link shows it.
    const list = !hit && exact ? await listed(expoOfLink(new URL(req.url).pathname)) : null;
    if (list) return list;
    if (!hit) throw err;
    if (!offlineCopyAlive(hit.headers.get(UNTIL), Date.now())) {
      // Past the expo's end (plus the grace): no copy is served, and this one is deleted.
      await cache.delete(hit.url || req.url).catch(() => {});
      event.waitUntil(sweep(cache).catch(() => {}));
      throw err;
    }
    const headers = new Headers(hit.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(showOfflineLine(await hit.text(), Date.now()), { status: 200, headers });
  }
  const html = res.status === 200 && /^text\\/html/.test(res.headers.get('content-type') || '');
  const kept = html && offlineCopyAlive(res.headers.get(UNTIL), Date.now());
  if (kept) {
    // Stored with the instant it was stored (the offline list's "updated 09:20").
    const headers = new Headers(res.headers);
    headers.set(SAVED, String(Date.now()));
    const copy = new Response(await res.clone().arrayBuffer(), { status: 200, headers });
    await cache.put(req.url, copy).catch(() => {});
  } else if (html) await cache.delete(req.url, { ignoreSearch: !exact }).catch(() => {});
  // no longer kept, or gone: every copy of the same order or credential goes too (an order's other page)
  const here = new URL(req.url);
  const copies = (await cache.keys().catch(() => [])).map((k) => new URL(k.url)).filter(isCopyPage).map((u) => u.pathname + u.search);
  for (const url of voidedCopies(here.pathname + here.search, res.status, kept, copies)) await cache.delete(self.location.origin + url).catch(() => {});
  if (html) {
    const meta = readCopyMeta(res.headers.get(META));
    if (meta) await noteLang(cache, meta.expo, res);
  }
  event.waitUntil(sweep(cache).catch(() => {}));
  return res;
}

async function stored(req) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(req);
  if (hit) return hit;
  const res = await fetch(req);
  if (res.status === 200) await cache.put(req, res.clone()).catch(() => {});
  return res;
}
`;
}
