/**
 * The one signer of the edge's own values: HMAC-SHA-256 with SESSION_SECRET, written in
 * base64url, checked by `crypto.subtle.verify` (a constant-time comparison in Node and in
 * workerd). Used by the verified-contact cookie, the friction cookies (binding, wait ticket),
 * the form idempotency cookie, the pledge ticket and cookie, and the signed seat results.
 *
 * Each use keeps its signatures apart from every other use of the same secret with a
 * `purpose`: a prefix of the signed text (`bind.`, `pledged:`), or, for the idempotency cookie,
 * of the key (`idem|`). The prefixes are the ones each value has always been signed with, so a
 * cookie signed before this module existed still verifies.
 *
 * Three levels: {@link mac}/{@link macMatches} sign any text; {@link signToken}/{@link openToken}
 * make and open `body.sig` tokens; {@link signJson}/{@link openJson} do the same with a JSON
 * payload as the base64url body. Expiry is the payload's own business (each names its field).
 * Pure: Web Crypto only. No module-level `new`: an island imports modules that import this one,
 * and a top-level statement with a side effect would ship.
 */
import { fromBase64url, jsonFromBase64url, jsonToBase64url, toBase64url } from './base64url';

/** The shortest SESSION_SECRET the edge accepts. */
export const MIN_SECRET_LENGTH = 16;

/** Keeps one use's signatures apart from the others' (see the module comment). */
export interface Purpose {
  /** put before the signed text */
  text?: string;
  /** put before the secret to make the key */
  key?: string;
}

async function hmacKey(secret: string, keyPrefix: string): Promise<CryptoKey> {
  if (secret.length < MIN_SECRET_LENGTH) throw new Error(`SESSION_SECRET must be at least ${MIN_SECRET_LENGTH} characters`);
  const raw = new TextEncoder().encode(`${keyPrefix}${secret}`);
  return crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
}

/**
 * The MAC of `text` (after the purpose's prefix), in base64url. Throws when the secret is shorter
 * than {@link MIN_SECRET_LENGTH}.
 */
export async function mac(secret: string, text: string, purpose: Purpose = {}): Promise<string> {
  const key = await hmacKey(secret, purpose.key ?? '');
  const sig = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${purpose.text ?? ''}${text}`));
  return toBase64url(new Uint8Array(sig));
}

/** Whether `sig` (base64url) is the MAC of `text` for this purpose; false for anything malformed. */
export async function macMatches(secret: string, text: string, sig: string, purpose: Purpose = {}): Promise<boolean> {
  const sigBytes = fromBase64url(sig);
  if (!sigBytes || sigBytes.length === 0) return false;
  const key = await hmacKey(secret, purpose.key ?? '');
  return crypto.subtle.verify('HMAC', key, sigBytes, new TextEncoder().encode(`${purpose.text ?? ''}${text}`));
}

/** `body.sig`: the body as given, then its MAC ({@link openToken} reads only a body without a dot). */
export async function signToken(body: string, secret: string, purpose: Purpose = {}): Promise<string> {
  return `${body}.${await mac(secret, body, purpose)}`;
}

/** How a token is read: the purpose it was signed for, and the longest value worth reading. */
export interface OpenOptions extends Purpose {
  maxLength?: number;
}

/**
 * The body of a `body.sig` token whose signature holds; null when missing, too long, not two
 * parts, or forged (tampered, another secret, another purpose, truncated).
 */
export async function openToken(value: string | null | undefined, secret: string, options: OpenOptions = {}): Promise<string | null> {
  if (!value || (options.maxLength !== undefined && value.length > options.maxLength)) return null;
  const [body, sig, extra] = value.split('.');
  if (!body || !sig || extra !== undefined) return null;
  return (await macMatches(secret, body, sig, options)) ? body : null;
}

/** A JSON payload as a token: base64url(JSON) then its MAC. */
export async function signJson(payload: object, secret: string, purpose: Purpose = {}): Promise<string> {
  return signToken(jsonToBase64url(payload), secret, purpose);
}

/**
 * The payload of a {@link signJson} token: an object when the signature holds and the body is
 * base64url JSON of an object; null otherwise. The caller checks the fields (and any expiry).
 */
export async function openJson(
  value: string | null | undefined,
  secret: string,
  options: OpenOptions = {},
): Promise<Record<string, unknown> | null> {
  const body = await openToken(value, secret, options);
  const p = body === null ? undefined : jsonFromBase64url(body);
  return typeof p === 'object' && p !== null && !Array.isArray(p) ? (p as Record<string, unknown>) : null;
}
