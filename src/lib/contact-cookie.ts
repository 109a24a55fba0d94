/**
 * The verified-contact cookie (DESIGN.md "Verified contact is a signed cookie"):
 * `{expoId, contact, checkType}` proven by a one-time code, signed with HMAC-SHA-256,
 * valid 10 minutes. Server-rendered pages that need the verified contact read it; nothing
 * else can forge it.
 */

import { fromBase64url, toBase64url } from './base64url';

export const CONTACT_COOKIE = 'vc';
export const CONTACT_COOKIE_MAX_AGE_S = 10 * 60;

export interface VerifiedContact {
  expoId: number;
  /** the e-mail, or the full phone (E.164) */
  contact: string;
  /** 1 phone, 2 e-mail (spec §2.1) */
  checkType: 1 | 2;
  /** area code for phone contacts, e.g. "+66" (spec §3 session key areatext) */
  areaCode?: string;
  /** 20003: the second form to complete (spec §4; userId and urlsId) */
  secondForm?: { userId: number; urlsId: number };
  /** several matches: the list the /applyList page shows without JavaScript (spec §2.3) */
  list?: ListEntry[];
  /**
   * The registration codes the lookup found for this contact, when there is no `list` (which
   * holds them already): the only ones a repair or supplement form may pre-fill from (issue 9
   * hole 12). At most {@link MAX_CODES}.
   */
  codes?: string[];
  /**
   * Set when no code was proven: the fixed bypass of spec §2.2 (site 10542). Such a cookie
   * shows what the lookup found and nothing more: it never registers, updates or pre-fills
   * (issue 9 hole 10).
   */
  bypass?: true;
}

/** Most registration codes a cookie remembers (a contact with more sees the first ones on forms). */
export const MAX_CODES = 20;

/**
 * The cookie's contact when it proves a contact of `expoId`: same expo, and not a bypass
 * lookup (spec §2.2), which proved nothing and may never register, pre-fill or open ticket
 * pages (issue 9 hole 10). Null otherwise.
 */
export function provenFor(vc: VerifiedContact | null, expoId: number): VerifiedContact | null {
  return vc !== null && vc.expoId === expoId && vc.bypass !== true ? vc : null;
}

/** The registration codes the verified contact's own lookup found (`codes`, or the list's). */
export function ownCodes(vc: VerifiedContact | null): string[] {
  return vc?.codes ?? vc?.list?.map((entry) => entry.e) ?? [];
}

/** A registration as the selection list needs it; short keys keep the cookie small. */
export interface ListEntry {
  /** euCode */
  e: string;
  /** name */
  n: string;
  /** euClass */
  c: number | null;
  /** euDefine */
  d: string | null;
  /** ticketName */
  t: string | null;
}

interface Payload extends VerifiedContact {
  exp: number;
}

const encoder = new TextEncoder();

async function hmacKey(secret: string): Promise<CryptoKey> {
  if (secret.length < 16) throw new Error('SESSION_SECRET must be at least 16 characters');
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
}

/** Signs a verified contact; the value goes into the `vc` cookie. `now` in ms. */
export async function signContact(contact: VerifiedContact, secret: string, now = Date.now()): Promise<string> {
  const payload: Payload = { ...contact, exp: Math.floor(now / 1000) + CONTACT_COOKIE_MAX_AGE_S };
  const body = toBase64url(encoder.encode(JSON.stringify(payload)));
  const sig = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(body)));
  return `${body}.${toBase64url(sig)}`;
}

/** Verifies a cookie value; null when missing, forged, malformed or expired. */
export async function verifyContact(value: string | null | undefined, secret: string, now = Date.now()): Promise<VerifiedContact | null> {
  if (!value) return null;
  const [body, sig, extra] = value.split('.');
  if (!body || !sig || extra !== undefined) return null;
  const sigBytes = fromBase64url(sig);
  if (!sigBytes) return null;
  const ok = await crypto.subtle.verify('HMAC', await hmacKey(secret), sigBytes, encoder.encode(body));
  if (!ok) return null;
  const bytes = fromBase64url(body);
  if (!bytes) return null;
  let p: unknown;
  try {
    p = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null;
  }
  if (!isPayload(p) || p.exp * 1000 <= now) return null;
  const { exp: _exp, ...contact } = p;
  return contact;
}

function isPayload(p: unknown): p is Payload {
  if (typeof p !== 'object' || p === null) return false;
  const o = p as Record<string, unknown>;
  return (
    typeof o['expoId'] === 'number' &&
    typeof o['contact'] === 'string' &&
    (o['checkType'] === 1 || o['checkType'] === 2) &&
    typeof o['exp'] === 'number' &&
    (o['areaCode'] === undefined || typeof o['areaCode'] === 'string') &&
    (o['secondForm'] === undefined || isSecondForm(o['secondForm'])) &&
    (o['list'] === undefined || (Array.isArray(o['list']) && o['list'].every(isListEntry))) &&
    (o['codes'] === undefined ||
      (Array.isArray(o['codes']) && o['codes'].length <= MAX_CODES && o['codes'].every((x) => typeof x === 'string'))) &&
    (o['bypass'] === undefined || o['bypass'] === true)
  );
}

function isSecondForm(x: unknown): x is { userId: number; urlsId: number } {
  if (typeof x !== 'object' || x === null) return false;
  const o = x as Record<string, unknown>;
  return Number.isSafeInteger(o['userId']) && Number.isSafeInteger(o['urlsId']);
}

function isListEntry(x: unknown): x is ListEntry {
  if (typeof x !== 'object' || x === null) return false;
  const o = x as Record<string, unknown>;
  const strOrNull = (v: unknown) => v === null || typeof v === 'string';
  return typeof o['e'] === 'string' && typeof o['n'] === 'string' && (o['c'] === null || typeof o['c'] === 'number') && strOrNull(o['d']) && strOrNull(o['t']);
}
