/**
 * One credential read by its registration code (`queryCustomerCode`), for the credential page and
 * the Apple Wallet pass, behind two guards:
 *
 * 1. **Unknown codes are remembered** for a short TTL (functions/upstream/unknown-code-cache.ts):
 *    a dead link viewed again costs no upstream call and no count.
 * 2. **Misses are limited per client address** (`LIMIT_CREDENTIAL_MISSES_PER_IP_HOUR`,
 *    src/lib/security/limits.ts credentialMissRules): each view takes one miss slot in the `LIMITS`
 *    Durable Object before the upstream is asked, and gives it back when the code is known, so 40
 *    guesses sent at once reach the upstream at most as often as the limit allows. Over the limit
 *    the answer is `limited` and the upstream is not asked.
 *
 * If the counter cannot be reached the view goes on uncounted (fail open, logged): unlike the
 * send-code post this is a visitor at the gate opening their credential, and the negative cache
 * and the upstream's own limits still stand.
 */
import type { AppEnv } from './env';
import { clientOfRequest, hitLimits, limiterOf, limitsOf } from './limits';
import type { HitResult } from './limits/limiter';
import type { CredentialRead } from '../src/lib/screens/success';
import type { Upstream } from './upstream';
import { REFERENCE_BASE_URL } from './upstream';
import { isolateUnknownCodeMemo, unknownCodeCache, unknownCodeTtlS, type UnknownCodes } from './upstream/unknown-code-cache';
import { credentialMissKey, credentialMissRules, type Client, type LimitRule, type Limits } from '../src/lib/security/limits';

/** What a credential view found (the credential screen's loader reads it: src/lib/screens/success.ts). */
export type CredentialLookup = CredentialRead;

/** The counter as the lookup uses it (the `Limiter` Durable Object's two calls). */
export interface MissCounter {
  hit(rules: LimitRule[], now: number): Promise<HitResult>;
  release(ids: number[]): Promise<void>;
}

export interface CredentialLookupDeps {
  upstream: Pick<Upstream, 'queryCustomerCode'>;
  /** null: no counter bound (misses are not limited) */
  counter: MissCounter | null;
  limits: Limits;
  /** the client as the limits count it (src/lib/security/limits.ts clientOfHeader: address, networks, trusted) */
  client: Client;
  unknown: UnknownCodes;
  now?: () => number;
  /** keeps the slot's release alive after the reply */
  waitUntil?: ((p: Promise<unknown>) => void) | undefined;
}

/** Reads one credential through the negative cache and the miss limit. */
export async function lookUpCredential(deps: CredentialLookupDeps, p: { expoId: number; euCode: string }): Promise<CredentialLookup> {
  const now = deps.now ?? Date.now;
  if (await deps.unknown.has(p).catch(() => false)) return { kind: 'unknown' };

  const rules = credentialMissRules(deps.limits, { client: deps.client });
  let slot: number | undefined;
  if (deps.counter && rules.length > 0) {
    try {
      const r = await deps.counter.hit(rules, now());
      if (!r.ok) return { kind: 'limited', retryAfterS: Math.max(1, Math.ceil(r.retryAfterMs / 1000)) };
      slot = r.ids[credentialMissKey(deps.client.key)];
    } catch (e) {
      console.error('abuse limits: the LIMITS Durable Object could not be reached; the credential view goes on uncounted', e);
    }
  }
  const giveBack = () => {
    if (slot === undefined || !deps.counter) return;
    const release = deps.counter.release([slot]).catch((e: unknown) => console.error('abuse limits: could not give back a credential-miss slot', e));
    if (deps.waitUntil) deps.waitUntil(release);
  };

  let result: Awaited<ReturnType<Upstream['queryCustomerCode']>>;
  try {
    result = await deps.upstream.queryCustomerCode(p);
  } catch {
    giveBack(); // a fault is not a miss
    return { kind: 'failed' };
  }
  if (result.ok) {
    giveBack();
    return { kind: 'found', record: result.data };
  }
  await deps.unknown.remember(p).catch(() => undefined);
  return { kind: 'unknown' };
}

/** The Cache API cache unknown codes live in. */
const UNKNOWN_CODE_CACHE_NAME = 'expo-pass-unknown-code';

/**
 * The credential lookup of a request: its upstream, its client address (`CF-Connecting-IP`),
 * the environment's limits and TTL.
 */
export function credentialLookupFor(
  env: AppEnv,
  request: Request,
  upstream: Pick<Upstream, 'queryCustomerCode'>,
  waitUntil?: ((p: Promise<unknown>) => void) | undefined,
): (p: { expoId: number; euCode: string }) => Promise<CredentialLookup> {
  const scope = env.UPSTREAM_URL?.trim() || REFERENCE_BASE_URL;
  const client = clientOfRequest(env, request);
  // The limiter is sharded by key (issue 24): the only slot a view gives back is its miss key's.
  const counter: MissCounter | null = env.LIMITS
    ? { hit: (rules, now) => hitLimits(env, rules, now), release: (ids) => limiterOf(env, credentialMissKey(client.key)).release(ids) }
    : null;
  const deps: CredentialLookupDeps = {
    upstream,
    counter,
    limits: limitsOf(env),
    client,
    unknown: unknownCodeCache({
      cache: typeof caches === 'undefined' ? null : () => caches.open(UNKNOWN_CODE_CACHE_NAME),
      ttlS: unknownCodeTtlS(env),
      scope,
      memo: isolateUnknownCodeMemo(),
    }),
    waitUntil,
  };
  return (p) => lookUpCredential(deps, p);
}
