/**
 * The organiser's form config (`getCustomerId`), cached at the edge: a link shared
 * in a chat group is opened by many visitors within minutes, and every page view needs the
 * config. With this cache the organiser is asked about once per TTL per Cloudflare location,
 * not once per view.
 *
 * - Cloudflare's Cache API (a named cache), keyed by upstream, expo, customer url and type.
 * - Fresh for `ttlS`; then, for `staleS` more, the cached config is answered at once and fetched
 *   again in the background (stale-while-revalidate, through `waitUntil`).
 * - Only successes are kept: a refusal or a fault is never cached. One exception (item
 *   13): the organiser saying the expo does not exist (`isUnknownExpo`, errors.ts) is kept for
 *   {@link UNKNOWN_EXPO_TTL_S}, in the Cache API and the memo alike, and thrown again from there,
 *   so a storm of views of a dead expo id costs about one upstream call per that time, not two per view.
 * - What is stored is the decrypted, schema-read config (organiser data, no visitor data), read
 *   back through the same schema: a damaged entry is a miss, never a broken page.
 * - In front of it, optionally, the isolate's own memory (`memo`): a config fresh by the same
 *   clock (its `fetchedAt`) is answered without the Cache API round trip, the JSON parse and the
 *   schema read, which are most of a cached page view's cost. It never holds a config longer than
 *   the TTL allows, so a change shows as soon as it would without it; every answer is a copy.
 */
import { BoundedMemo, perIsolate } from './memo';
import { FormConfig } from '../../src/lib/contract';
import { isUnknownExpo, UNKNOWN_EXPO_TTL_S, unknownExpoError } from './errors';
import type { Ok, UpstreamResult } from '../../src/lib/contract/result';

export interface ConfigCacheOptions {
  /** opens the Cache API cache (`caches.open('config')` on workerd) */
  cache: () => Promise<Cache>;
  /** seconds a config is fresh; 0 turns the cache off */
  ttlS: number;
  /** seconds after that it is still answered while a fresh copy is fetched */
  staleS: number;
  /** distinguishes upstreams (their base URL) */
  scope: string;
  /** keeps a background refresh alive after the reply (the request's ExecutionContext) */
  waitUntil?: ((p: Promise<unknown>) => void) | undefined;
  /** clock, ms */
  now?: () => number;
  /** the isolate's memory of fresh configs (`isolateConfigMemo()`); without it every read goes to the Cache API */
  memo?: ConfigMemo | undefined;
  /** seconds an "unknown expo" answer is kept; default {@link UNKNOWN_EXPO_TTL_S}; 0 keeps none */
  unknownTtlS?: number;
}

/** The organiser's "no such expo" (selectAESKey's refusal), as kept. */
interface Unknown {
  path: string;
  code: number;
  msg: string | null;
}

type Memo = { fetchedAt: number; result: Ok<FormConfig> } | { fetchedAt: number; unknown: Unknown };

/** Fresh configs kept in the isolate's memory, by cache key; at most `max`, the oldest dropped first. */
export class ConfigMemo extends BoundedMemo<Memo> {
  constructor(max = 256) {
    super(max);
  }
}

/** The one memo of this isolate. */
export const isolateConfigMemo = perIsolate(() => new ConfigMemo());

interface Stored {
  fetchedAt: number;
  code: number;
  msg: string | null;
  data: unknown;
  /** set for a kept "unknown expo" answer (then `data` is null) */
  unknown?: Unknown;
}

type Params = { expoId: number; fId: number; ty?: string | undefined };
type Load = () => Promise<UpstreamResult<FormConfig>>;

/** The synthetic URL a config is stored under (`.invalid`: never a real host, RFC 2606). */
export function configCacheKey(scope: string, p: Params): Request {
  const q = new URLSearchParams({ scope, expoId: String(p.expoId), fId: String(p.fId), ty: p.ty ?? '' });
  return new Request(`https://config-cache.invalid/getCustomerId?${q.toString()}`);
}

/** Reads a config through the cache; `load` asks the upstream. */
export function cachedConfig(options: ConfigCacheOptions): (p: Params, load: Load) => Promise<UpstreamResult<FormConfig>> {
  const { ttlS, staleS, scope } = options;
  const now = options.now ?? Date.now;
  const unknownTtlS = options.unknownTtlS ?? UNKNOWN_EXPO_TTL_S;

  const memo = options.memo;
  /** A copy, so a caller that changes its config cannot change the next request's. */
  const copy = (result: Ok<FormConfig>): Ok<FormConfig> => ({ ...result, data: structuredClone(result.data) });

  async function store(key: Request, result: Ok<FormConfig>): Promise<void> {
    const body: Stored = { fetchedAt: now(), code: result.code, msg: result.msg, data: result.data };
    memo?.set(key.url, { fetchedAt: body.fetchedAt, result: copy(result) });
    await (await options.cache()).put(
      key,
      new Response(JSON.stringify(body), {
        headers: { 'content-type': 'application/json', 'cache-control': `max-age=${ttlS + staleS}` },
      }),
    );
  }

  /** Keeps the organiser's "no such expo" for the unknown TTL. */
  async function storeUnknown(key: Request, unknown: Unknown): Promise<void> {
    const body: Stored = { fetchedAt: now(), code: unknown.code, msg: unknown.msg, data: null, unknown };
    memo?.set(key.url, { fetchedAt: body.fetchedAt, unknown });
    await (await options.cache()).put(
      key,
      new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json', 'cache-control': `max-age=${unknownTtlS}` } }),
    );
  }

  async function loadAndStore(key: Request, load: Load): Promise<UpstreamResult<FormConfig>> {
    let result: UpstreamResult<FormConfig>;
    try {
      result = await load();
    } catch (e) {
      if (unknownTtlS > 0 && isUnknownExpo(e)) await storeUnknown(key, { path: e.path, code: e.code ?? 0, msg: e.msg ?? null }).catch(() => undefined);
      throw e;
    }
    if (result.ok) await store(key, result).catch(() => undefined);
    return result;
  }

  /** A kept "unknown expo" still within its TTL. */
  const unknownFresh = (fetchedAt: number): boolean => {
    const ageMs = now() - fetchedAt;
    return ageMs >= 0 && ageMs < unknownTtlS * 1000;
  };
  const isUnknown = (x: unknown): x is Unknown => {
    const o = x as Partial<Unknown> | null;
    return typeof o === 'object' && o !== null && typeof o.path === 'string' && typeof o.code === 'number' && (o.msg === null || typeof o.msg === 'string');
  };

  async function read(key: Request): Promise<{ result: Ok<FormConfig>; ageMs: number } | { unknown: Unknown } | null> {
    const hit = await options
      .cache()
      .then((cache) => cache.match(key))
      .catch(() => undefined);
    if (!hit) return null;
    try {
      const stored = (await hit.json()) as Partial<Stored>;
      if (stored.unknown !== undefined) {
        if (!isUnknown(stored.unknown) || typeof stored.fetchedAt !== 'number' || !unknownFresh(stored.fetchedAt)) return null;
        memo?.set(key.url, { fetchedAt: stored.fetchedAt, unknown: stored.unknown });
        return { unknown: stored.unknown };
      }
      const data = FormConfig.safeParse(stored.data);
      if (!data.success || typeof stored.fetchedAt !== 'number' || typeof stored.code !== 'number') return null;
      const result: Ok<FormConfig> = {
        ok: true,
        code: stored.code,
        msg: typeof stored.msg === 'string' ? stored.msg : null,
        data: data.data,
      };
      const ageMs = now() - stored.fetchedAt;
      if (ageMs >= 0 && ageMs < ttlS * 1000) memo?.set(key.url, { fetchedAt: stored.fetchedAt, result: copy(result) });
      return { result, ageMs };
    } catch {
      return null;
    }
  }

  return async function config(p, load) {
    if (ttlS <= 0) return load();
    const key = configCacheKey(scope, p);
    const remembered = memo?.get(key.url);
    if (remembered && 'unknown' in remembered) {
      const { path, code, msg } = remembered.unknown;
      if (unknownFresh(remembered.fetchedAt)) throw unknownExpoError(path, code, msg);
    } else if (remembered) {
      const ageMs = now() - remembered.fetchedAt;
      if (ageMs >= 0 && ageMs < ttlS * 1000) return copy(remembered.result);
    }
    const hit = await read(key);
    if (hit && 'unknown' in hit) throw unknownExpoError(hit.unknown.path, hit.unknown.code, hit.unknown.msg);
    if (hit && hit.ageMs >= 0 && hit.ageMs < ttlS * 1000) return hit.result;
    if (hit && hit.ageMs >= 0 && hit.ageMs < (ttlS + staleS) * 1000 && options.waitUntil) {
      // Stale: answer now, refresh behind the reply (a failed refresh keeps the stale copy).
      options.waitUntil(loadAndStore(key, load).catch(() => undefined));
      return hit.result;
    }
    return loadAndStore(key, load);
  };
}

/** The TTLs from the environment (README "Configuration"): defaults 60 s fresh, 600 s stale. */
export function configCacheTtls(env: { CONFIG_CACHE_TTL_S?: string | undefined; CONFIG_CACHE_STALE_S?: string | undefined }): {
  ttlS: number;
  staleS: number;
} {
  const read = (v: string | undefined, fallback: number) => {
    const n = Number(v);
    return v !== undefined && v.trim() !== '' && Number.isInteger(n) && n >= 0 ? n : fallback;
  };
  return { ttlS: read(env.CONFIG_CACHE_TTL_S, 60), staleS: read(env.CONFIG_CACHE_STALE_S, 600) };
}
