/**
 * The abuse limits' glue (README "Security" > "Abuse limits"): the edge API asks
 * here before it calls the upstream. The rules are src/lib/security/limits.ts; the counts live in
 * `LIMITS` Durable Objects (./limiter.ts), one object per key family and hash bucket (issue 24,
 * src/lib/security/limits-shard.ts), one call per object a request's rules live in
 * ({@link hitLimits}).
 *
 * If the counter cannot be reached the request is refused (fail closed): an unlimited
 * send-code endpoint is exactly what the limits exist to prevent, and the refusal says to
 * try again later.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../env';
import type { CookieWrite } from '../../src/lib/actions/outcome';
import type { CountedHit, LimitRefusal, LookupCount, LookupLimits, SendCheck, SendCount } from '../../src/lib/actions/limits';
import {
  clientOfHeader,
  contactKey,
  decideSend,
  limitKeyForLog,
  limitMessage,
  parseNetworks,
  lookupRules,
  parseLimits,
  purchaseRules,
  registerRules,
  sendRules,
  seatRules,
  shareRules,
  ticketAccepted,
  ticketWait,
  wrongCodeKeys,
  type ChallengePass,
  type Client,
  type CountAnswer,
  type LimitReason,
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
import type { HitResult, Limiter, Refusal } from './limiter';
import { groupRules, limiterName, parseLocationHint, worstRefusal, type LocationHint } from '../../src/lib/security/limits-shard';
import type { VerifiedContact } from '../../src/lib/lookup/contact-cookie';
import { nationalOf } from '../../src/lib/form/contact';

type Ctx = Context<{ Bindings: AppEnv }>;

export type { LimitRefusal, LookupLimits, SendCheck } from '../../src/lib/actions/limits';

interface Settings {
  limits: Limits;
  trusted: Network[];
  challenge: ChallengeConfig;
  /** where new limiter objects are created (`LIMITS_LOCATION_HINT`); null: near their first caller */
  locationHint: LocationHint | null;
}
const parsed = new WeakMap<object, Settings>();

/** The limits, trusted networks and challenge settings of an env, read once per env object (a bad variable warns once). */
function settingsOf(env: AppEnv): Settings {
  let s = parsed.get(env);
  if (!s) {
    const warn = (message: string) => console.warn(`abuse limits: ${message}`);
    s = { limits: parseLimits(env, warn), trusted: parseNetworks(env.TRUSTED_NETWORKS, warn), challenge: challengeConfig(env), locationHint: parseLocationHint(env.LIMITS_LOCATION_HINT, warn) };
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

/**
 * The limiter object a key lives in (src/lib/security/limits-shard.ts limiterName), by name, so
 * every isolate reaches the same one; created in the configured region the first time.
 */
export function limiterOf(env: AppEnv, key: string): DurableObjectStub<Limiter> {
  return stubNamed(env, limiterName(key));
}

/**
 * Checks a request's rules and counts them, all or none, across the objects they live in.
 *
 * The rules are grouped by object (src/lib/security/limits-shard.ts groupRules); the rules of
 * one object are checked and counted in one call, atomically, as when one object held them all.
 * The objects are asked in turn, narrowest rules first; when one refuses, the hits the earlier
 * ones counted are given back (`release`) before the refusal is answered, so a refused request
 * counts against no limit.
 *
 * Why in turn and not all at once: asking every object in parallel would answer in one round
 * trip instead of one per object (two for an IPv4 lookup with a code, up to seven for a send
 * from IPv6), but every refused request would then reach, and count then give back in, every
 * object, the expo-wide one included: a flood from one address would weigh on the object all
 * that expo's visitors need. In turn, it stops at its own address's object. The price of either: between a count
 * and its release another request may see that hit and be refused where it would have passed
 * (never the reverse: no limit admits more than its count, and each key's count stays exact,
 * since all of one key's hits meet in one object).
 *
 * A refusal by one object is final, with that object's wait, except a challenge (shared budgets
 * below their ceilings only): the objects not yet asked are then checked without counting (`check`), so a hard
 * refusal anywhere still wins over a challenge that could not help (and the longest wait is
 * told). The wait of a hard refusal is the first refusing object's, not the longest of all the
 * request's rules: finding that would make every refused request ask every object.
 *
 * Throws when an object cannot be reached (after giving back what was counted).
 */
export async function hitLimits(env: AppEnv, rules: LimitRule[], now: number, opts: { challenged?: boolean } = {}): Promise<HitResult> {
  const groups = groupRules(rules);
  const ids: Record<string, number> = {};
  const alerts: LimitRule[] = [];
  const counted: { name: string; ids: number[] }[] = [];
  const undo = () => releaseCounted(env, counted);
  for (const [i, group] of groups.entries()) {
    let result: HitResult;
    try {
      result = await stubNamed(env, group.name).hit(group.rules, now, opts);
    } catch (e) {
      await undo();
      throw e;
    }
    if (result.ok) {
      Object.assign(ids, result.ids);
      alerts.push(...result.alerts);
      counted.push({ name: group.name, ids: Object.values(result.ids) });
      continue;
    }
    await undo();
    let refusal: Refusal = { key: result.key, retryAfterMs: result.retryAfterMs, friction: result.friction, reason: result.reason, ...(result.ceiling ? { ceiling: true } : {}) };
    if (refusal.friction) {
      const later = await Promise.all(
        groups.slice(i + 1).map((g) =>
          stubNamed(env, g.name)
            .check(g.rules, now, opts)
            .catch((e: unknown) => {
              console.error('abuse limits: could not check a limiter object after a challenge', e);
              return null;
            }),
        ),
      );
      refusal = worstRefusal([refusal, ...later.flatMap((r): Refusal[] => (r ? [r] : []))]) ?? refusal;
    }
    return { ok: false, ...refusal, ...(alerts.length > 0 ? { alerts } : {}) };
  }
  return { ok: true, ids, alerts };
}

/** The limiter object of a name, with the location hint. */
function stubNamed(env: AppEnv, name: string): DurableObjectStub<Limiter> {
  const hint = settingsOf(env).locationHint;
  return env.LIMITS.getByName(name, hint ? { locationHint: hint } : undefined);
}

/**
 * Gives back hits counted in earlier objects of a refused request (in parallel). One that cannot
 * be given back stays counted until its window ends: a refusal too many later, never a pass too many.
 */
async function releaseCounted(env: AppEnv, counted: { name: string; ids: number[] }[]): Promise<void> {
  await Promise.all(
    counted.map((c) =>
      stubNamed(env, c.name)
        .release(c.ids)
        .catch((e: unknown) => console.error('abuse limits: could not give back the hits of a refused request', e)),
    ),
  );
}

/** A shared budget's ceiling refused a challenged sender: the operator hears once per window. */
function tellCeiling(c: Ctx, key: string, windowMs: number, now: number): void {
  const told = limiterOf(c.env, key)
    .firstCeiling(key, windowMs, now)
    .then((first) => {
      if (first) console.warn(JSON.stringify({ event: 'limits.ceiling', key: limitKeyForLog(key), at: new Date(now).toISOString() }));
    })
    .catch((e: unknown) => console.error('abuse limits: could not record a ceiling', e));
  const waitUntil = waitUntilOf(c);
  if (waitUntil) waitUntil(told);
}

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

/** A request's one count: its rules against the objects, read as a {@link CountAnswer}, with the hits it counted. */
async function count(c: Ctx, rules: LimitRule[], challenged = false): Promise<{ answer: CountAnswer; ids: Record<string, number> }> {
  if (rules.length === 0) return { answer: { ok: true }, ids: {} };
  const now = Date.now();
  let result: HitResult;
  try {
    result = await hitLimits(c.env, rules, now, { challenged });
  } catch (e) {
    console.error('abuse limits: the LIMITS Durable Object could not be reached; refusing the request', e);
    return { answer: { ok: 'unreachable' }, ids: {} };
  }
  // A budget an earlier object brought to half is told even when a later one refused the request.
  if (result.alerts && result.alerts.length > 0) alertOperator(c, result.alerts);
  if (result.ok) return { answer: { ok: true }, ids: result.ids };
  const ceiling = result.ceiling ? rules.find((r) => r.key === result.key) : undefined;
  if (ceiling) tellCeiling(c, ceiling.key, ceiling.windowMs, now);
  return { answer: { ok: false, retryAfterMs: result.retryAfterMs, friction: result.friction, reason: result.reason }, ids: {} };
}

/** A refusal as the actions answer it: 429 with the wait, or 503 when the counter could not be reached. */
function refusalOf(reason: LimitReason, retryAfterMs: number | null): LimitRefusal {
  return retryAfterMs === null
    ? { status: 503, retryAfterS: null, ...limitMessage(reason, null) }
    : { status: 429, retryAfterS: Math.ceil(retryAfterMs / 1000), ...limitMessage(reason, retryAfterMs) };
}

/** Counts a request whose only answer is go on or a refusal (every rule hard); null when it may go on. */
async function countHard(c: Ctx, rules: LimitRule[]): Promise<LimitRefusal | null> {
  const { answer } = await count(c, rules);
  if (answer.ok === true) return null;
  return answer.ok === 'unreachable' ? refusalOf('network', null) : refusalOf(answer.reason, answer.retryAfterMs);
}

/**
 * Counts a code send (`POST /api/send-code`), in one pass: the challenge the sender brings is
 * read first (a Turnstile token verified at the edge, or a matured wait ticket of this address
 * for this contact, where {@link ticketAccepted} allows it), then every rule is counted once
 * (src/lib/security/limits.ts sendRules), then src/lib/security/limits.ts decideSend turns the
 * count into the answer. Past a shared budget without a pass: Turnstile for a JSON caller when
 * it is configured, else a new wait ticket whose wait grows per address and per contact. A
 * refused send counts against no limit; a passed one answers the hits to give back when its
 * code is verified (or when the upstream sends nothing).
 */
export async function checkSendLimits(c: Ctx, s: SendCount): Promise<SendCheck> {
  const client = clientOf(c);
  const cfg = challengeOf(c.env);
  const turnstile = cfg.secret !== null;
  const key = contactKey(s.contact);
  const who = { client: client.key, contactKey: key, expoId: s.expoId };
  const brought = await challengeBrought(c, { ...who, token: s.token, ticketOk: ticketAccepted({ json: s.json, turnstile }) });
  if (typeof brought === 'number') return { kind: 'challenge', waitS: brought };
  const pass: ChallengePass = brought;
  const rules = sendRules(limitsOf(c.env), { ...s, client, pass });
  const counted = await count(c, rules, pass !== null);
  const decision = decideSend(counted.answer, { pass, json: s.json, turnstile });
  switch (decision.kind) {
    case 'ok':
      return { kind: 'ok', unverified: rules.flatMap((r): CountedHit[] => (r.unverified && counted.ids[r.key] !== undefined ? [[r.key, counted.ids[r.key] ?? 0]] : [])) };
    case 'refused':
      return { kind: 'refused', refusal: refusalOf(decision.reason, decision.retryAfterMs) };
    case 'challenge':
      return decision.via === 'turnstile' ? { kind: 'challenge', waitS: cfg.waitS } : { kind: 'challenge', ...(await issueTicket(c, who)) };
  }
}

/** The key of a client address's one live ticket in the limiter. */
const ticketKey = (client: string) => `ticket:${client}`;
/** The window the tickets an address or a contact has taken are counted in. */
const TICKETS_TAKEN_WINDOW_MS = 3_600_000;
/** The keys the tickets taken by an address and for a contact are counted under (a new ticket's wait grows with them). */
const ticketsTakenKeys = (client: string, contact: string) => [`tickets:ip:${client}`, `tickets:contact:${contact}`];

/** Counts (`add`) or reads the tickets an address and a contact have taken in the hour: the larger. */
async function ticketsTaken(c: Ctx, s: { client: string; contactKey: string }, add: boolean): Promise<number> {
  const now = Date.now();
  const counts = await Promise.all(
    ticketsTakenKeys(s.client, s.contactKey).map((key) =>
      limiterOf(c.env, key)
        .tally(key, TICKETS_TAKEN_WINDOW_MS, now, add)
        .catch((e: unknown) => {
          console.error('abuse limits: could not count wait tickets', e);
          return 0;
        }),
    ),
  );
  return Math.max(0, ...counts);
}

/**
 * The challenge a sender brings: 'turnstile' (a verified token), 'ticket' (a matured ticket of
 * this address for this contact, now spent), the seconds its ticket still needs, or null (none,
 * or one that failed or is not accepted from this caller).
 */
async function challengeBrought(
  c: Ctx,
  s: { client: string; contactKey: string; expoId: number; token: string; ticketOk: boolean },
): Promise<ChallengePass | number> {
  const cfg = challengeOf(c.env);
  if (s.token && cfg.secret && (await turnstileVerified(cfg, s.token, c.req.header('cf-connecting-ip') ?? ''))) return 'turnstile';
  if (!s.ticketOk) return null;
  const ticket = await readTicket(getCookie(c, TICKET_COOKIE), c.env.SESSION_SECRET ?? '');
  if (!ticketFits(ticket, s)) return null;
  const wait = ticketWaitS(ticket);
  if (wait > 0) return wait;
  try {
    if (!(await limiterOf(c.env, ticketKey(s.client)).redeemTicket(ticketKey(s.client), ticket.n, Date.now()))) return null;
    await ticketsTaken(c, s, true);
    return 'ticket';
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

/**
 * Issues the wait ticket of this address for this contact (the cookie the answer sets); its one
 * live ticket from now. Its wait doubles with each ticket the address or the contact has taken
 * in the hour (src/lib/security/limits.ts ticketWait).
 */
async function issueTicket(c: Ctx, s: { client: string; contactKey: string; expoId: number }): Promise<{ waitS: number; ticket: CookieWrite }> {
  const now = Date.now();
  const waitS = ticketWait(challengeOf(c.env).waitS, await ticketsTaken(c, s, false));
  const nonce = newNonce();
  const value = await signTicket({ a: s.client, c: s.contactKey, e: s.expoId, n: nonce }, waitS, c.env.SESSION_SECRET ?? '', now);
  try {
    await limiterOf(c.env, ticketKey(s.client)).issueTicket(ticketKey(s.client), nonce, now + (waitS + TICKET_LIFE_S) * 1000);
  } catch (e) {
    console.error('abuse limits: could not record a wait ticket', e);
  }
  return { waitS, ticket: { name: TICKET_COOKIE, value, maxAge: waitS + TICKET_LIFE_S } };
}

/**
 * Gives back counted hits (`[key, id]`: each lives in its key's object): a send's shared-budget
 * hits when its code was verified or the upstream sent nothing, a lookup's wrong-code slots
 * when its code was accepted. After the response where the platform allows.
 */
export async function giveBack(c: Ctx, hits: readonly CountedHit[]): Promise<void> {
  if (hits.length === 0) return;
  const byObject = new Map<string, number[]>();
  for (const [key, id] of hits) {
    const name = limiterName(key);
    byObject.set(name, [...(byObject.get(name) ?? []), id]);
  }
  const release = Promise.all(
    [...byObject].map(([name, ids]) =>
      stubNamed(c.env, name)
        .release(ids)
        .catch((e: unknown) => console.error('abuse limits: could not give back counted hits', e)),
    ),
  );
  const waitUntil = waitUntilOf(c);
  if (waitUntil) waitUntil(release);
  else await release;
}

/** Counts a seat lookup or company list before the upstream sees it; null when it may go on. */
export async function checkSeatLimits(c: Ctx, expoId: number): Promise<LimitRefusal | null> {
  return countHard(c, seatRules(limitsOf(c.env), { client: clientOf(c), expoId }));
}

/** Counts a share-card signature (`GET /api/share-signature`) before the upstream sees it; null when it may go on. */
export async function checkShareLimits(c: Ctx): Promise<LimitRefusal | null> {
  return countHard(c, shareRules(limitsOf(c.env), { client: clientOf(c) }));
}

/** Counts a registration (`POST /api/register`) of a verified contact before the upstream sees it; null when it may go on. */
export async function checkRegisterLimits(c: Ctx, vc: VerifiedContact): Promise<LimitRefusal | null> {
  const areaCode = vc.areaCode ?? '';
  const contact: SendSubject['contact'] =
    vc.checkType === 2
      ? { type: 'email', email: vc.contact }
      : { type: 'phone', areaCode, national: nationalOf(vc.contact, areaCode) };
  return countHard(c, registerRules(limitsOf(c.env), { client: clientOf(c), contact }));
}

/** Counts an order or a discount check before the upstream sees it; null when it may go on. */
export async function checkPurchaseLimits(c: Ctx, s: Omit<PurchaseSubject, 'client'>): Promise<LimitRefusal | null> {
  return countHard(c, purchaseRules(limitsOf(c.env), { ...s, client: clientOf(c) }));
}

/**
 * Counts a lookup (`POST /api/lookup`) before the upstream sees it. With a code to check it
 * takes a wrong-code slot of its address and of its contact; `codeAccepted(sent)` gives them
 * back when the code was right, with the shared-budget hits of the sends that code came from.
 */
export async function checkLookupLimits(c: Ctx, s: LookupCount): Promise<LookupLimits> {
  const client = clientOf(c);
  const { answer, ids } = await count(c, lookupRules(limitsOf(c.env), { client, expoId: s.expoId, contact: s.contact, checksCode: s.checksCode, browser: s.browser }));
  const slots = wrongCodeKeys(client.key, contactKey(s.contact), s.browser).flatMap((k): CountedHit[] => (ids[k] !== undefined ? [[k, ids[k] ?? 0]] : []));
  return {
    refused: answer.ok === true ? null : answer.ok === 'unreachable' ? refusalOf('network', null) : refusalOf(answer.reason, answer.retryAfterMs),
    codeAccepted: (sent) => giveBack(c, [...slots, ...sent]),
  };
}
