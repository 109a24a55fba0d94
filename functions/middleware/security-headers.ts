import type { MiddlewareHandler } from 'hono';

/**
 * Security headers on every response the Worker sends (issue 1 §6).
 * Astro sets its own Content-Security-Policy header on pages (with the hashes of its inline
 * and island scripts, astro.config.mjs `security.csp`); every other response (API, reference
 * upstream, static files, redirects) gets `fallbackCsp`.
 */
export interface SecurityHeadersOptions {
  /** CSP for responses that carry none. */
  fallbackCsp: string;
  /** `Strict-Transport-Security` value. */
  hsts: string;
  referrerPolicy: string;
  /** Path prefixes whose replies must never be cached (the API: spec data is per visitor). */
  noStorePrefixes: readonly string[];
}

const DEFAULT_OPTIONS: SecurityHeadersOptions = {
  fallbackCsp:
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  hsts: 'max-age=31536000; includeSubDomains',
  referrerPolicy: 'strict-origin-when-cross-origin',
  noStorePrefixes: ['/api/', '/custom/', '/wx/', '/dev/'],
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
    h.set('referrer-policy', opts.referrerPolicy);
    const path = new URL(c.req.url).pathname;
    if (opts.noStorePrefixes.some((p) => path.startsWith(p))) h.set('cache-control', 'no-store');
    // Astro answers without a charset (STACK.md); say UTF-8 for every text reply.
    const type = h.get('content-type');
    if (type && /^text\/html\b/.test(type) && !/charset=/i.test(type)) h.set('content-type', 'text/html; charset=utf-8');
    c.res = undefined;
    c.res = res;
  };
}
