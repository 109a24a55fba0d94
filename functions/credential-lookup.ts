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
 * In front of both, **the isolate's shared views** (functions/upstream/credential-views.ts, issue
 * 24): a record this isolate read less than `CREDENTIAL_VIEW_TTL_MS` ago answers
 * the view with no upstream call, no miss slot and no cache lookup: a refresh storm at the gate
 * costs about one `queryCustomerCode` per credential per TTL. A write on the code drops it.
 *
 * If the counter cannot be reached the view goes on uncounted (fail open, logged): unlike the
 * send-code post this is a visitor at the gate opening their credential, and the negative cache
 * and the upstream's own limits still stand.
 */
import type { AppEnv } from './env';
import { clientOfRequest, hitLimits, limiterOf, limitsOf } from './limits';
import type { HitResult } from './limits/limiter';
import type { CredentialRead } from '../src/lib/screens/credential';
import type { Upstream } from './upstream';
import { upstreamScope } from './upstream';
import { isolateCredentialViews, sharedViewReads, type CredentialViews } from './upstream/credential-views';
import { viewKey } from '../src/lib/credential/view-cache';
import { BoundedMemo, perIsolate } from './upstream/memo';
import { isolateUnknownCodeMemo, unknownCodeCache, unknownCodeTtlS, type UnknownCodes } from './upstream/unknown-code-cache';
import { credentialMissKey, credentialMissRules, type Client, type LimitRule, type Limits } from '../src/lib/security/limits';

/** What a credential view found (the credential screen's loader reads it: src/lib/screens/credential.ts). */
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
  /**
   * the isolate's fresh read of this code, when it has one: answers before the
   * guards, except for an address this isolate saw refused (`limited`), so a limited address
   * cannot go on guessing against the codes others viewed moments ago
   */
  known?: ((p: { expoId: number; euCode: string }) => ReturnType<Upstream['queryCustomerCode']> | undefined) | undefined;
  /** addresses this isolate saw over the miss limit: client key → until (ms) */
  limited?: BoundedMemo<number> | undefined;
  now?: () => number;
  /** keeps the slot's release alive after the reply */
  waitUntil?: ((p: Promise<unknown>) => void) | undefined;
}

/** Reads one credential through the negative cache and the miss limit. */
export async function lookUpCredential(deps: CredentialLookupDeps, p: { expoId: number; euCode: string }): Promise<CredentialLookup> {
  const now = deps.now ?? Date.now;
  // A code read moments ago is known: not a guess, so it takes no miss slot.
  const refusedUntil = deps.limited?.get(deps.client.key) ?? 0;
  const shared = refusedUntil > now() ? undefined : await deps.known?.(p)?.catch(() => null);
  if (shared?.ok) return { kind: 'found', record: shared.data };
  if (await deps.unknown.has(p).catch(() => false)) return { kind: 'unknown' };

  const rules = credentialMissRules(deps.limits, { client: deps.client });
  let slot: number | undefined;
  if (deps.counter && rules.length > 0) {
    try {
      const r = await deps.counter.hit(rules, now());
      if (!r.ok) {
        deps.limited?.set(deps.client.key, now() + r.retryAfterMs);
        return { kind: 'limited', retryAfterS: Math.max(1, Math.ceil(r.retryAfterMs / 1000)) };
      }
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

/** Addresses this isolate saw over the miss limit (bounded: a flood of addresses never grows memory). */
const limitedClients = perIsolate(() => new BoundedMemo<number>(1024));

/** The Cache API cache unknown codes live in. */
const UNKNOWN_CODE_CACHE_NAME = 'expo-pass-unknown-code';

/**
 * The credential lookup of a request: its upstream (its record read shared through the
 * isolate's views, `views`), its client address (`CF-Connecting-IP`), the environment's limits and TTL.
 */
export function credentialLookupFor(
  env: AppEnv,
  request: Request,
  upstream: Pick<Upstream, 'queryCustomerCode'>,
  waitUntil?: ((p: Promise<unknown>) => void) | undefined,
  views: CredentialViews = isolateCredentialViews(),
): (p: { expoId: number; euCode: string }) => Promise<CredentialLookup> {
  const scope = upstreamScope(env);
  const client = clientOfRequest(env, request);
  // The limiter is sharded by key (issue 24): the only slot a view gives back is its miss key's.
  const counter: MissCounter | null = env.LIMITS
    ? { hit: (rules, now) => hitLimits(env, rules, now), release: (ids) => limiterOf(env, credentialMissKey(client.key)).release(ids) }
    : null;
  const deps: CredentialLookupDeps = {
    upstream: sharedViewReads(upstream, views, scope),
    known: (p) => views.peek(viewKey(scope, 'queryCustomerCode', p)),
    limited: limitedClients(),
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
