/**
 * Where a form post may send the visitor back to: only a path on this site, never another
 * origin (an open redirect would let a crafted link bounce visitors to a phishing page).
 */

/**
 * Returns a same-origin path (with query) for `candidate`, or null.
 * Accepts a relative path ("/a/b?c") or an absolute URL on `origin`.
 * @example safeBackPath('https://evil.example/x', 'https://expo.example') // null
 */
export function safeBackPath(candidate: string | null | undefined, origin: string): string | null {
  if (!candidate) return null;
  const text = candidate.trim();
  if (text.length > MAX_REDIRECT_PATH) return null;
  // "//host" and "/\host" are protocol-relative to browsers: another site.
  if (text === '' || text.startsWith('//') || text.startsWith('/\\')) return null;
  let url: URL;
  try {
    url = new URL(text, origin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin) return null;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const path = `${url.pathname}${url.search}`;
  // `/.//evil.com` and `https://site//evil.com` resolve to the path `//evil.com`, which a
  // browser reads as another host: check what comes out, not what went in.
  return isSafeRedirectPath(path) && path.length <= MAX_REDIRECT_PATH ? path : null;
}

/** Longest redirect target kept: a Location header must stay well under proxies' header limits. */
export const MAX_REDIRECT_PATH = 2048;

/**
 * Whether a redirect target is a path on this site: one `/` followed by neither `/` nor `\`,
 * and no control characters (browsers drop tabs and newlines, turning `/\t/evil` into `//evil`).
 * @example isSafeRedirectPath('/a?b') // true
 * @example isSafeRedirectPath('//evil.com') // false
 */
export function isSafeRedirectPath(path: string): boolean {
  return /^\/(?![/\\])/.test(path) && !/[\u0000-\u001f\u007f]/.test(path);
}

/** First of `candidates` that is a same-origin path, else `fallback`. */
export function pickBackPath(candidates: ReadonlyArray<string | null | undefined>, origin: string, fallback = '/'): string {
  for (const c of candidates) {
    const p = safeBackPath(c, origin);
    if (p) return p;
  }
  return fallback;
}

/** Only http/https links may be followed (spec §2.5 banner jump links, spec §5). */
export function isHttpUrl(link: string | null | undefined): boolean {
  if (!link) return false;
  return /^https?:\/\//i.test(link.trim());
}
