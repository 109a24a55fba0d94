/**
 * Where each abuse-limit count lives (issue 24, "One global limiter"; README "Abuse limits"):
 * the pure half of sharding the `LIMITS` Durable Object. Pure: no Astro, React or Hono.
 *
 * One object used to hold every count of every expo, and one object serves roughly a thousand
 * requests a second. Now each key lives in the object `${family}:${bucket}`: the family is the
 * key's kind (its first segment: `send`, `lookup`, `wrong`, `seat`, …) and the bucket a stable
 * hash of the whole key modulo {@link LIMIT_SHARDS}. The object of a key depends on the key
 * alone, so every hit of one key meets every other in one object and a count stays exact; the
 * keys of many visitors spread over many objects. A key every request of an expo shares
 * (`send:expo:2002`, `seat:expo:2002`) still has one object, by necessity, but only that expo's
 * sends or seat lookups reach it (tens a second at a show's peak), not everything of every expo.
 */
import type { LimitReason, LimitRule } from './limits';

/**
 * Buckets per family. 16 objects per family carry a family's traffic at about a sixteenth
 * each (a show opening's lookups, ~1,100 a second at the peak minute of issue 24, become ~70
 * a second per object). Changing it moves most keys to another object: their counts start
 * afresh there, so for one window (at most an hour) a limit may admit up to twice. Change it
 * between shows, never during one.
 */
export const LIMIT_SHARDS = 16;

/** A family name as an object name carries it: the key's first segment, tame characters only. */
const FAMILY = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * The family of a key: its first segment (`send:ip:203.0.113.7` → `send`). A key without a
 * usable first segment is family `other` (counted exactly all the same: the bucket is of the
 * whole key).
 * @example limitFamily('credential-miss:ip:203.0.113.7') // 'credential-miss'
 */
export function limitFamily(key: string): string {
  const head = key.split(':', 1)[0] ?? '';
  return FAMILY.test(head) ? head : 'other';
}

/**
 * The bucket of a key, 0 ≤ bucket < shards: FNV-1a (32 bit) over the key's UTF-16 code units.
 * Stable across isolates, releases and runtimes (no randomised seed, no platform hash), which is
 * all a shard needs; it is not a defence (keys are not secret, and a hot bucket costs only speed).
 * @example shardBucket('send:ip:203.0.113.7') === shardBucket('send:ip:203.0.113.7') // always
 */
export function shardBucket(key: string, shards: number = LIMIT_SHARDS): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % Math.max(1, Math.floor(shards));
}

/**
 * The name of the `Limiter` object that holds a key's count (and its wait ticket, its alerts).
 * @example limiterName('lookup:ip:203.0.113.7') // 'lookup:<0..15>'
 */
export function limiterName(key: string, shards: number = LIMIT_SHARDS): string {
  return `${limitFamily(key)}:${shardBucket(key, shards)}`;
}

/** The rules of one request that live in one object: checked and counted together in one call. */
export interface RuleGroup {
  name: string;
  rules: LimitRule[];
}

/**
 * A request's rules grouped by object, in the order of each object's first rule. Rules of one
 * object stay in one call, so they are checked and counted atomically together as before.
 * The rule builders (./limits.ts) list a request's narrowest rules first (per address, then
 * the contact, then the shared budgets of an area, a country, an expo), so asking the objects
 * in this order stops a flood from one address at its own object: it never reaches the shared
 * one every visitor of the expo needs.
 */
export function groupRules(rules: readonly LimitRule[], shards: number = LIMIT_SHARDS): RuleGroup[] {
  const groups = new Map<string, LimitRule[]>();
  for (const rule of rules) {
    const name = limiterName(rule.key, shards);
    const group = groups.get(name);
    if (group) group.push(rule);
    else groups.set(name, [rule]);
  }
  return [...groups].map(([name, rs]) => ({ name, rules: rs }));
}

/** A refusal as one object answers it (functions/limits/limiter.ts HitResult's refusal). */
export interface ShardRefusal {
  key: string;
  retryAfterMs: number;
  /** only shared budgets refused, below their ceilings: a challenge would let the sender on */
  friction: boolean;
  /** what the visitor can do (the refusing rule's reason) */
  reason: LimitReason;
  /** a challenged sender met a shared budget's ceiling */
  ceiling?: boolean;
}

/**
 * The refusal a request gets when several objects refused it, as one object chose among its
 * rules: a hard refusal before friction (a challenge would not help past it), and among those
 * the longest wait. Null when none refused.
 */
export function worstRefusal(refusals: readonly ShardRefusal[]): ShardRefusal | null {
  let worst: ShardRefusal | null = null;
  for (const r of refusals) {
    if (!worst) worst = r;
    else if (worst.friction && !r.friction) worst = r;
    else if (worst.friction === r.friction && r.retryAfterMs > worst.retryAfterMs) worst = r;
  }
  return worst;
}

/** Cloudflare's Durable Object location hints (developers.cloudflare.com, "Data location"). */
export const LOCATION_HINTS = ['wnam', 'enam', 'sam', 'weur', 'eeur', 'apac', 'oc', 'afr', 'me'] as const;
export type LocationHint = (typeof LOCATION_HINTS)[number];

/**
 * Where new limiter objects are created unless `LIMITS_LOCATION_HINT` says otherwise: Asia-Pacific,
 * near most visitors (mainland China and South-East Asia) and the organiser's API, so a
 * visitor's request does not cross an ocean for its count. Cloudflare creates an object where
 * it is first asked for without a hint, and the first request to a bucket could come from an
 * operator's test abroad; the object then stays there. A hint is read only when an object is
 * created: changing it moves no existing object.
 */
export const DEFAULT_LOCATION_HINT: LocationHint = 'apac';

/**
 * Reads `LIMITS_LOCATION_HINT`: unset or empty, {@link DEFAULT_LOCATION_HINT}; `none`, no hint
 * (Cloudflare places each object near its first caller); one of {@link LOCATION_HINTS}, that
 * region. Anything else: the default, and `warn` says so.
 * @example parseLocationHint('weur') // 'weur'
 * @example parseLocationHint('none') // null
 */
export function parseLocationHint(raw: unknown, warn: (message: string) => void = () => {}): LocationHint | null {
  const text = raw === undefined || raw === null ? '' : String(raw).trim().toLowerCase();
  if (text === '') return DEFAULT_LOCATION_HINT;
  if (text === 'none') return null;
  if ((LOCATION_HINTS as readonly string[]).includes(text)) return text as LocationHint;
  warn(
    `LIMITS_LOCATION_HINT="${String(raw)}" is not a location hint; using ${DEFAULT_LOCATION_HINT}. ` +
      `Set it to one of ${LOCATION_HINTS.join(', ')}, or none.`,
  );
  return DEFAULT_LOCATION_HINT;
}
