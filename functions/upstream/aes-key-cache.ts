/**
 * Per-isolate cache of each expo's aesKey (spec §4: "the encryption key for that expo is
 * fetched"; docs/upstream.md selectAESKey). A key rarely changes, and fetching it before every call
 * would double the upstream's load, so it is kept for a TTL.
 *
 * Only the key *string* is kept, never a promise: on workerd a promise (and the fetch behind
 * it) belongs to the request that created it. A cached in-flight promise of a request that
 * ended early (a HEAD answered before its warm-up finished, an aborted tab) would settle for
 * nobody and make every later lookup of that expo fail with "This promise was created by a
 * request that has since ended" until the isolate restarts. So concurrent
 * misses each fetch the key themselves, and a failed fetch is never kept.
 *
 * One answer is kept although it is a failure: the organiser saying the expo does not exist
 * (`isUnknownExpo`), for {@link UNKNOWN_EXPO_TTL_S}, so that views of a dead
 * expo id do not each cost a `selectAESKey`. A fault (timeout, 5xx, another refusal) never is.
 */
import { isUnknownExpo, UNKNOWN_EXPO_TTL_S, unknownExpoError, type UpstreamError } from './errors';

/** Ten minutes: short enough that a rotated key is picked up the same morning. */
export const AES_KEY_TTL_MS = 10 * 60 * 1000;

/** Options of an AesKeyCache. */
export interface AesKeyCacheOptions {
  /** how long a fetched key is kept, in ms; default {@link AES_KEY_TTL_MS} */
  ttlMs?: number;
  /** how long an "unknown expo" answer is kept, in ms; default {@link UNKNOWN_EXPO_TTL_S}; 0 keeps none */
  unknownTtlMs?: number;
  /** clock, in ms (tests move it) */
  now?: () => number;
}

type Entry = { key: string; expiresAt: number } | { unknown: Pick<UpstreamError, 'path' | 'code' | 'msg'>; expiresAt: number };

/** A cache of aesKeys by upstream and expo. */
export interface AesKeyCache {
  /**
   * The cached key for `scope`, or the result of `load()` (then cached for the TTL). A failure is
   * not cached, except the expo being unknown (then thrown again for the unknown TTL).
   */
  get(scope: string, load: () => Promise<string>): Promise<string>;
  /** Forgets the key of `scope` (e.g. data stopped decrypting: the key may have rotated). */
  invalidate(scope: string): void;
  /** Forgets every key. */
  clear(): void;
}

/** Creates an empty AesKeyCache. */
export function createAesKeyCache(options: AesKeyCacheOptions = {}): AesKeyCache {
  const ttlMs = options.ttlMs ?? AES_KEY_TTL_MS;
  const unknownTtlMs = options.unknownTtlMs ?? UNKNOWN_EXPO_TTL_S * 1000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  return {
    async get(scope, load) {
      const hit = entries.get(scope);
      if (hit && hit.expiresAt > now()) {
        if ('key' in hit) return hit.key;
        throw unknownExpoError(hit.unknown.path, hit.unknown.code ?? 0, hit.unknown.msg ?? null);
      }
      try {
        const key = await load();
        entries.set(scope, { key, expiresAt: now() + ttlMs });
        return key;
      } catch (e) {
        if (unknownTtlMs > 0 && isUnknownExpo(e)) entries.set(scope, { unknown: { path: e.path, code: e.code, msg: e.msg }, expiresAt: now() + unknownTtlMs });
        throw e;
      }
    },
    invalidate(scope) {
      entries.delete(scope);
    },
    clear() {
      entries.clear();
    },
  };
}

/** The isolate's shared cache, used by every client that is not given its own. */
export const sharedAesKeyCache: AesKeyCache = createAesKeyCache();
