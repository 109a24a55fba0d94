/**
 * Registration codes the upstream answered as unknown, remembered briefly at the edge: a dead
 * credential link shared in a chat group, opened again and again, costs one upstream call per
 * TTL and Cloudflare location, not one per view.
 *
 * - Cloudflare's Cache API (a named cache), keyed by upstream, expo and code; in front of it the
 *   isolate's own memory (as functions/upstream/config-cache.ts does for configs), bounded.
 * - Only "the upstream answered and did not give a credential" is remembered, never a fault.
 * - The TTL is short (`UNKNOWN_CODE_CACHE_TTL_S`, default 60 s): a code registered after a view
 *   of its link (a visitor who opened it too early) shows at the latest one TTL later.
 * - Nothing of the visitor is stored: the expo id and the code the URL carries.
 */
import { BoundedMemo, perIsolate } from './memo';

/** The default seconds an unknown code is remembered (README "Configuration"). */
export const UNKNOWN_CODE_TTL_DEFAULT_S = 60;
/** The longest TTL accepted: a negative answer must never hide a new registration for long. */
export const UNKNOWN_CODE_TTL_MAX_S = 3600;

/** The TTL from the environment; an unreadable value is the default. */
export function unknownCodeTtlS(env: { UNKNOWN_CODE_CACHE_TTL_S?: string | undefined }): number {
  const text = String(env.UNKNOWN_CODE_CACHE_TTL_S ?? '').trim();
  const n = Number(text);
  return text !== '' && /^\d+$/.test(text) && n <= UNKNOWN_CODE_TTL_MAX_S ? n : UNKNOWN_CODE_TTL_DEFAULT_S;
}

/** Unknown codes in the isolate's memory: key → until (ms); at most `max`, the oldest dropped first. */
export class UnknownCodeMemo extends BoundedMemo<number> {
  constructor(max = 1024) {
    super(max);
  }
}

/** The one memo of this isolate. */
export const isolateUnknownCodeMemo = perIsolate(() => new UnknownCodeMemo());

export interface UnknownCodeCacheOptions {
  /** opens the Cache API cache; null: the isolate's memory only */
  cache: (() => Promise<Cache>) | null;
  /** seconds an unknown code is remembered; 0 turns the cache off */
  ttlS: number;
  /** distinguishes upstreams (their base URL) */
  scope: string;
  memo?: UnknownCodeMemo | undefined;
  /** clock, ms */
  now?: () => number;
}

/** What the credential lookup asks of the cache. */
export interface UnknownCodes {
  /** true when the upstream answered this code as unknown less than a TTL ago */
  has(p: { expoId: number; euCode: string }): Promise<boolean>;
  /** remembers an unknown answer for a TTL */
  remember(p: { expoId: number; euCode: string }): Promise<void>;
}

/** The synthetic URL an unknown code is stored under (`.invalid`: never a real host, RFC 2606). */
export function unknownCodeKey(scope: string, p: { expoId: number; euCode: string }): string {
  const q = new URLSearchParams({ scope, expoId: String(p.expoId), euCode: p.euCode });
  return `https://unknown-code.invalid/queryCustomerCode?${q.toString()}`;
}

const UNTIL = 'x-unknown-until';

/** The cache of unknown codes; with a TTL of 0 it remembers nothing. */
export function unknownCodeCache(options: UnknownCodeCacheOptions): UnknownCodes {
  const { ttlS, scope, memo } = options;
  const now = options.now ?? Date.now;
  return {
    async has(p) {
      if (ttlS <= 0) return false;
      const key = unknownCodeKey(scope, p);
      const t = now();
      const remembered = memo?.get(key);
      if (remembered !== undefined) {
        if (remembered > t) return true;
        memo?.delete(key);
      }
      if (!options.cache) return false;
      const hit = await options
        .cache()
        .then((c) => c.match(key))
        .catch(() => undefined);
      const until = Number(hit?.headers.get(UNTIL) ?? NaN);
      // A stored entry never counts for longer than this isolate's TTL allows.
      if (!Number.isFinite(until) || until <= t || until > t + ttlS * 1000) return false;
      memo?.set(key, until);
      return true;
    },
    async remember(p) {
      if (ttlS <= 0) return;
      const key = unknownCodeKey(scope, p);
      const until = now() + ttlS * 1000;
      memo?.set(key, until);
      if (!options.cache) return;
      const res = new Response(null, { headers: { [UNTIL]: String(until), 'cache-control': `max-age=${ttlS}` } });
      await options
        .cache()
        .then((c) => c.put(key, res))
        .catch(() => undefined);
    },
  };
}
