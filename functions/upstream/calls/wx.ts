/**
 * The messaging-app calls (docs/upstream.md "Messaging app"; spec §4, §7) on the shared core, so
 * they follow the wire rules and the timeout of every other call: the expo's app id and the
 * silent login, under `{UPSTREAM_URL}/wx`.
 */
import type { SilentLogin } from '../../../src/lib/page/guard';
import { WxAppId, WxBase, WxLogin, WxPath, isSuccessCode } from '../../../src/lib/contract';
import type { UpstreamCore } from '../core';
import { isUpstreamError } from '../errors';

/** The messaging-app calls the navigation guard needs (spec §4, §7); a refusal reads as null. */
export interface WxPort {
  appId(expoId: number): Promise<string | null>;
  silentLogin(p: { code: string; expoId: number; fId: number | null; isUserClass: number | null }): Promise<SilentLogin | null>;
}

/**
 * An HTTP error status or a reply that is not an envelope means "no answer" (null) to the guard,
 * which then goes on without a login; a network fault or a timeout is thrown like every call's.
 */
async function orNull<T>(p: Promise<T | null>): Promise<T | null> {
  try {
    return await p;
  } catch (e) {
    if (isUpstreamError(e) && (e.kind === 'http' || e.kind === 'bad-data')) return null;
    throw e;
  }
}

/** Builds the messaging-app calls on the shared core. */
export function wxCalls(core: UpstreamCore): WxPort {
  const { call, read } = core;
  return {
    appId: (expoId) =>
      orNull(
        (async () => {
          const env = await call(WxPath.getwxAppId, expoId, { method: 'GET', query: { expoId: String(expoId) } }, WxBase);
          return isSuccessCode(env.code) ? read(WxPath.getwxAppId, WxAppId, env.data) : null;
        })(),
      ),
    silentLogin: ({ code, expoId, fId, isUserClass }) =>
      orNull(
        (async () => {
          const query = {
            code,
            eId: String(expoId),
            fId: fId === null ? '' : String(fId),
            isUserClass: isUserClass === null ? '' : String(isUserClass),
          };
          const env = await call(WxPath.getOpenId, expoId, { method: 'GET', query }, WxBase);
          return isSuccessCode(env.code) ? read(WxPath.getOpenId, WxLogin, env.data) : null;
        })(),
      ),
  };
}
