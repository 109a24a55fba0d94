/**
 * Check-in calls (docs/upstream.md "Check-in (the gate)"): plain params and data. `redeemCode`
 * answers every decided scan as a success whose `result` says what happened (an upstream without
 * the call answers a refusal, e.g. 404 "unknown call", which the gate reports to the operator).
 * Replies are read loosely through the contract's schemas.
 */
import { CheckInLog, CheckInPage, CheckInStats, CheckinPath, Redeemed, isSuccessCode } from '../contract';
import type { UpstreamCore } from '../core';
import type { UpstreamResult } from '../result';

export type { CheckInLog, CheckInLogRow, CheckInPage, CheckInStatRow, CheckinResult, Redeemed } from '../contract';

export interface CheckinCalls {
  /**
   * `POST /customFrom/redeemCode`: one scan; `scannedAt` an ISO time (may be in the past for a synced offline scan);
   * `scanId` the scanner's own id of the scan, so that a retried sync is answered, not counted, twice.
   */
  redeemCode(p: { expoId: number; euCode: string; gate: string; scannedAt: string; scanId?: string }): Promise<UpstreamResult<Redeemed>>;
  /** `GET /customFrom/checkInList`: one page of the expo's admission list (hashed codes, counts, approval, days). */
  checkInList(p: { expoId: number; page?: number; pageSize?: number }): Promise<UpstreamResult<CheckInPage>>;
  /** `GET /customFrom/checkInStats`: admitted and refused scans per gate and hour. */
  checkInStats(p: { expoId: number }): Promise<UpstreamResult<CheckInStats>>;
  /** `GET /customFrom/checkInLog`: one page of the expo's scans, oldest first (the CSV export). */
  checkInLog(p: { expoId: number; page?: number; pageSize?: number }): Promise<UpstreamResult<CheckInLog>>;
}

/** The check-in calls on the shared machinery. */
export function checkinCalls(core: UpstreamCore): CheckinCalls {
  const { call, read, ok, refused } = core;
  return {
    async redeemCode({ expoId, euCode, gate, scannedAt, scanId }) {
      const path = CheckinPath.redeemCode;
      const body = { expoId, euCode, gate, scannedAt, ...(scanId !== undefined ? { scanId } : {}) };
      const env = await call(path, expoId, { method: 'POST', body });
      return isSuccessCode(env.code) ? ok(env, read(path, Redeemed, env.data)) : refused(env);
    },
    async checkInList({ expoId, page, pageSize }) {
      const path = CheckinPath.checkInList;
      const query: Record<string, string> = { expoId: String(expoId) };
      if (page !== undefined) query['page'] = String(page);
      if (pageSize !== undefined) query['pageSize'] = String(pageSize);
      const env = await call(path, expoId, { method: 'GET', query });
      return isSuccessCode(env.code) ? ok(env, read(path, CheckInPage, env.data)) : refused(env);
    },
    async checkInStats({ expoId }) {
      const path = CheckinPath.checkInStats;
      const env = await call(path, expoId, { method: 'GET', query: { expoId: String(expoId) } });
      return isSuccessCode(env.code) ? ok(env, read(path, CheckInStats, env.data)) : refused(env);
    },
    async checkInLog({ expoId, page, pageSize }) {
      const path = CheckinPath.checkInLog;
      const query: Record<string, string> = { expoId: String(expoId) };
      if (page !== undefined) query['page'] = String(page);
      if (pageSize !== undefined) query['pageSize'] = String(pageSize);
      const env = await call(path, expoId, { method: 'GET', query });
      return isSuccessCode(env.code) ? ok(env, read(path, CheckInLog, env.data)) : refused(env);
    },
  };
}
