/**
 * The seat lookup's calls (docs/upstream.md "Seat lookup", spec §2.5, §7): one typed method per
 * call, on the auth host (`{UPSTREAM_AUTH_URL}/auth`). Replies are read defensively: a
 * misshapen row is dropped, a missing field is empty, never a crash.
 */
import { z } from 'zod';
import type { UpstreamCore } from '../core';
import { ActivityTypes, CompanyNames, NameCount, PersonSeats, SeatBase, SeatDetailData, SeatImage, SeatPath, ACTIVITY_CLASSIFICATION, isSuccessCode } from '../../../src/lib/contract';
import type { SeatCalls, UpstreamResult } from '../../../src/lib/contract';
import { companyChoices } from '../../../src/lib/seat/seats';

/** getUserCompanyList: strings, at most 20 distinct kept. */
const CompanyList = CompanyNames.transform((v) => companyChoices(v));

/** Builds the seat calls on the shared core. */
export function seatCalls(core: UpstreamCore): SeatCalls {
  const { call, read, ok, refused } = core;
  async function get<S extends z.ZodType>(path: string, expoId: number, query: Record<string, string>, schema: S): Promise<UpstreamResult<z.output<S>>> {
    const env = await call(path, expoId, { method: 'GET', query: { expoId: String(expoId), ...query } }, SeatBase);
    return isSuccessCode(env.code) ? ok(env, read(path, schema, env.data)) : refused(env);
  }
  return {
    getUserCompanyList: ({ expoId, keywords, type, userName }) =>
      get(SeatPath.getUserCompanyList, expoId, { keywords, type: String(type), ...(userName === undefined ? {} : { userName }) }, CompanyList),
    checkUserByName: ({ expoId, userName }) => get(SeatPath.checkUserByName, expoId, { userName }, NameCount),
    getUserSeatDetail: ({ expoId, userName, companyName }) =>
      get(SeatPath.getUserSeatDetail, expoId, { userName, companyName }, SeatDetailData),
    pageActivityType: ({ expoId, activityName = '' }) =>
      get(SeatPath.pageActivityType, expoId, { activityName, classification: String(ACTIVITY_CLASSIFICATION) }, ActivityTypes),
    selectUserSeat: ({ expoId, userName, phone = '', typeId }) =>
      get(SeatPath.selectUserSeat, expoId, { userName, phone, typeId: String(typeId) }, PersonSeats),
    getImage: ({ expoId, imageName }) => get(SeatPath.getImage, expoId, { imageName }, SeatImage),
  };
}
