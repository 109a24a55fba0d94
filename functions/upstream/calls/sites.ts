/**
 * Site booking calls (docs/upstream.md "Site booking"; spec §1, §7 `from/site`): plain params and
 * data. Every reply is read through a schema, loosely (numbers may come as decimal strings);
 * rows that do not fit are dropped, never shown half. `addExpoUserSite`'s 20201 (full) and
 * 20202 (already booked of that type) come back as refusals with their code, for the page to
 * name in the visitor's language.
 */
import { BookedId, SiteBooking, SiteDate, SitePath, SiteType, isSuccessCode, siteRows as rows } from '../../../src/lib/contract';
import type { UpstreamCore } from '../core';
import type { SiteCalls } from '../../../src/lib/contract';

export type { SiteBooking, SiteDate, SiteType } from '../../../src/lib/contract';

/** The site booking calls on the shared machinery. */
export function siteCalls(core: UpstreamCore): SiteCalls {
  const { call, read, ok, refused, plainCall } = core;
  return {
    async selectSiteTypeList({ expoId }) {
      const path = SitePath.selectSiteTypeList;
      const env = await call(path, expoId, { method: 'GET', query: { expoId: String(expoId) } });
      return isSuccessCode(env.code) ? ok(env, read(path, rows(SiteType), env.data)) : refused(env);
    },
    async selectSiteDateList({ expoId, typeId }) {
      const path = SitePath.selectSiteDateList;
      const env = await call(path, expoId, { method: 'GET', query: { expoId: String(expoId), typeId: String(typeId) } });
      return isSuccessCode(env.code) ? ok(env, read(path, rows(SiteDate), env.data)) : refused(env);
    },
    async addExpoUserSite({ expoId, euCode, siteDateId }) {
      const path = SitePath.addExpoUserSite;
      const env = await call(path, expoId, { method: 'POST', body: { expoId, euCode, siteDateId } });
      return isSuccessCode(env.code) ? ok(env, read(path, BookedId, env.data)) : refused(env);
    },
    async selectExpoUserSiteId({ expoId, euCode }) {
      const path = SitePath.selectExpoUserSiteId;
      const env = await call(path, expoId, { method: 'GET', query: { expoId: String(expoId), euCode } });
      return isSuccessCode(env.code) ? ok(env, read(path, rows(SiteBooking), env.data)) : refused(env);
    },
    deleteExpoUserSite({ expoId, euCode, id }) {
      return plainCall(SitePath.deleteExpoUserSite, expoId, { method: 'POST', body: { expoId, euCode, id } });
    },
  };
}
