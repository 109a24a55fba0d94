/**
 * Check-in calls (docs/upstream.md "Check-in (the gate)"): plain params and data. `redeemCode`
 * answers every decided scan as a success whose `result` says what happened (an upstream without
 * the call answers a refusal, e.g. 404 "unknown call", which the gate reports to the operator).
 * Replies are read loosely through the contract's schemas.
 */
import { CheckInLog, CheckInPage, CheckInStats, CheckinPath, Redeemed, isSuccessCode } from '../../../src/lib/contract';
import type { UpstreamCore } from '../core';
import type { CheckinCalls } from '../../../src/lib/contract';

export type { CheckInLog, CheckInLogRow, CheckInPage, CheckInStatRow, CheckinResult, Redeemed } from '../../../src/lib/contract';

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
