/**
 * How a page may be cached and indexed: a pure rule from what the page is and
 * whether it showed personal data. Pages apply it thinly (src/pages/*); the Worker's security
 * headers add a closed default for any HTML reply that carries none
 * (functions/middleware/security-headers.ts).
 *
 * - **Personal pages** — the credential (name, company, registration code), the selection list,
 *   every registration form (it shows the verified contact) and any page that showed values
 *   flashed back from a no-JavaScript post (src/lib/page/flash.ts) — are `private, no-store` and
 *   `noindex`: no cache, shared or the browser's own, may keep them, and no search engine lists them.
 * - **Public pages** (home screens, lookups without a flash, landings, the root, 404) are
 *   `private, max-age=0, must-revalidate`. They are not personal, but they vary by cookie: the
 *   language (`_h5_lang`), the resend countdown and the flash itself change the HTML. A shared
 *   cache would have to key on the whole Cookie header (`Vary: Cookie`), which many caches
 *   ignore or treat as "do not cache", so a `public, max-age=60` page could reach a visitor in
 *   another visitor's language. `private` keeps shared caches out, `max-age=0, must-revalidate`
 *   makes the browser ask again each time (a language change shows at once), and unlike
 *   `no-store` the page stays eligible for the back/forward cache.
 */

/** What a page is and what it showed. */
export interface PageFacts {
  /**
   * the page always shows personal data, or needs a verified contact to show anything: a screen's
   * declaration says so (src/lib/screens/define.ts `personal`); the root and 404 pages do not
   */
  personal: boolean;
  /** true when the page rendered values flashed back from a form post (src/lib/page/flash.ts) */
  flashShown: boolean;
}

export interface PagePolicy {
  /** `Cache-Control` value */
  cacheControl: string;
  /** true: `X-Robots-Tag: noindex` and `<meta name="robots" content="noindex">` */
  noindex: boolean;
}

export const PRIVATE_CACHE_CONTROL = 'private, no-store';
export const PUBLIC_CACHE_CONTROL = 'private, max-age=0, must-revalidate';

/**
 * The cache and index policy of a page.
 * @example pagePolicy({ personal: false, flashShown: true }) // { cacheControl: 'private, no-store', noindex: true }
 */
export function pagePolicy(facts: PageFacts): PagePolicy {
  const personal = facts.personal || facts.flashShown;
  return personal
    ? { cacheControl: PRIVATE_CACHE_CONTROL, noindex: true }
    : { cacheControl: PUBLIC_CACHE_CONTROL, noindex: false };
}

/** The response headers of a policy, lower-case names. */
export function pagePolicyHeaders(policy: PagePolicy): Record<string, string> {
  return {
    'cache-control': policy.cacheControl,
    ...(policy.noindex ? { 'x-robots-tag': 'noindex' } : {}),
  };
}

/** Sets a policy's headers on a response's headers (a page's `Astro.response.headers`). */
export function setPagePolicy(headers: Headers, policy: PagePolicy): void {
  for (const [name, value] of Object.entries(pagePolicyHeaders(policy))) headers.set(name, value);
}
