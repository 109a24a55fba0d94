/**
 * Per-isolate cache of each expo's aesKey (spec §4: "the encryption key for that expo is
 * fetched"; UPSTREAM.md selectAESKey). A key rarely changes, and fetching it before every call
 * would double the upstream's load, so it is kept for a TTL. A failed fetch is not cached: the
 * next call tries again. Concurrent callers share one in-flight fetch.
 */

/** Ten minutes: short enough that a rotated key is picked up the same morning. */
export const AES_KEY_TTL_MS = 10 * 60 * 1000;

/** Options of an AesKeyCache. */
export interface AesKeyCacheOptions {
  /** how long a fetched key is kept, in ms; default {@link AES_KEY_TTL_MS} */
  ttlMs?: number;
  /** clock, in ms (tests move it) */
  now?: () => number;
}

interface Entry {
  /** the fetched key, or the fetch in flight */
  key: Promise<string>;
  /** when the key stops being fresh; Infinity while in flight */
  expiresAt: number;
}

/** A cache of aesKeys by upstream and expo. */
export interface AesKeyCache {
  /** The cached key for `scope`, or the result of `load()` (then cached for the TTL when it succeeds). */
  get(scope: string, load: () => Promise<string>): Promise<string>;
  /** Forgets the key of `scope` (e.g. data stopped decrypting: the key may have rotated). */
  invalidate(scope: string): void;
  /** Forgets every key. */
  clear(): void;
}

/** Creates an empty AesKeyCache. */
export function createAesKeyCache(options: AesKeyCacheOptions = {}): AesKeyCache {
  const ttlMs = options.ttlMs ?? AES_KEY_TTL_MS;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  return {
    get(scope, load) {
      const hit = entries.get(scope);
      if (hit && hit.expiresAt > now()) return hit.key;
      const entry: Entry = { key: Promise.resolve().then(load), expiresAt: Number.POSITIVE_INFINITY };
      entries.set(scope, entry);
      entry.key.then(
        () => {
          entry.expiresAt = now() + ttlMs;
        },
        () => {
          // A failure is not cached; only remove our own entry, a newer fetch may have replaced it.
          if (entries.get(scope) === entry) entries.delete(scope);
        },
      );
      return entry.key;
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
