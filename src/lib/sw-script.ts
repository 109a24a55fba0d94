/**
 * The service worker's source (issue 13 "Offline"), served as `/sw.js` by the Worker
 * (functions/service-worker.ts) and registered by the lookup island only (the credential page
 * stays script-free). Plain text rather than a bundled module: the build must not rewrite it.
 *
 * - Credential pages (`/{Variant}Success/…`, `/success/…`), navigations only: network first;
 *   a good reply is stored; without a network the stored copy is served with its
 *   `[data-offline]` line shown (src/components/credential/UsageGlance.astro renders it hidden,
 *   with the time the copy was made).
 * - The QR images (`/qr/….png`, immutable for their URL) and the build's `/_astro/` assets
 *   (hashed names): cache first, stored on the first fetch.
 * - Everything else passes through untouched.
 */
export const SW_CACHE = 'expo-pass-credential-v1';

/** A credential path as src/lib/routes.ts builds it (routePath 'success'). */
export const SW_PAGE_PATTERN = /^\/(?:[A-Za-z0-9_-]*Success|success)\/[^/]+\/[^/]+\/[^/]+\/\d{1,12}\/?$/;
/** A QR image path as src/lib/routes.ts builds it (qrImagePath, no `?save`). */
export const SW_IMAGE_PATTERN = /^\/qr\/[^/]+\/[^/]+\/[^/]+\/\d{1,12}\.png$/;

/**
 * The stored page as shown offline: the hidden `[data-offline]` element made visible.
 * @example showOfflineLine('<p data-offline hidden>x</p>') // '<p data-offline>x</p>'
 */
export function showOfflineLine(html: string): string {
  return html.replace(/(<[a-z]+\b[^>]*\bdata-offline\b[^>]*?)\s+hidden(?:="[^"]*")?/, '$1');
}

export const SW_SCRIPT = `'use strict';
const CACHE = ${JSON.stringify(SW_CACHE)};
const PAGE = ${SW_PAGE_PATTERN.toString()};
const IMAGE = ${SW_IMAGE_PATTERN.toString()};
const showOfflineLine = ${showOfflineLine.toString()};

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('expo-pass-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.mode === 'navigate' && PAGE.test(url.pathname)) event.respondWith(page(req));
  else if ((IMAGE.test(url.pathname) && url.search === '') || url.pathname.startsWith('/_astro/')) event.respondWith(stored(req));
});

async function page(req) {
  const cache = await caches.open(CACHE);
  let res;
  try {
    res = await fetch(req);
  } catch (err) {
    const hit = (await cache.match(req.url)) || (await cache.match(req.url, { ignoreSearch: true }));
    if (!hit) throw err;
    const headers = new Headers(hit.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(showOfflineLine(await hit.text()), { status: 200, headers });
  }
  if (res.status === 200 && /^text\\/html/.test(res.headers.get('content-type') || '')) {
    await cache.put(req.url, res.clone()).catch(() => {});
  }
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
