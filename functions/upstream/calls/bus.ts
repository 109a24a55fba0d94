/**
 * Shuttle bus calls (docs/upstream.md "Shuttle bus"; spec §2.3 `/bus`, `/busInfo`): plain params and
 * data. Every reply is read through a schema, loosely; rows that do not fit are dropped.
 * `addBusUser`'s 20301 (full) and 20302 (already on that line) come back as refusals with their
 * code, for the page to name in the visitor's language.
 */
import { BusLine, BusPath, BusReservation, ReservedId, isSuccessCode, siteRows as rows } from '../../../src/lib/contract';
import type { UpstreamCore } from '../core';
import type { BusCalls } from '../../../src/lib/contract';

export type { BusLine, BusReservation } from '../../../src/lib/contract';

/** The shuttle bus calls on the shared machinery. */
export function busCalls(core: UpstreamCore): BusCalls {
  const { call, read, ok, refused, plainCall } = core;
  return {
    async selectBusList({ expoId }) {
      const path = BusPath.selectBusList;
      const env = await call(path, expoId, { method: 'GET', query: { expoId: String(expoId) } });
      return isSuccessCode(env.code) ? ok(env, read(path, rows(BusLine), env.data)) : refused(env);
    },
    async addBusUser({ expoId, euCode, departureId, stopId }) {
      const path = BusPath.addBusUser;
      const env = await call(path, expoId, { method: 'POST', body: { expoId, euCode, departureId, stopId } });
      return isSuccessCode(env.code) ? ok(env, read(path, ReservedId, env.data)) : refused(env);
    },
    async selectBusUser({ expoId, euCode }) {
      const path = BusPath.selectBusUser;
      const env = await call(path, expoId, { method: 'GET', query: { expoId: String(expoId), euCode } });
      return isSuccessCode(env.code) ? ok(env, read(path, rows(BusReservation), env.data)) : refused(env);
    },
    cancelBusUser({ expoId, euCode, id }) {
      return plainCall(BusPath.cancelBusUser, expoId, { method: 'POST', body: { expoId, euCode, id } });
    },
  };
}
