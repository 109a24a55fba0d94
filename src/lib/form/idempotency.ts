/**
 * One registration per form view (issue: "a double click or retry never creates two
 * registrations"). Each form view renders a random key; after a registration the edge
 * remembers `key → credential path` for 10 minutes in a signed cookie, so a retry of the same
 * post (a reload, a second tap after a slow reply) goes to the same credential without asking
 * the upstream again. Concurrent double posts are caught by the upstream's own identical-repeat
 * rule (the reference answers the first reply again).
 */

import { openJson, signJson } from '../util/signer';

export const IDEM_COOKIE = 'rk';
export const IDEM_MAX_AGE_S = 10 * 60;

/** A form view's key: 22+ URL-safe characters. */
export const IDEM_KEY = /^[A-Za-z0-9_-]{16,64}$/;

/** A fresh key for a form view. */
export function newIdemKey(): string {
  return crypto.randomUUID().replace(/-/g, '');
}

interface Remembered {
  /** the form view's key */
  k: string;
  /** where it led: the credential path */
  l: string;
  /** expiry, seconds since epoch */
  x: number;
}

/** A distinct key label keeps these signatures apart from the verified-contact cookie's. */
const PURPOSE = { key: 'idem|' } as const;

/** The cookie value remembering that `idemKey` led to `location`. `now` in ms. */
export async function rememberResult(
  idemKey: string,
  location: string,
  secret: string,
  now = Date.now(),
): Promise<string> {
  return signJson({ k: idemKey, l: location, x: Math.floor(now / 1000) + IDEM_MAX_AGE_S } satisfies Remembered, secret, PURPOSE);
}

/** Where `idemKey` led, if the cookie remembers it (signed, unexpired, same key); else null. */
export async function recalledResult(
  cookie: string | null | undefined,
  idemKey: string,
  secret: string,
  now = Date.now(),
): Promise<string | null> {
  if (!cookie || !IDEM_KEY.test(idemKey)) return null;
  const r = await openJson(cookie, secret, PURPOSE);
  if (!r || r['k'] !== idemKey || typeof r['l'] !== 'string' || typeof r['x'] !== 'number' || r['x'] * 1000 <= now) return null;
  return r['l'];
}
