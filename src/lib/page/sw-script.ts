import { OFFLINE_UNTIL_HEADER, offlineCopyAlive } from './offline-copy';

/**
 * The service worker's source ("Offline"), served as `/sw.js` by the Worker
 * (functions/service-worker.ts) and registered by the lookup island only (the credential page
 * stays script-free). Plain text rather than a bundled module: the build must not rewrite it.
 *
 * - Credential pages (`/{Variant}Success/…`, `/success/…`), navigations only: network first;
 *   a good reply is stored while its `X-Offline-Until` (src/lib/page/offline-copy.ts: the expo's end
 *   plus a day) lies ahead; without a network the stored copy is served with its
 *   `[data-offline]` line shown (src/components/credential/UsageGlance.astro renders it hidden,
 *   with when the copy was saved: the time alone that day, date and time on a later one), but only until that instant: after it the
 *   copy is deleted and the browser's own offline error shows.
 * - The QR images (`/qr/….png`, a pure function of their URL) and the build's `/_astro/` assets
 *   (hashed names): cache first, stored on the first fetch. A QR image is kept only while a
 *   stored page of the same credential is (same four segments).
 * - Each credential navigation sweeps the cache: expired pages and orphaned QR images go.
 * - "Forget this device" (`POST /api/forget`): the worker deletes every cache
 *   of ours while the post goes on to the network (whose `Clear-Site-Data` also unregisters it).
 * - Everything else passes through untouched.
 */
export const SW_CACHE = 'expo-pass-credential-v1';

/** A credential path as src/lib/page/routes.ts builds it (routePath 'success'; the haisi family's end in `SuccessEn`, spec §2.3). */
export const SW_PAGE_PATTERN = /^\/(?:[A-Za-z0-9_-]*Success(?:En)?|success)\/[^/]+\/[^/]+\/[^/]+\/\d{1,12}\/?$/;
/** A QR image path as src/lib/page/routes.ts builds it (qrImagePath, no `?save`). */
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

export const SW_SCRIPT = `'use strict';
const CACHE = ${JSON.stringify(SW_CACHE)};
const PAGE = ${SW_PAGE_PATTERN.toString()};
const IMAGE = ${SW_IMAGE_PATTERN.toString()};
const UNTIL = ${JSON.stringify(OFFLINE_UNTIL_HEADER)};
const FORGET = ${JSON.stringify(SW_FORGET_PATH)};
const showOfflineLine = ${showOfflineLine.toString()};
const offlineCopyAlive = ${offlineCopyAlive.toString()};

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
  if (req.mode === 'navigate' && PAGE.test(url.pathname)) event.respondWith(page(req, event));
  else if ((IMAGE.test(url.pathname) && url.search === '') || url.pathname.startsWith('/_astro/')) event.respondWith(stored(req));
});

/** Every cache of ours, gone. */
function forget() {
  return caches.keys().then((keys) => Promise.all(keys.filter((k) => k.startsWith('expo-pass-')).map((k) => caches.delete(k))));
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
    const path = new URL(key.url).pathname;
    if (!PAGE.test(path)) continue;
    const hit = await cache.match(key);
    if (hit && offlineCopyAlive(hit.headers.get(UNTIL), now)) alive.add(credentialOf(path));
    else await cache.delete(key);
  }
  for (const key of keys) {
    const path = new URL(key.url).pathname;
    if (IMAGE.test(path) && !alive.has(credentialOf(path))) await cache.delete(key);
  }
}

async function page(req, event) {
  const cache = await caches.open(CACHE);
  let res;
  try {
    res = await fetch(req);
  } catch (err) {
    const hit = (await cache.match(req.url)) || (await cache.match(req.url, { ignoreSearch: true }));
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
  if (res.status === 200 && /^text\\/html/.test(res.headers.get('content-type') || '')) {
    if (offlineCopyAlive(res.headers.get(UNTIL), Date.now())) await cache.put(req.url, res.clone()).catch(() => {});
    else await cache.delete(req.url, { ignoreSearch: true }).catch(() => {});
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
