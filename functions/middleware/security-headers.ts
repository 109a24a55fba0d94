import type { MiddlewareHandler } from 'hono';
import { DEFAULT_PERMISSIONS_POLICY } from '../../src/lib/page/permissions-policy';
import { PRIVATE_CACHE_CONTROL } from '../../src/lib/page/policy';

/**
 * Security headers on every response the Worker sends.
 * Astro sets its own Content-Security-Policy header on pages (with the hashes of its inline
 * and island scripts, astro.config.mjs `security.csp`); every other response (API, reference
 * upstream, static files, redirects) gets `fallbackCsp`.
 *
 * Likewise `Permissions-Policy`: a page that renders the camera island sets its
 * own (src/lib/page/permissions-policy.ts); everything else gets `permissionsPolicy`. Pages set their
 * cache policy themselves (src/lib/page/policy.ts); an HTML reply without one (an error page,
 * a page that forgot) gets `htmlCacheControl`, closed by default.
 */
export interface SecurityHeadersOptions {
  /** CSP for responses that carry none. */
  fallbackCsp: string;
  /** `Strict-Transport-Security` value. */
  hsts: string;
  referrerPolicy: string;
  /** Path prefixes whose replies must never be cached (the API: spec data is per visitor). */
  noStorePrefixes: readonly string[];
  /** `Permissions-Policy` for responses that carry none. */
  permissionsPolicy: string;
  /** `Cache-Control` for HTML responses that carry none. */
  htmlCacheControl: string;
}

const DEFAULT_OPTIONS: SecurityHeadersOptions = {
  fallbackCsp:
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  hsts: 'max-age=31536000; includeSubDomains',
  referrerPolicy: 'strict-origin-when-cross-origin',
  noStorePrefixes: ['/api/', '/custom/', '/wx/', '/dev/'],
  permissionsPolicy: DEFAULT_PERMISSIONS_POLICY,
  htmlCacheControl: PRIVATE_CACHE_CONTROL,
};

/** Hono middleware factory (STYLE.md §3): options checked once, a named handler returned. */
export function securityHeaders(options: Partial<SecurityHeadersOptions> = {}): MiddlewareHandler {
  const opts: SecurityHeadersOptions = { ...DEFAULT_OPTIONS, ...options };
  return async function securityHeadersHandler(c, next) {
    await next();
    // Responses from fetch/assets can have immutable headers: copy before changing.
    const res = new Response(c.res.body, c.res);
    const h = res.headers;
    // Astro sends no CSP in `astro dev` (its hashes exist only in builds), and Vite's dev
    // scripts would break under the strict fallback: dev pages go without one.
    const devPage = import.meta.env?.DEV === true && import.meta.env?.MODE !== 'test' && /^text\/html\b/.test(h.get('content-type') ?? '');
    if (!h.has('content-security-policy') && !devPage) h.set('content-security-policy', opts.fallbackCsp);
    h.set('strict-transport-security', opts.hsts);
    h.set('x-content-type-options', 'nosniff');
    // A reply may only make it stricter: the staff link's 303 sends no referrer (functions/gate.ts).
    if (h.get('referrer-policy') !== 'no-referrer') h.set('referrer-policy', opts.referrerPolicy);
    if (!h.has('permissions-policy')) h.set('permissions-policy', opts.permissionsPolicy);
    const path = new URL(c.req.url).pathname;
    const type = h.get('content-type');
    if (opts.noStorePrefixes.some((p) => path.startsWith(p))) h.set('cache-control', 'no-store');
    else if (type && /^text\/html\b/.test(type) && !h.has('cache-control')) h.set('cache-control', opts.htmlCacheControl);
    // Astro answers without a charset (STACK.md); say UTF-8 for every text reply.
    if (type && /^text\/html\b/.test(type) && !/charset=/i.test(type)) h.set('content-type', 'text/html; charset=utf-8');
    c.res = undefined;
    c.res = res;
  };
}
