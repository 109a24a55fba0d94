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
  return `${url.pathname}${url.search}`;
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
