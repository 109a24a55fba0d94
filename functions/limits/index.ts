/**
 * The abuse limits' glue (README "Security" > "Abuse limits"): the edge API asks
 * here before it calls the upstream. The rules are src/lib/security/limits.ts; the counts live in the
 * `LIMITS` Durable Object (./limiter.ts), one call per request.
 *
 * If the counter cannot be reached the request is refused (fail closed): an unlimited
 * send-code endpoint is exactly what the limits exist to prevent, and the refusal says to
 * try again later.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../env';
import type { CookieWrite } from '../../src/lib/actions/outcome';
import type { LimitRefusal, LookupLimits, SendCheck, SendCount } from '../../src/lib/actions/limits';
import {
  clientOfHeader,
  contactKey,
  limitMessage,
  parseNetworks,
  lookupRules,
  parseLimits,
  purchaseRules,
  registerRules,
  sendRules,
  seatRules,
  shareRules,
  wrongCodeKey,
  type Client,
  type LimitRule,
  type Limits,
  type PurchaseSubject,
  type Network,
  type SendSubject,
} from '../../src/lib/security/limits';
import {
  budgetAlert,
  challengeConfig,
  newNonce,
  readTicket,
  signTicket,
  ticketFits,
  ticketWaitS,
  TICKET_COOKIE,
  TICKET_LIFE_S,
  type ChallengeConfig,
} from '../../src/lib/security/friction';
import { getCookie } from 'hono/cookie';
import { waitUntilOf } from '../wait-until';
import type { HitResult } from './limiter';
import type { VerifiedContact } from '../../src/lib/lookup/contact-cookie';
import { nationalOf } from '../../src/lib/form/contact';

type Ctx = Context<{ Bindings: AppEnv }>;

/** The one counter object every isolate asks (a name, so every isolate reaches the same one). */
export const LIMITER_NAME = 'global';

export type { LimitRefusal, LookupLimits, SendCheck } from '../../src/lib/actions/limits';

interface Settings {
  limits: Limits;
  trusted: Network[];
  challenge: ChallengeConfig;
}
const parsed = new WeakMap<object, Settings>();

/** The limits, trusted networks and challenge settings of an env, read once per env object (a bad variable warns once). */
function settingsOf(env: AppEnv): Settings {
  let s = parsed.get(env);
  if (!s) {
    const warn = (message: string) => console.warn(`abuse limits: ${message}`);
    s = { limits: parseLimits(env, warn), trusted: parseNetworks(env.TRUSTED_NETWORKS, warn), challenge: challengeConfig(env) };
    parsed.set(env, s);
  }
  return s;
}

/** The limits of an env, read once per env object (a bad variable warns once, not per request). */
export function limitsOf(env: AppEnv): Limits {
  return settingsOf(env).limits;
}

/** The challenge settings of an env (Turnstile, the wait ticket's seconds). */
export function challengeOf(env: AppEnv): ChallengeConfig {
  return settingsOf(env).challenge;
}

/** The client the request is counted as (`CF-Connecting-IP`, its /56 and /48, trusted or not; README "Abuse limits"). */
export function clientOf(c: Ctx): Client {
  return clientOfRequest(c.env, c.req.raw);
}

/** {@link clientOf} for code outside a Hono handler (the page loader's credential lookup). */
export function clientOfRequest(env: AppEnv, request: Request): Client {
  return clientOfHeader(request.headers.get('cf-connecting-ip'), settingsOf(env).trusted);
}

type Counted =
  | { refusal: LimitRefusal; friction: boolean; ids?: undefined }
  | { refusal: null; friction: false; ids: Record<string, number> };

/**
 * Tells the operator a shared budget is half spent: a structured
 * `console.warn` line (once per window, the limiter decides) and, when ALERT_WEBHOOK_URL is
 * set, a JSON POST to it after the response. A failing webhook is logged, never the visitor's problem.
 */
function alertOperator(c: Ctx, rules: LimitRule[]): void {
  for (const rule of rules) {
    const alert = budgetAlert(rule, Date.now());
    console.warn(JSON.stringify(alert));
    const url = (c.env.ALERT_WEBHOOK_URL ?? '').trim();
    if (!url) continue;
    const post = fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(alert),
      signal: AbortSignal.timeout(5000),
    })
      .then((res) => {
        if (!res.ok) console.error(`abuse limits: ALERT_WEBHOOK_URL answered ${res.status}`);
      })
      .catch((e: unknown) => console.error('abuse limits: ALERT_WEBHOOK_URL could not be reached', e));
    const waitUntil = waitUntilOf(c);
    if (waitUntil) waitUntil(post);
  }
}

async function count(c: Ctx, kind: 'send' | 'lookup', rules: LimitRule[], challenged = false): Promise<Counted> {
  if (rules.length === 0) return { refusal: null, friction: false, ids: {} };
  let result: HitResult;
  try {
    result = await c.env.LIMITS.getByName(LIMITER_NAME).hit(rules, Date.now(), { challenged });
  } catch (e) {
    console.error('abuse limits: the LIMITS Durable Object could not be reached; refusing the request', e);
    return { refusal: { status: 503, retryAfterS: null, ...limitMessage(kind, null) }, friction: false };
  }
  if (result.ok) {
    if (result.alerts.length > 0) alertOperator(c, result.alerts);
    return { refusal: null, friction: false, ids: result.ids };
  }
  return {
    friction: result.friction,
    refusal: {
      status: 429,
      retryAfterS: Math.ceil(result.retryAfterMs / 1000),
      ...limitMessage(kind, result.retryAfterMs),
    },
  };
}

/**
 * Counts a code send (`POST /api/send-code`) against every send limit. Past a shared budget
 * (soft rules) the send needs a challenge: a Turnstile token verified at the edge, or a
 * matured wait ticket of this address for this contact; without one, a new ticket is issued
 * (cookie) and the answer says to wait. A refused send counts against no limit.
 */
export async function checkSendLimits(c: Ctx, s: SendCount): Promise<SendCheck> {
  const client = clientOf(c);
  const rules = sendRules(limitsOf(c.env), { ...s, client });
  const first = await count(c, 'send', rules);
  if (!first.refusal) return { kind: 'ok' };
  if (!first.friction) return { kind: 'refused', refusal: first.refusal };
  const key = contactKey(s.contact);
  const pass = await passChallenge(c, { client: client.key, contactKey: key, expoId: s.expoId, token: s.token });
  if (pass === true) {
    const again = await count(c, 'send', rules, true);
    return again.refusal ? { kind: 'refused', refusal: again.refusal } : { kind: 'ok' };
  }
  if (typeof pass === 'number') return { kind: 'challenge', waitS: pass };
  return { kind: 'challenge', ...(await issueTicket(c, { client: client.key, contactKey: key, expoId: s.expoId })) };
}

/** The key of a client address's one live ticket in the limiter. */
const ticketKey = (client: string) => `ticket:${client}`;

/**
 * Whether the sender passed a challenge: true; the seconds its ticket still needs; or null
 * (none, or one that failed: a new ticket is then issued).
 */
async function passChallenge(
  c: Ctx,
  s: { client: string; contactKey: string; expoId: number; token: string },
): Promise<true | number | null> {
  const cfg = challengeOf(c.env);
  if (s.token && cfg.secret && (await turnstileVerified(cfg, s.token, c.req.header('cf-connecting-ip') ?? ''))) return true;
  const ticket = await readTicket(getCookie(c, TICKET_COOKIE), c.env.SESSION_SECRET ?? '');
  if (!ticketFits(ticket, { client: s.client, contactKey: s.contactKey, expoId: s.expoId })) return null;
  const wait = ticketWaitS(ticket);
  if (wait > 0) return wait;
  try {
    return (await c.env.LIMITS.getByName(LIMITER_NAME).redeemTicket(ticketKey(s.client), ticket.n, Date.now())) ? true : null;
  } catch (e) {
    console.error('abuse limits: could not redeem a wait ticket', e);
    return null;
  }
}

/**
 * Server-side Turnstile check (siteverify at TURNSTILE_VERIFY_URL): only `success: true`
 * passes; a verifier that cannot be reached or answers anything else does not.
 */
async function turnstileVerified(cfg: ChallengeConfig, token: string, remoteip: string): Promise<boolean> {
  if (!cfg.secret || token.length > 2048) return false;
  const body = new URLSearchParams({ secret: cfg.secret, response: token });
  if (remoteip) body.set('remoteip', remoteip);
  try {
    const res = await fetch(cfg.verifyUrl, { method: 'POST', body, signal: AbortSignal.timeout(5000) });
    if (!res.ok) return false;
    const out = (await res.json()) as { success?: unknown };
    return out.success === true;
  } catch (e) {
    console.error('abuse limits: Turnstile siteverify could not be reached', e);
    return false;
  }
}

/** Issues the wait ticket of this address for this contact (the cookie the answer sets); its one live ticket from now. */
async function issueTicket(c: Ctx, s: { client: string; contactKey: string; expoId: number }): Promise<{ waitS: number; ticket: CookieWrite }> {
  const { waitS } = challengeOf(c.env);
  const nonce = newNonce();
  const now = Date.now();
  const value = await signTicket({ a: s.client, c: s.contactKey, e: s.expoId, n: nonce }, waitS, c.env.SESSION_SECRET ?? '', now);
  try {
    await c.env.LIMITS.getByName(LIMITER_NAME).issueTicket(ticketKey(s.client), nonce, now + (waitS + TICKET_LIFE_S) * 1000);
  } catch (e) {
    console.error('abuse limits: could not record a wait ticket', e);
  }
  return { waitS, ticket: { name: TICKET_COOKIE, value, maxAge: waitS + TICKET_LIFE_S } };
}

/** Counts a seat lookup or company list before the upstream sees it; null when it may go on. */
export async function checkSeatLimits(c: Ctx, expoId: number): Promise<LimitRefusal | null> {
  return (await count(c, 'lookup', seatRules(limitsOf(c.env), { client: clientOf(c), expoId }))).refusal;
}

/** Counts a share-card signature (`GET /api/share-signature`) before the upstream sees it; null when it may go on. */
export async function checkShareLimits(c: Ctx): Promise<LimitRefusal | null> {
  return (await count(c, 'lookup', shareRules(limitsOf(c.env), { client: clientOf(c) }))).refusal;
}

/**
 * Counts a registration (`POST /api/register`) of a verified contact before the
 * upstream sees it; null when it may go on. The refusal reads like a lookup's ("too many
 * attempts, try again in …").
 */
export async function checkRegisterLimits(c: Ctx, vc: VerifiedContact): Promise<LimitRefusal | null> {
  const areaCode = vc.areaCode ?? '';
  const contact: SendSubject['contact'] =
    vc.checkType === 2
      ? { type: 'email', email: vc.contact }
      : { type: 'phone', areaCode, national: nationalOf(vc.contact, areaCode) };
  return (await count(c, 'lookup', registerRules(limitsOf(c.env), { client: clientOf(c), contact }))).refusal;
}

/**
 * Counts an order or a discount check before the upstream sees it; null when
 * it may go on. The refusal reads like a lookup's ("too many attempts, try again in …").
 */
export async function checkPurchaseLimits(c: Ctx, s: Omit<PurchaseSubject, 'client'>): Promise<LimitRefusal | null> {
  return (await count(c, 'lookup', purchaseRules(limitsOf(c.env), { ...s, client: clientOf(c) }))).refusal;
}

/**
 * Counts a lookup (`POST /api/lookup`) before the upstream sees it. With a code to check it
 * takes a wrong-code slot too; `codeAccepted()` gives it back when the code was right.
 */
export async function checkLookupLimits(c: Ctx, s: { checksCode: boolean }): Promise<LookupLimits> {
  const client = clientOf(c);
  const counted = await count(c, 'lookup', lookupRules(limitsOf(c.env), { client, checksCode: s.checksCode }));
  const id = counted.ids?.[wrongCodeKey(client.key)];
  return {
    refused: counted.refusal,
    codeAccepted: async () => {
      if (id === undefined) return;
      const release = c.env.LIMITS.getByName(LIMITER_NAME)
        .release([id])
        .catch((e: unknown) => console.error('abuse limits: could not give back a wrong-code slot', e));
      // After the response where the platform allows (the visitor does not wait for it).
      let ctx: { waitUntil(promise: Promise<unknown>): void } | null = null;
      try {
        ctx = c.executionCtx;
      } catch {
        ctx = null; // in-process calls (tests) have no execution context
      }
      if (ctx) ctx.waitUntil(release);
      else await release;
    },
  };
}

