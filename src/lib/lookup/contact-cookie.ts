/**
 * The verified-contact cookie (DESIGN.md "Verified contact is a signed cookie"):
 * `{expoId, contact, checkType}` proven by a one-time code, signed with HMAC-SHA-256.
 * Server-rendered pages that need the verified contact read it; nothing else can forge it.
 *
 * Two windows: what the lookup found (lookup, list, credential, ticket pages) is
 * readable for 10 minutes after the proof (`exp`); registering gets a longer window (`fexp`),
 * opened by each render of a registration form: {@link FORM_WINDOW_S} from that render, never
 * later than {@link FORM_WINDOW_CAP_S} after the proof. A visitor who needs 25 minutes for the
 * form is not sent back to the lookup in the middle of it.
 */

import { openJson, signJson } from '../util/signer';

export const CONTACT_COOKIE = 'vc';
export const CONTACT_COOKIE_MAX_AGE_S = 10 * 60;
/** How long a registration form may stay open: each render of the form opens this window. */
export const FORM_WINDOW_S = 30 * 60;
/** The form window never ends later than this after the proof: a form left open cannot stretch a proof for ever. */
export const FORM_WINDOW_CAP_S = 2 * 60 * 60;
/**
 * How long the browser keeps the cookie after its form window: long enough for a post after the
 * window to be told "your confirmation expired" with its contact filled in on the lookup,
 * instead of a bare lookup. Such a cookie proves nothing (every use checks the signed times).
 */
export const EXPIRED_KEEP_S = 60 * 60;

/** What the cookie is used for: reading what the lookup found, or registering on a form page. */
export type ContactUse = 'read' | 'register';

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
   * holds them already): the only ones a repair or supplement form may pre-fill from (never
   * a code typed into a URL). At most {@link MAX_CODES}.
   */
  codes?: string[];
  /**
   * Set when no code was proven: the fixed bypass of spec §2.2 (site 10542). Such a cookie
   * shows what the lookup found and nothing more: it never registers, updates or pre-fills
   *.
   */
  bypass?: true;
}

/** Most registration codes a cookie remembers (a contact with more sees the first ones on forms). */
export const MAX_CODES = 20;

/**
 * The cookie's contact when it proves a contact of `expoId`: same expo, and not a bypass
 * lookup (spec §2.2), which proved nothing and may never register, pre-fill or open ticket
 * pages. Null otherwise.
 */
export function provenFor(vc: VerifiedContact | null, expoId: number): VerifiedContact | null {
  return vc !== null && vc.expoId === expoId && vc.bypass !== true ? vc : null;
}

/** The registration codes the verified contact's own lookup found (`codes`, or the list's). */
export function ownCodes(vc: VerifiedContact | null): string[] {
  return vc?.codes ?? vc?.list?.map((entry) => entry.e) ?? [];
}

/**
 * Whether the credential page of `euCode` may show its personal details (name, company, wallet
 * passes) to this cookie (README "Who may read or change a registration"): the
 * code must be one this contact's own lookup found (or its form just registered) on that expo,
 * within the cookie's 10-minute read window. The registration code and its QR need no cookie:
 * the link carries the code, and the gate needs nothing else. A bypass lookup of spec §2.2
 * reads what it found, as on the list.
 * @example readsCredential({ expoId: 1308, contact: 'a@b.co', checkType: 2, codes: ['ABC'] }, { expoId: 1308, euCode: 'ABC' }) // true
 */
export function readsCredential(vc: VerifiedContact | null, p: { expoId: number; euCode: string }): boolean {
  return vc !== null && vc.expoId === p.expoId && ownCodes(vc).includes(p.euCode);
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
  /** end of the read window (s since the epoch): proof + 10 minutes */
  exp: number;
  /** end of the form window (s), when a form page opened one */
  fexp?: number;
}

/** A cookie's signed payload, whatever its times; null when missing, forged or malformed. */
async function readPayload(value: string | null | undefined, secret: string): Promise<Payload | null> {
  const p = await openJson(value, secret);
  return isPayload(p) ? p : null;
}

/** Signs a verified contact; the value goes into the `vc` cookie. `now` in ms. */
export async function signContact(contact: VerifiedContact, secret: string, now = Date.now()): Promise<string> {
  return signJson({ ...contact, exp: Math.floor(now / 1000) + CONTACT_COOKIE_MAX_AGE_S }, secret);
}

/** The end (s) of the window a use may rely on. */
function windowEnd(p: Payload, use: ContactUse): number {
  return use === 'register' ? Math.max(p.exp, p.fexp ?? 0) : p.exp;
}

function contactOf(p: Payload): VerifiedContact {
  const { exp: _exp, fexp: _fexp, ...contact } = p;
  return contact;
}

/**
 * Verifies a cookie value for a use; null when missing, forged, malformed or expired for that
 * use: `read` (default) is the 10 minutes after the proof, `register` also the form window.
 */
export async function verifyContact(
  value: string | null | undefined,
  secret: string,
  now = Date.now(),
  use: ContactUse = 'read',
): Promise<VerifiedContact | null> {
  const p = await readPayload(value, secret);
  return p && windowEnd(p, use) * 1000 > now ? contactOf(p) : null;
}

/**
 * A genuine cookie whose registration window has passed: the contact it once proved, so that a
 * form post after it can say so and fill the contact in on the lookup. Null for a
 * valid, missing, forged or malformed cookie. It proves nothing: never use it to read or write.
 */
export async function expiredContact(value: string | null | undefined, secret: string, now = Date.now()): Promise<VerifiedContact | null> {
  return lapsedContact(value, secret, now, 'register');
}

/**
 * A genuine cookie whose window for `use` has passed (`read`: the 10 minutes after the proof;
 * `register`: the form window too): the contact it once proved, so that the page it no longer
 * opens can say so (issue 30). Null for a cookie that holds for `use`, or a missing, forged or
 * malformed one. It proves nothing: never use it to read or write.
 */
export async function lapsedContact(value: string | null | undefined, secret: string, now: number, use: ContactUse): Promise<VerifiedContact | null> {
  const p = await readPayload(value, secret);
  return p && windowEnd(p, use) * 1000 <= now ? contactOf(p) : null;
}

/**
 * The lookup values that name a contact again (`checkType` and the e-mail, or the area code and
 * the national number), so the lookup opens with it filled in: what a form or order post does
 * with an {@link expiredContact}.
 * @example lookupValues({ expoId: 1308, contact: '+66812345678', checkType: 1, areaCode: '+66' }) // { checkType: '1', areaCode: '+66', phone: '812345678' }
 */
export function lookupValues(vc: VerifiedContact): Record<string, string> {
  if (vc.checkType === 2) return { checkType: '2', email: vc.contact };
  const area = vc.areaCode ?? '';
  const phone = area !== '' && vc.contact.startsWith(area) ? vc.contact.slice(area.length) : vc.contact;
  return { checkType: '1', areaCode: area, phone };
}

/** A re-signed cookie and the browser's life for it. */
type Resigned = { value: string; maxAge: number };

/**
 * Re-signs a cookie that holds for registering now (not a bypass) with what `change` makes of
 * its payload (`nowS` in seconds); null otherwise.
 */
async function resign(
  value: string | null | undefined,
  secret: string,
  now: number,
  change: (p: Payload, nowS: number) => { payload: Payload; maxAge: number },
): Promise<Resigned | null> {
  const nowS = Math.floor(now / 1000);
  const p = await readPayload(value, secret);
  if (!p || windowEnd(p, 'register') <= nowS || p.bypass === true) return null;
  const next = change(p, nowS);
  return { value: await signJson(next.payload, secret), maxAge: next.maxAge };
}

/**
 * Opens the form window on a registration form's render: the cookie re-signed with
 * `fexp` = now + {@link FORM_WINDOW_S}, capped at {@link FORM_WINDOW_CAP_S} after the proof; the
 * read window (`exp`) is unchanged. `maxAge` is the browser's life for it (the window plus
 * {@link EXPIRED_KEEP_S}). Null when the cookie does not hold for registering now.
 */
export function openFormWindow(value: string | null | undefined, secret: string, now = Date.now()): Promise<Resigned | null> {
  return resign(value, secret, now, (p, nowS) => {
    const proof = p.exp - CONTACT_COOKIE_MAX_AGE_S;
    const fexp = Math.max(p.fexp ?? 0, Math.min(nowS + FORM_WINDOW_S, proof + FORM_WINDOW_CAP_S));
    return { payload: { ...p, fexp }, maxAge: fexp - nowS + EXPIRED_KEEP_S };
  });
}

/**
 * Adds a registration code to the cookie's own codes: the registration a form
 * just made belongs to the contact that proved itself for that form, so its credential page shows
 * that visitor's details. The windows (`exp`, `fexp`) are kept; the oldest codes make room past
 * {@link MAX_CODES}. Null when the cookie does not hold for registering now, or is a bypass.
 */
export function addOwnCode(value: string | null | undefined, secret: string, euCode: string, now = Date.now()): Promise<Resigned | null> {
  return resign(value, secret, now, (p, nowS) => {
    const codes = [...ownCodes(contactOf(p)).filter((c) => c !== euCode), euCode].slice(-MAX_CODES);
    return { payload: { ...p, codes }, maxAge: windowEnd(p, 'register') - nowS + EXPIRED_KEEP_S };
  });
}

function isPayload(p: unknown): p is Payload {
  if (typeof p !== 'object' || p === null) return false;
  const o = p as Record<string, unknown>;
  return (
    typeof o['expoId'] === 'number' &&
    typeof o['contact'] === 'string' &&
    (o['checkType'] === 1 || o['checkType'] === 2) &&
    typeof o['exp'] === 'number' &&
    (o['fexp'] === undefined || typeof o['fexp'] === 'number') &&
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
