/**
 * One registration per form view (issue: "a double click or retry never creates two
 * registrations"). Each form view renders a random key; after a registration the edge
 * remembers `key → credential path` for 10 minutes in a signed cookie, so a retry of the same
 * post (a reload, a second tap after a slow reply) goes to the same credential without asking
 * the upstream again. Concurrent double posts are caught by the upstream's own identical-repeat
 * rule (the reference answers the first reply again).
 */

import { fromBase64url, toBase64url } from '../util/base64url';

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

const enc = new TextEncoder();

async function key(secret: string): Promise<CryptoKey> {
  if (secret.length < 16) throw new Error('SESSION_SECRET must be at least 16 characters');
  // A distinct label keeps these signatures apart from the verified-contact cookie's.
  return crypto.subtle.importKey('raw', enc.encode(`idem|${secret}`), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
}

/** The cookie value remembering that `idemKey` led to `location`. `now` in ms. */
export async function rememberResult(
  idemKey: string,
  location: string,
  secret: string,
  now = Date.now(),
): Promise<string> {
  const body = toBase64url(
    enc.encode(
      JSON.stringify({ k: idemKey, l: location, x: Math.floor(now / 1000) + IDEM_MAX_AGE_S } satisfies Remembered),
    ),
  );
  const sig = new Uint8Array(await crypto.subtle.sign('HMAC', await key(secret), enc.encode(body)));
  return `${body}.${toBase64url(sig)}`;
}

/** Where `idemKey` led, if the cookie remembers it (signed, unexpired, same key); else null. */
export async function recalledResult(
  cookie: string | null | undefined,
  idemKey: string,
  secret: string,
  now = Date.now(),
): Promise<string | null> {
  if (!cookie || !IDEM_KEY.test(idemKey)) return null;
  const [body, sig, extra] = cookie.split('.');
  if (!body || !sig || extra !== undefined) return null;
  const sigBytes = fromBase64url(sig);
  const bytes = fromBase64url(body);
  if (!sigBytes || !bytes) return null;
  if (!(await crypto.subtle.verify('HMAC', await key(secret), sigBytes, enc.encode(body)))) return null;
  try {
    const r = JSON.parse(new TextDecoder().decode(bytes)) as Partial<Remembered>;
    if (r.k !== idemKey || typeof r.l !== 'string' || typeof r.x !== 'number' || r.x * 1000 <= now) return null;
    return r.l;
  } catch {
    return null;
  }
}
