/**
 * Friction instead of refusal, as pure rules: the signed binding
 * cookie that ties a code to the browser that asked for it (ASVS 6.6.2), the signed wait
 * ticket a sender without JavaScript redeems after a few seconds, the challenge settings
 * (Cloudflare Turnstile) read from the Worker's variables, and the operator's half-budget
 * alert. The counting is functions/limits; the rules of what is counted are ./limits.ts.
 * Pure: WebCrypto only, no Astro, React or Hono.
 */
import { toBase64url } from '../util/base64url';
import { openJson, signJson } from '../util/signer';
import { limitKeyForLog } from './limits';

/** The binding cookie: the contact and expo the browser was last sent a code for, and its nonce. */
export const BIND_COOKIE = 'bind';
/** As long as the per-browser send budget's window: the browser keeps its own budget for the hour. */
export const BIND_MAX_AGE_S = 3600;
/** The wait ticket cookie (no-JavaScript challenge). */
export const TICKET_COOKIE = 'wt';
/** A ticket is redeemable from its `nb` for this long; then the sender asks for a new one. */
export const TICKET_LIFE_S = 10 * 60;

/** What the binding cookie says. */
export interface Binding {
  /** the contact key (./limits.ts contactKey) */
  c: string;
  /** the expo */
  e: number;
  /** a random nonce: the browser's own send budget is counted under it */
  n: string;
  /**
   * the shared-budget hits of the sends to this browser, `[key, id]`, given back when their
   * code is verified (README "Abuse limits": the budgets count unverified sends); at most
   * {@link MAX_BOUND_HITS}, the newest
   */
  h?: [string, number][];
  /** expiry, epoch seconds */
  exp: number;
}

/** The most send hits a binding carries (a few sends' budgets; the cookie stays small). */
export const MAX_BOUND_HITS = 12;

/** What a wait ticket says: bound to the client address and the contact, redeemable from `nb`. */
export interface WaitTicket {
  /** the client key (./limits.ts Client.key) */
  a: string;
  c: string;
  e: number;
  n: string;
  /** not before, epoch seconds */
  nb: number;
  exp: number;
}

/** Signs a payload for one purpose: a binding is never accepted as a ticket, nor the reverse. */
function sign(kind: 'bind' | 'wait', payload: object, secret: string): Promise<string> {
  return signJson(payload, secret, { text: `${kind}.` });
}

function read(kind: 'bind' | 'wait', value: string | null | undefined, secret: string): Promise<Record<string, unknown> | null> {
  return openJson(value, secret, { text: `${kind}.`, maxLength: 1000 });
}

const str = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 400;
const int = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/** A fresh nonce (128 random bits). */
export function newNonce(): string {
  return toBase64url(crypto.getRandomValues(new Uint8Array(16)));
}

/** The binding cookie's value for a send to `contact` on `expoId`. `now` in ms. */
export function signBinding(b: Omit<Binding, 'exp'>, secret: string, now = Date.now()): Promise<string> {
  return sign('bind', { ...b, exp: Math.floor(now / 1000) + BIND_MAX_AGE_S }, secret);
}

/** The binding a cookie holds, or null when missing, forged, malformed or expired. */
export async function readBinding(value: string | null | undefined, secret: string, now = Date.now()): Promise<Binding | null> {
  const p = await read('bind', value, secret);
  if (!p || !str(p['c']) || !int(p['e']) || !str(p['n']) || !int(p['exp'])) return null;
  if (p['exp'] <= Math.floor(now / 1000)) return null;
  const h = boundHits(p['h']);
  return { c: p['c'], e: p['e'], n: p['n'], ...(h.length > 0 ? { h } : {}), exp: p['exp'] };
}

/** The hits a binding carries, read defensively (anything else is none). */
function boundHits(v: unknown): [string, number][] {
  if (!Array.isArray(v)) return [];
  return v
    .filter((x): x is [string, number] => Array.isArray(x) && x.length === 2 && str(x[0]) && int(x[1]))
    .slice(-MAX_BOUND_HITS);
}

/**
 * True when the binding was made for this contact on this expo: a code may then be checked
 * from this browser, and its sends count against its own budget.
 */
export function bindingMatches(b: Binding | null, contactKey: string, expoId: number): b is Binding {
  return b !== null && b.c === contactKey && b.e === expoId;
}

/** A new wait ticket for a sender without a challenge pass: redeemable `waitS` seconds from now. */
export function signTicket(t: Omit<WaitTicket, 'nb' | 'exp'>, waitS: number, secret: string, now = Date.now()): Promise<string> {
  const nb = Math.floor(now / 1000) + waitS;
  return sign('wait', { ...t, nb, exp: nb + TICKET_LIFE_S }, secret);
}

/** A ticket's contents, or null when missing, forged, malformed or expired (early is not null: see {@link ticketWaitS}). */
export async function readTicket(value: string | null | undefined, secret: string, now = Date.now()): Promise<WaitTicket | null> {
  const p = await read('wait', value, secret);
  if (!p || !str(p['a']) || !str(p['c']) || !int(p['e']) || !str(p['n']) || !int(p['nb']) || !int(p['exp'])) return null;
  if (p['exp'] <= Math.floor(now / 1000)) return null;
  return { a: p['a'], c: p['c'], e: p['e'], n: p['n'], nb: p['nb'], exp: p['exp'] };
}

/** True when the ticket was issued to this client address for this contact and expo. */
export function ticketFits(t: WaitTicket | null, s: { client: string; contactKey: string; expoId: number }): t is WaitTicket {
  return t !== null && t.a === s.client && t.c === s.contactKey && t.e === s.expoId;
}

/** Seconds until the ticket may be redeemed; 0 when it may be now. */
export function ticketWaitS(t: WaitTicket, now = Date.now()): number {
  return Math.max(0, t.nb - Math.floor(now / 1000));
}

/** The challenge settings (README "Configuration"). */
export interface ChallengeConfig {
  /** Turnstile site key; null: no widget, the wait ticket is the only challenge */
  siteKey: string | null;
  /** Turnstile secret for siteverify; null: no widget */
  secret: string | null;
  /** where siteverify is asked (TURNSTILE_VERIFY_URL; tests point it at a fake verifier) */
  verifyUrl: string;
  /** the widget's script (TURNSTILE_SCRIPT_URL) */
  scriptUrl: string;
  /** seconds a wait ticket makes the sender wait (CHALLENGE_WAIT_S) */
  waitS: number;
}

export const TURNSTILE_VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';
export const TURNSTILE_SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js';
/** Default wait of the no-JavaScript challenge: long for a script sending hundreds, short for one visitor. */
export const DEFAULT_WAIT_S = 20;
/** The longest wait an operator may set: a ticket must stay redeemable within its life. */
export const MAX_WAIT_S = 300;

const httpsUrl = (v: string | undefined, fallback: string): string => {
  const text = (v ?? '').trim();
  if (!text) return fallback;
  try {
    const u = new URL(text);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : fallback;
  } catch {
    return fallback;
  }
};

/**
 * Reads the challenge variables: TURNSTILE_SITE_KEY with TURNSTILE_SECRET (both, or no
 * widget), TURNSTILE_VERIFY_URL and TURNSTILE_SCRIPT_URL (defaults: Cloudflare's), and
 * CHALLENGE_WAIT_S (whole seconds 1-300, default 20).
 * @example challengeConfig({}).siteKey // null
 */
export function challengeConfig(vars: {
  TURNSTILE_SITE_KEY?: string | undefined;
  TURNSTILE_SECRET?: string | undefined;
  TURNSTILE_VERIFY_URL?: string | undefined;
  TURNSTILE_SCRIPT_URL?: string | undefined;
  CHALLENGE_WAIT_S?: string | undefined;
}): ChallengeConfig {
  const siteKey = (vars.TURNSTILE_SITE_KEY ?? '').trim();
  const secret = (vars.TURNSTILE_SECRET ?? '').trim();
  const both = siteKey !== '' && secret !== '';
  const wait = String(vars.CHALLENGE_WAIT_S ?? '').trim();
  const waitS = /^\d{1,3}$/.test(wait) && Number(wait) >= 1 && Number(wait) <= MAX_WAIT_S ? Number(wait) : DEFAULT_WAIT_S;
  return {
    siteKey: both ? siteKey : null,
    secret: both ? secret : null,
    verifyUrl: httpsUrl(vars.TURNSTILE_VERIFY_URL, TURNSTILE_VERIFY_URL),
    scriptUrl: httpsUrl(vars.TURNSTILE_SCRIPT_URL, TURNSTILE_SCRIPT_URL),
    waitS,
  };
}

/** The half-budget alert: one structured line, and the webhook's body. */
export interface BudgetAlert {
  event: 'limits.halfBudget';
  /** the limiter key as a log may write it (limits.ts limitKeyForLog): `send:expo:2002`, `send:area:2002:+44`, `send:country:+44` */
  key: string;
  limit: number;
  windowS: number;
  at: string;
}

/** @example budgetAlert({ key: 'send:expo:1', limit: 1000, windowMs: 3_600_000 }, 0).windowS // 3600 */
export function budgetAlert(rule: { key: string; limit: number; windowMs: number }, now: number): BudgetAlert {
  return { event: 'limits.halfBudget', key: limitKeyForLog(rule.key), limit: rule.limit, windowS: rule.windowMs / 1000, at: new Date(now).toISOString() };
}
