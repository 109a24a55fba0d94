/**
 * The wire machinery every upstream call shares (docs/upstream.md "Wire rules"): one request with
 * the `expoId` header and a timeout, the `{code, msg, data}` envelope, schemas, AES params and
 * data with the expo's cached key, results as values. client.ts builds the calls of the lookup
 * on it; each further group of calls (tickets, seats, bookings, health) lives in its own file
 * under `calls/` and gets this core, so groups never reach into one another.
 */
import { z } from 'zod';
import { AesError, decryptJson, encrypt } from '../../src/lib/contract/aes';
import { sharedAesKeyCache, type AesKeyCache } from './aes-key-cache';
import { AesKeyData, Envelope, FormConfig, Ignored, Path, isSuccessCode, type Base } from '../../src/lib/contract';
import { UpstreamError } from './errors';
import type { Ok, Refused, UpstreamResult } from '../../src/lib/contract/result';
import { noteUpstreamCall } from './count';

/** Options of createUpstream / createCore. */
export interface UpstreamOptions {
  /** the organiser's API root, without `/custom` (e.g. `https://api.example.com`) */
  baseUrl: string;
  /** the auth host's root, without `/auth` (docs/upstream.md "Seat lookup", env `UPSTREAM_AUTH_URL`); default `baseUrl` */
  authBaseUrl?: string | undefined;
  /** how requests leave: global fetch, or the reference upstream in-process */
  fetch: (req: Request) => Promise<Response>;
  /** per-call timeout in ms (env `UPSTREAM_TIMEOUT_MS`) */
  timeoutMs: number;
  /** aesKey cache; default the isolate's shared one */
  keyCache?: AesKeyCache;
  /** reads `getCustomerId` through a cache (config-cache.ts); default none */
  configCache?: ConfigCache | undefined;
}

/** A cache in front of `getCustomerId` (config-cache.ts `cachedConfig`). */
export type ConfigCache = (
  p: { expoId: number; fId: number; ty?: string | undefined },
  load: () => Promise<UpstreamResult<FormConfig>>,
) => Promise<UpstreamResult<FormConfig>>;

const OptionsSchema = z.object({
  baseUrl: z.string().url(),
  timeoutMs: z.number().int().positive(),
});

export type Query = Readonly<Record<string, string>>;
export type Send = { method: 'GET'; query: Query } | { method: 'POST'; body: unknown } | { method: 'DELETE'; query: Query } | { method: 'POST'; form: FormData };
export type { Base } from '../../src/lib/contract';

/** What every group of calls builds on. */
export interface UpstreamCore {
  /** sends one request, reads the envelope; throws UpstreamError for every transport fault */
  call(path: string, expoId: number, send: Send, base?: Base): Promise<Envelope>;
  /** reads `data` through a schema; a mismatch is `bad-data` */
  read<S extends z.ZodType>(path: string, schema: S, data: unknown): z.output<S>;
  /** decrypts "encrypted data" and reads it through a schema */
  readEncrypted<S extends z.ZodType>(path: string, expoId: number, aesKey: string, schema: S, data: unknown): Promise<z.output<S>>;
  /** encrypts params with the key; empty values stay empty */
  encryptParams(params: Query, aesKey: string): Promise<Query>;
  /** the expo's aesKey, cached */
  aesKeyOf(expoId: number): Promise<string>;
  selectAESKey(expoId: number): Promise<UpstreamResult<AesKeyData>>;
  /** a call whose data does not matter: only code and msg */
  plainCall(path: string, expoId: number, send: Send, base?: Base): Promise<UpstreamResult<null>>;
  ok<T>(env: Envelope, data: T): Ok<T>;
  refused(env: Envelope): Refused;
}

/** Builds the shared machinery of one client. */
export function createCore(options: UpstreamOptions): UpstreamCore {
  const { baseUrl, timeoutMs } = OptionsSchema.parse({ baseUrl: options.baseUrl, timeoutMs: options.timeoutMs });
  const root = `${baseUrl.replace(/\/+$/, '')}/custom`;
  const authBase = options.authBaseUrl?.trim() ? options.authBaseUrl.trim() : baseUrl;
  const roots: Record<Base, string> = {
    custom: root,
    auth: `${authBase.replace(/\/+$/, '')}/auth`,
    wx: `${baseUrl.replace(/\/+$/, '')}/wx`,
  };
  const doFetch = options.fetch;
  const keyCache = options.keyCache ?? sharedAesKeyCache;

  /** Sends one request and reads the envelope; throws UpstreamError for every transport fault. */
  async function call(path: string, expoId: number, send: Send, base: Base = 'custom'): Promise<Envelope> {
    noteUpstreamCall(); // the request log's count of upstream calls (count.ts)
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new UpstreamError('timeout', `no reply within ${timeoutMs} ms`, { path }));
      }, timeoutMs);
    });
    const exchange = exchangeOnce(roots[base] + path, path, expoId, send, controller.signal);
    // The loser of the race must not surface as an unhandled rejection.
    exchange.catch(() => undefined);
    try {
      return await Promise.race([exchange, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function exchangeOnce(href: string, path: string, expoId: number, send: Send, signal: AbortSignal): Promise<Envelope> {
    const fault = (e: unknown, what: string): UpstreamError =>
      signal.aborted
        ? new UpstreamError('timeout', `no reply within ${timeoutMs} ms`, { path, cause: e })
        : new UpstreamError('network', `${what}: ${e instanceof Error ? e.message : String(e)}`, { path, cause: e });

    let response: Response;
    try {
      const url = new URL(href);
      const headers = new Headers({ expoId: String(expoId), accept: 'application/json' });
      let body: string | undefined;
      let form: FormData | undefined;
      if ('query' in send) {
        for (const [k, v] of Object.entries(send.query)) url.searchParams.set(k, v);
      } else if ('form' in send) {
        form = send.form; // multipart: fetch sets the boundary
      } else {
        headers.set('content-type', 'application/json');
        body = JSON.stringify(send.body);
      }
      const request = new Request(url, {
        method: send.method,
        headers,
        signal,
        ...(body === undefined ? {} : { body }),
        ...(form === undefined ? {} : { body: form }),
      });
      response = await doFetch(request);
    } catch (e) {
      throw fault(e, 'request failed');
    }

    if (!response.ok) {
      // spec §8 tells 404, 405, 500 and 403 apart; the body is not needed.
      response.body?.cancel().catch(() => undefined);
      throw new UpstreamError('http', `HTTP ${response.status}`, {
        path,
        status: response.status,
        statusText: response.statusText,
      });
    }

    let text: string;
    try {
      text = await response.text();
    } catch (e) {
      throw fault(e, 'reply body failed');
    }

    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new UpstreamError('not-json', 'reply is not JSON', { path, cause: e });
    }
    const envelope = Envelope.safeParse(json);
    if (!envelope.success) {
      throw new UpstreamError('bad-data', 'reply is not a {code, msg, data} envelope', { path, cause: envelope.error });
    }
    return envelope.data;
  }

  const scopeOf = (expoId: number): string => `${root}#${expoId}`;

  /** Reads `data` through a schema; a mismatch is `bad-data`. */
  function read<S extends z.ZodType>(path: string, schema: S, data: unknown): z.output<S> {
    const parsed = schema.safeParse(data);
    if (!parsed.success) throw new UpstreamError('bad-data', 'data has the wrong shape', { path, cause: parsed.error });
    return parsed.data;
  }

  /** Decrypts "encrypted data" and reads it through a schema; undecryptable or misshapen data is `bad-data`. */
  async function readEncrypted<S extends z.ZodType>(
    path: string,
    expoId: number,
    aesKey: string,
    schema: S,
    data: unknown,
  ): Promise<z.output<S>> {
    if (typeof data !== 'string') throw new UpstreamError('bad-data', 'encrypted data is not a string', { path });
    let plain: unknown;
    try {
      plain = await decryptJson(data, aesKey);
    } catch (e) {
      // The key may have rotated since it was cached: fetch it afresh next time.
      keyCache.invalidate(scopeOf(expoId));
      throw new UpstreamError('bad-data', e instanceof AesError ? e.message : 'data does not decrypt', {
        path,
        cause: e,
      });
    }
    return read(path, schema, plain);
  }

  /** Encrypts params with the expo's key; empty values stay empty (docs/upstream.md: "each non-empty value"). */
  async function encryptParams(params: Query, aesKey: string): Promise<Query> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(params)) out[k] = v === '' ? '' : await encrypt(v, aesKey);
    return out;
  }

  const ok = <T>(env: Envelope, data: T): Ok<T> => ({ ok: true, code: env.code, msg: env.msg, data });
  const refused = (env: Envelope): Refused => ({ ok: false, kind: 'refused', code: env.code, msg: env.msg });

  async function selectAESKey(expoId: number): Promise<UpstreamResult<AesKeyData>> {
    const path = Path.selectAESKey;
    const env = await call(path, expoId, { method: 'GET', query: { expoId: String(expoId) } });
    if (!isSuccessCode(env.code)) return refused(env);
    const key = AesKeyData.safeParse(env.data);
    if (!key.success)
      throw new UpstreamError('no-key', 'the expo has no usable aesKey', { path, code: env.code, msg: env.msg });
    return ok(env, key.data);
  }

  /** The expo's aesKey, from the cache or fetched once; a refusal is `no-key`. */
  function aesKeyOf(expoId: number): Promise<string> {
    return keyCache.get(scopeOf(expoId), async () => {
      const r = await selectAESKey(expoId);
      if (!r.ok) {
        throw new UpstreamError('no-key', `selectAESKey refused (${r.code})`, {
          path: Path.selectAESKey,
          code: r.code,
          msg: r.msg,
        });
      }
      return r.data.aesKey;
    });
  }

  /** Send-code and verify calls: only code and msg matter. */
  async function plainCall(path: string, expoId: number, send: Send, base: Base = 'custom'): Promise<UpstreamResult<null>> {
    const env = await call(path, expoId, send, base);
    return isSuccessCode(env.code) ? ok(env, read(path, Ignored, env.data)) : refused(env);
  }


  return { call, read, readEncrypted, encryptParams, aesKeyOf, selectAESKey, plainCall, ok, refused };
}
