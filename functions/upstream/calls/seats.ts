/**
 * The seat lookup's calls (docs/upstream.md "Seat lookup", spec §2.5, §7): one typed method per
 * call, on the auth host (`{UPSTREAM_AUTH_URL}/auth`). Replies are read defensively: a
 * misshapen row is dropped, a missing field is empty, never a crash.
 */
import { z } from 'zod';
import type { UpstreamCore } from '../core';
import { ActivityTypes, CompanyNames, NameCount, PersonSeats, SeatBase, SeatDetailData, SeatImage, SeatPath, ACTIVITY_CLASSIFICATION, isSuccessCode } from '../contract';
import type { UpstreamResult } from '../result';
import type { ActivityType, PersonSeat, SeatDetail } from '../../../src/lib/seat/seats';
import { companyChoices } from '../../../src/lib/seat/seats';

/** getUserCompanyList: strings, at most 20 distinct kept. */
const CompanyList = CompanyNames.transform((v) => companyChoices(v));

/** The seat lookup's calls. */
export interface SeatCalls {
  /** `GET /auth/getUserCompanyList`: type 1 companies of people called `userName` (matching `keywords`), type 2 companies containing `keywords`. */
  getUserCompanyList(p: { expoId: number; keywords: string; type: 1 | 2; userName?: string }): Promise<UpstreamResult<string[]>>;
  /** `GET /auth/checkUserByName`: how many people of that name have a seat. */
  checkUserByName(p: { expoId: number; userName: string }): Promise<UpstreamResult<{ count: number }>>;
  /** `GET /auth/getUserSeatDetail`: the seat, or null when none. */
  getUserSeatDetail(p: { expoId: number; userName: string; companyName: string }): Promise<UpstreamResult<SeatDetail | null>>;
  /** `GET /auth/pageActivityType`: activity types (classification 10). */
  pageActivityType(p: { expoId: number; activityName?: string }): Promise<UpstreamResult<ActivityType[]>>;
  /** `GET /auth/selectUserSeat`: a person's seats in one activity type. */
  selectUserSeat(p: { expoId: number; userName: string; phone?: string; typeId: number }): Promise<UpstreamResult<PersonSeat[]>>;
  /** `GET /auth/getImage`: the seat map's url. */
  getImage(p: { expoId: number; imageName: string }): Promise<UpstreamResult<{ url: string | null }>>;
}

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
