/**
 * The share card's calls (spec §4 "Type admin triggers a share-signature fetch", §7 ajaxData;
 * docs/upstream.md "Messaging app"): the expo's app id (`/wx/getwxAppId`, the same call the
 * navigation guard's OAuth asks) and the JS-SDK signature of a page URL (`/custom/CustomerUserInfo/ajaxData`).
 * On the request's upstream, so they reach the reference in-process when UPSTREAM_URL is empty.
 */
import { SharePath, ShareSignature, WxAppId, WxBase, WxPath, isSuccessCode } from '../contract';
import type { UpstreamCore } from '../core';
import { isUpstreamError } from '../errors';
import type { UpstreamResult } from '../result';

export type { ShareSignature } from '../contract';

export interface ShareCalls {
  /** `GET /wx/getwxAppId`: the expo's app id, or null when it has none (a refusal, an HTTP error, an odd reply). */
  wxAppId(expoId: number): Promise<string | null>;
  /** `GET /CustomerUserInfo/ajaxData`: the JS-SDK signature of `url` (this site's page, without its hash). */
  ajaxData(p: { expoId: number; url: string; userId: string }): Promise<UpstreamResult<ShareSignature>>;
}

/** An app id is a short token; anything else is not used (it goes into a page and a script). */
const APP_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The share calls on the shared machinery. */
export function shareCalls(core: UpstreamCore): ShareCalls {
  const { call, read, ok, refused } = core;
  return {
    async wxAppId(expoId) {
      try {
        const env = await call(WxPath.getwxAppId, expoId, { method: 'GET', query: { expoId: String(expoId) } }, WxBase);
        if (!isSuccessCode(env.code)) return null;
        const id = read(WxPath.getwxAppId, WxAppId, env.data);
        return id !== null && APP_ID.test(id) ? id : null;
      } catch (e) {
        if (isUpstreamError(e) && (e.kind === 'http' || e.kind === 'bad-data')) return null;
        throw e;
      }
    },
    async ajaxData({ expoId, url, userId }) {
      const path = SharePath.ajaxData;
      const env = await call(path, expoId, { method: 'GET', query: { url, userId } });
      return isSuccessCode(env.code) ? ok(env, read(path, ShareSignature, env.data)) : refused(env);
    },
  };
}
