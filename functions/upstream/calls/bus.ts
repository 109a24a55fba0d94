/**
 * Shuttle bus calls (docs/upstream.md "Shuttle bus"; spec §2.3 `/bus`, `/busInfo`): plain params and
 * data. Every reply is read through a schema, loosely; rows that do not fit are dropped.
 * `addBusUser`'s 20301 (full) and 20302 (already on that line) come back as refusals with their
 * code, for the page to name in the visitor's language.
 */
import { BusLine, BusPath, BusReservation, ReservedId, isSuccessCode, siteRows as rows } from '../contract';
import type { UpstreamCore } from '../core';
import type { UpstreamResult } from '../result';

export type { BusLine, BusReservation } from '../contract';

export interface BusCalls {
  /** `GET /customFrom/selectBusList`: the expo's lines with stops and departures (empty: no shuttle bus). */
  selectBusList(p: { expoId: number }): Promise<UpstreamResult<BusLine[]>>;
  /** `POST /customFrom/addBusUser`: `{ id }`; 20301 full, 20302 already on that line. */
  addBusUser(p: { expoId: number; euCode: string; departureId: number; stopId: number }): Promise<UpstreamResult<{ id: number }>>;
  /** `GET /customFrom/selectBusUser`: the registration's reservations. */
  selectBusUser(p: { expoId: number; euCode: string }): Promise<UpstreamResult<BusReservation[]>>;
  /** `POST /customFrom/cancelBusUser`: cancels one of the registration's reservations. */
  cancelBusUser(p: { expoId: number; euCode: string; id: number }): Promise<UpstreamResult<null>>;
}

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
