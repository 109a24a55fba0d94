/**
 * The upstream for a request's environment (DESIGN.md "One Worker, four parts"):
 * `UPSTREAM_URL` set → the organiser's real API over the network; unset or empty → the
 * in-process upstream the app gives (useLocalUpstream: the reference upstream, no network hop,
 * same isolate, same D1). This folder never imports the reference: the app injects it.
 *
 * Other code imports the client from here: `upstreamFor(env)`, the result and error types.
 */
import type { AppEnv } from '../env';
import { createUpstream, type ConfigCache, type Upstream } from './client';
import { createCore } from './core';
import { cachedConfig, configCacheTtls, isolateConfigMemo } from './config-cache';
import { upstreamTimeoutMs } from './timeout';
import { wxCalls, type WxPort } from './calls/wx';
import { dropsViewsOnWrite, isolateCredentialViews } from './credential-views';

export { createUpstream } from './client';
export type { Contact, Upstream, UpstreamOptions } from './client';
export type { WxPort } from './calls/wx';
export { UpstreamError, isUpstreamError } from './errors';
export type { UpstreamErrorKind } from './errors';
export type { AlreadyRegistered, Ok, Refused, SecondForm, UpstreamResult } from '../../src/lib/contract/result';
export { sharedAesKeyCache, AES_KEY_TTL_MS } from './aes-key-cache';
export { UPSTREAM_TIMEOUT_DEFAULT_MS, UPSTREAM_TIMEOUT_MAX_MS, upstreamTimeoutMs } from './timeout';

/** An upstream answered in-process for an environment (the reference upstream's `createReference`). */
export type LocalUpstream = (env: AppEnv) => { fetch(request: Request): Promise<Response> };

let localUpstream: LocalUpstream | null = null;

/** Gives the in-process upstream used when `UPSTREAM_URL` is empty (functions/app.ts gives the reference). */
export function useLocalUpstream(make: LocalUpstream): void {
  localUpstream = make;
}

/** Base URL of the in-process upstream; `.invalid` (RFC 2606) never resolves, so nothing can leak to the network. */
export const REFERENCE_BASE_URL = 'http://reference.invalid';

/**
 * The upstream client for this environment.
 * @example const r = await upstreamFor(env).getCustomerId({ expoId: 1308, fId: 10542 });
 */
export function upstreamFor(env: AppEnv, request: RequestScope = {}): Upstream {
  const timeoutMs = upstreamTimeoutMs(env);
  const url = env.UPSTREAM_URL?.trim() ?? '';
  const scope = upstreamScope(env);
  const configCache = configCacheFor(env, scope, request);
  // A write that changes a credential view drops the isolate's shared copy (issue 24: credential-views.ts).
  if (url !== '') {
    const client = createUpstream({ baseUrl: url, authBaseUrl: env.UPSTREAM_AUTH_URL, fetch: (req) => fetch(req), timeoutMs, configCache });
    return dropsViewsOnWrite(client, isolateCredentialViews(), scope);
  }
  const make = localUpstream;
  if (!make) throw new Error('UPSTREAM_URL is empty and no in-process upstream was given (useLocalUpstream)');
  const local = make(env);
  const client = createUpstream({
    baseUrl: REFERENCE_BASE_URL,
    fetch: (req) => local.fetch(req),
    timeoutMs,
    configCache,
  });
  return dropsViewsOnWrite(client, isolateCredentialViews(), scope);
}

/** The upstream's scope as the isolate's caches key it: its base URL, or the in-process reference's. */
export function upstreamScope(env: Pick<AppEnv, 'UPSTREAM_URL'>): string {
  return env.UPSTREAM_URL?.trim() || REFERENCE_BASE_URL;
}

/**
 * The messaging-app calls of an environment (spec §4, §7), or null where there are none: the
 * reference upstream has no messaging app, so without UPSTREAM_URL there is no silent login and
 * no OAuth.
 */
export function upstreamWx(env: AppEnv): WxPort | null {
  const url = env.UPSTREAM_URL?.trim() ?? '';
  if (url === '') return null;
  return wxCalls(createCore({ baseUrl: url, fetch: (req) => fetch(req), timeoutMs: Math.min(upstreamTimeoutMs(env), WX_TIMEOUT_MS) }));
}

/**
 * The messaging-app calls run before a page renders (the guard's silent login, spec §4): a
 * visitor waits at most this long for them, whatever UPSTREAM_TIMEOUT_MS allows other calls;
 * past it the page renders without the login.
 */
export const WX_TIMEOUT_MS = 5_000;

/**
 * The upstream of one page request: made once per request by the navigation guard
 * (functions/middleware/guard.ts), which hands it on to the page loader (src/middleware.ts);
 * `getCustomerId` is memoised per expo, url and type, so a page asks for its config once
 * however many parts of the request need it.
 */
export function requestUpstream(env: AppEnv, _request: Request, scope: RequestScope = {}): Upstream {
  const base = upstreamFor(env, scope);
  const configs = new Map<string, ReturnType<Upstream['getCustomerId']>>();
  const upstream: Upstream = {
    ...base,
    getCustomerId(p) {
      const key = `${p.expoId}/${p.fId}/${p.ty ?? ''}`;
      let pending = configs.get(key);
      if (!pending) {
        pending = base.getCustomerId(p);
        configs.set(key, pending);
        // A thrown fault is the caller's to handle, once per caller; the memo must not also throw unhandled.
        pending.catch(() => undefined);
      }
      return pending;
    },
  };
  return upstream;
}

/** The Cache API cache the configs live in. */
const CONFIG_CACHE_NAME = 'expo-pass-config';

/** What an upstream may use of the request it serves. */
export interface RequestScope {
  /** keeps background work (a stale config's refresh) alive after the reply */
  waitUntil?: ((p: Promise<unknown>) => void) | undefined;
}

/** The edge cache of `getCustomerId` (config-cache.ts), where the runtime has the Cache API and the TTL is not 0. */
function configCacheFor(env: AppEnv, scope: string, request: RequestScope): ConfigCache | undefined {
  const { ttlS, staleS } = configCacheTtls(env);
  if (ttlS <= 0 || typeof caches === 'undefined') return undefined;
  return cachedConfig({
    cache: () => caches.open(CONFIG_CACHE_NAME),
    ttlS,
    staleS,
    scope,
    waitUntil: request.waitUntil,
    memo: isolateConfigMemo(),
  });
}
