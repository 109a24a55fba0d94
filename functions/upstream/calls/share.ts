/**
 * The share card's calls (spec §4 "Type admin triggers a share-signature fetch", §7 ajaxData;
 * docs/upstream.md "Messaging app"): the expo's app id (`/wx/getwxAppId`, the same call the
 * navigation guard's OAuth asks), the expo check with the encoded expo id (`/wx/checkExpo`) and
 * the JS-SDK signature of a page URL (`/custom/CustomerUserInfo/ajaxData`); and a customer url's
 * custom registration label (`/wx/getForm`).
 * On the request's upstream, so they reach the reference in-process when UPSTREAM_URL is empty.
 */
import { ExpoCheck, FormDefine, SharePath, ShareSignature, WxAppId, WxBase, WxPath, isSuccessCode } from '../../../src/lib/contract';
import type { UpstreamCore } from '../core';
import { isUpstreamError } from '../errors';
import type { ShareCalls } from '../../../src/lib/contract';

export type { ShareSignature } from '../../../src/lib/contract';

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
    async checkExpo({ expoId, eId }) {
      try {
        const env = await call(WxPath.checkExpo, expoId, { method: 'GET', query: { eId } }, WxBase);
        return isSuccessCode(env.code) && read(WxPath.checkExpo, ExpoCheck, env.data) === expoId;
      } catch (e) {
        if (isUpstreamError(e) && (e.kind === 'http' || e.kind === 'bad-data')) return false;
        throw e;
      }
    },
    async getForm({ expoId, fId, define }) {
      try {
        const env = await call(WxPath.getForm, expoId, { method: 'GET', query: { define, eId: String(expoId), fId: String(fId) } }, WxBase);
        if (!isSuccessCode(env.code)) return null;
        const got = read(WxPath.getForm, FormDefine, env.data);
        return got !== null && got.define === define ? got : null;
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
