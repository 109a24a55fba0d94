/**
 * The organiser's form config (`getCustomerId`), cached at the edge (issue 10): a link shared
 * in a chat group is opened by many visitors within minutes, and every page view needs the
 * config. With this cache the organiser is asked about once per TTL per Cloudflare location,
 * not once per view.
 *
 * - Cloudflare's Cache API (a named cache), keyed by upstream, expo, customer url and type.
 * - Fresh for `ttlS`; then, for `staleS` more, the cached config is answered at once and fetched
 *   again in the background (stale-while-revalidate, through `waitUntil`).
 * - Only successes are kept: a refusal or a fault is never cached.
 * - What is stored is the decrypted, schema-read config (organiser data, no visitor data), read
 *   back through the same schema: a damaged entry is a miss, never a broken page.
 */
import { FormConfig } from './contract';
import type { Ok, UpstreamResult } from './result';

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
}

interface Stored {
  fetchedAt: number;
  code: number;
  msg: string | null;
  data: unknown;
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

  async function store(key: Request, result: Ok<FormConfig>): Promise<void> {
    const body: Stored = { fetchedAt: now(), code: result.code, msg: result.msg, data: result.data };
    await (await options.cache()).put(
      key,
      new Response(JSON.stringify(body), {
        headers: { 'content-type': 'application/json', 'cache-control': `max-age=${ttlS + staleS}` },
      }),
    );
  }

  async function loadAndStore(key: Request, load: Load): Promise<UpstreamResult<FormConfig>> {
    const result = await load();
    if (result.ok) await store(key, result).catch(() => undefined);
    return result;
  }

  async function read(key: Request): Promise<{ result: Ok<FormConfig>; ageMs: number } | null> {
    const hit = await options
      .cache()
      .then((cache) => cache.match(key))
      .catch(() => undefined);
    if (!hit) return null;
    try {
      const stored = (await hit.json()) as Partial<Stored>;
      const data = FormConfig.safeParse(stored.data);
      if (!data.success || typeof stored.fetchedAt !== 'number' || typeof stored.code !== 'number') return null;
      return {
        result: { ok: true, code: stored.code, msg: typeof stored.msg === 'string' ? stored.msg : null, data: data.data },
        ageMs: now() - stored.fetchedAt,
      };
    } catch {
      return null;
    }
  }

  return async function config(p, load) {
    if (ttlS <= 0) return load();
    const key = configCacheKey(scope, p);
    const hit = await read(key);
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
