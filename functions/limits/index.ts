/**
 * The abuse limits' glue (issue 9, README "Security" > "Abuse limits"): the edge API asks
 * here before it calls the upstream. The rules are src/lib/limits.ts; the counts live in the
 * `LIMITS` Durable Object (./limiter.ts), one call per request.
 *
 * If the counter cannot be reached the request is refused (fail closed): an unlimited
 * send-code endpoint is exactly what the limits exist to prevent, and the refusal says to
 * try again later.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../env';
import type { Input } from '../api/input';
import type { FlashInput } from '../../src/lib/flash';
import {
  clientKey,
  limitMessage,
  lookupRules,
  parseLimits,
  purchaseRules,
  registerRules,
  sendRules,
  seatRules,
  wrongCodeKey,
  type LimitMessageKey,
  type LimitRule,
  type Limits,
  type PurchaseSubject,
  type SendSubject,
} from '../../src/lib/limits';
import type { HitResult } from './limiter';
import type { VerifiedContact } from '../../src/lib/contact-cookie';
import { nationalOf } from '../../src/lib/form-contact';

type Ctx = Context<{ Bindings: AppEnv }>;

/** The one counter object every isolate asks (a name, so every isolate reaches the same one). */
export const LIMITER_NAME = 'global';

/** A refused request: the status, the wait (null when unknown) and the message. */
export interface LimitRefusal {
  status: 429 | 503;
  retryAfterS: number | null;
  key: LimitMessageKey;
  vars: { n: number };
}

const parsed = new WeakMap<object, Limits>();

/** The limits of an env, read once per env object (a bad variable warns once, not per request). */
export function limitsOf(env: AppEnv): Limits {
  let limits = parsed.get(env);
  if (!limits) {
    limits = parseLimits(env, (message) => console.warn(`abuse limits: ${message}`));
    parsed.set(env, limits);
  }
  return limits;
}

/** The client the request is counted as (`CF-Connecting-IP`; README "Abuse limits"). */
export function clientOf(c: Ctx): string {
  return clientKey(c.req.header('cf-connecting-ip'));
}

type Counted = { refusal: LimitRefusal; ids?: undefined } | { refusal: null; ids: Record<string, number> };

async function count(c: Ctx, kind: 'send' | 'lookup', rules: LimitRule[]): Promise<Counted> {
  if (rules.length === 0) return { refusal: null, ids: {} };
  let result: HitResult;
  try {
    result = await c.env.LIMITS.getByName(LIMITER_NAME).hit(rules, Date.now());
  } catch (e) {
    console.error('abuse limits: the LIMITS Durable Object could not be reached; refusing the request', e);
    return { refusal: { status: 503, retryAfterS: null, ...limitMessage(kind, null) } };
  }
  if (result.ok) return { refusal: null, ids: result.ids };
  return {
    refusal: {
      status: 429,
      retryAfterS: Math.ceil(result.retryAfterMs / 1000),
      ...limitMessage(kind, result.retryAfterMs),
    },
  };
}

/**
 * Counts a code send (`POST /api/send-code`) against every send limit; null when it may go
 * to the upstream, else the refusal to answer. A refused send counts against no limit.
 */
export async function checkSendLimits(c: Ctx, s: Omit<SendSubject, 'client'>): Promise<LimitRefusal | null> {
  return (await count(c, 'send', sendRules(limitsOf(c.env), { ...s, client: clientOf(c) }))).refusal;
}

/** Counts a seat lookup or company list (issue 12) before the upstream sees it; null when it may go on. */
export async function checkSeatLimits(c: Ctx, expoId: number): Promise<LimitRefusal | null> {
  return (await count(c, 'lookup', seatRules(limitsOf(c.env), { client: clientOf(c), expoId }))).refusal;
}

/**
 * Counts a registration (`POST /api/register`, issue 19 item 2) of a verified contact before the
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
 * Counts an order or a discount check (issue 19 item 8) before the upstream sees it; null when
 * it may go on. The refusal reads like a lookup's ("too many attempts, try again in …").
 */
export async function checkPurchaseLimits(c: Ctx, s: Omit<PurchaseSubject, 'client'>): Promise<LimitRefusal | null> {
  return (await count(c, 'lookup', purchaseRules(limitsOf(c.env), { ...s, client: clientOf(c) }))).refusal;
}

/** The lookup limits' answer: a refusal, or what to call once the upstream accepted the code. */
export interface LookupLimits {
  refused: LimitRefusal | null;
  /** Gives back the wrong-code slot the lookup took up front (after the waitUntil, or at once without one). */
  codeAccepted: () => Promise<void>;
}

/**
 * Counts a lookup (`POST /api/lookup`) before the upstream sees it. With a code to check it
 * takes a wrong-code slot too; `codeAccepted()` gives it back when the code was right.
 */
export async function checkLookupLimits(c: Ctx, s: { checksCode: boolean }): Promise<LookupLimits> {
  const client = clientOf(c);
  const counted = await count(c, 'lookup', lookupRules(limitsOf(c.env), { client, checksCode: s.checksCode }));
  const id = counted.ids?.[wrongCodeKey(client)];
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

/**
 * The answer to a refused request, as the spec answers a refused send (§4, §8: code 600, the
 * message shown, the button enabled again): JSON `{code: 600, msg, data: null}` with HTTP 429
 * (503 when the counter is unreachable) and `Retry-After`; the island reads the body whatever
 * the status. A form post goes back to the page through `flash` with every typed value.
 */
export function limitedReply(
  c: Ctx,
  refusal: LimitRefusal,
  input: Input,
  flash: (notice: NonNullable<FlashInput['notice']>) => Response,
): Response {
  if (!input.json) return flash({ tone: 'error', key: refusal.key, vars: refusal.vars, text: null });
  const headers: Record<string, string> =
    refusal.retryAfterS === null ? {} : { 'retry-after': String(refusal.retryAfterS) };
  return c.json({ code: 600, msg: input.t(refusal.key, refusal.vars), data: null }, refusal.status, headers);
}
