import { Hono } from 'hono';
import type { AppEnv } from './env';
import { SW_SCRIPT } from '../src/lib/page/sw-script';

/**
 * `GET /sw.js` ("Offline"): the service worker that keeps visited credential pages for
 * a visit without a network. Served by the Worker rather than from public/ so that its own
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
