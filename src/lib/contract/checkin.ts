/**
 * Check-in at the gate (docs/upstream.md "Check-in (the gate)"): the call that marks a credential
 * used, the expo's admission list for an offline scanner and the counts per gate and hour. Paths
 * relative to `{UPSTREAM_URL}/custom`, plain params and data (no AES). The spec shows none of
 * these calls: they are our reading. Replies are read loosely (numbers as decimal strings, junk
 * fields ignored, rows that do not read dropped); a `result` outside the list is not a decision
 * and does not read.
 */
import { z } from 'zod';
import { looseInt, looseText } from './loose';
import { under } from './wire';
import type { UpstreamResult } from './result';

export const CheckinPath = under('/customFrom', 'redeemCode checkInList checkInStats checkInLog');

/**
 * What a scan decided: `admitted` (counted), `used` (maxCount reached: nothing changed), `review`
 * (awaiting review), `void` (refund applied for), `otherDay` (a pass valid on listed days, not
 * this one), `otherExpo` (a registration of another expo: nothing more said), `unknown`.
 * Only `admitted` lets the person in.
 */
export const CHECKIN_RESULTS = ['admitted', 'used', 'review', 'void', 'otherDay', 'otherExpo', 'unknown'] as const;
export type CheckinResult = (typeof CHECKIN_RESULTS)[number];

/** A gate's name: short, given by staff. */
export const GATE_MAX_CHARS = 40;
/** The largest page of the admission list. */
export const CHECKIN_LIST_PAGE_MAX = 1000;

const count = looseInt.optional().transform((v) => (v === undefined || v === null || v < 0 ? null : v));

/** `{ at, gate }`: the latest admission (`at` "YYYY-MM-DD HH:mm:ss", expo-local); anything else reads as none. */
export const LastEntry = z
  .unknown()
  .optional()
  .transform((v): { at: string; gate: string } | null => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
    const o = v as Record<string, unknown>;
    const at = looseText(40).parse(o['at']);
    const gate = looseText(GATE_MAX_CHARS).parse(o['gate']);
    return at === '' ? null : { at, gate };
  });
export type LastEntry = z.output<typeof LastEntry>;

/** redeemCode's data. */
export const Redeemed = z.object({
  result: z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), z.enum(CHECKIN_RESULTS)),
  usedCount: count,
  maxCount: count,
  useStatus: count,
  auditStatus: count,
  lastEntry: LastEntry,
  uname: looseText(100),
  euClass: count,
  ticketName: looseText(200),
  euDefine: looseText(200),
});
export type Redeemed = z.output<typeof Redeemed>;

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** One entry of the admission list: `days` null for a whole-show pass, else its days with that day's count. */
export const CheckInRow = z.object({
  hash: z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.string().regex(/^[0-9a-f]{64}$/)),
  usedCount: count.pipe(z.number()),
  maxCount: count.pipe(z.number()),
  auditStatus: count,
  useStatus: count,
  days: z
    .unknown()
    .optional()
    .transform((v) => {
      if (!Array.isArray(v)) return null;
      return v.flatMap((d) => {
        const o = d !== null && typeof d === 'object' ? (d as Record<string, unknown>) : {};
        const day = Day.safeParse(o['day']);
        const used = looseInt.safeParse(o['usedCount']);
        return day.success
          ? [{ day: day.data, usedCount: used.success && used.data !== null && used.data >= 0 ? used.data : 0 }]
          : [];
      });
    }),
});
export type CheckInRow = z.output<typeof CheckInRow>;

const rowsOf = <S extends z.ZodType>(schema: S, max: number) =>
  z.unknown().transform((v): z.output<S>[] => {
    if (!Array.isArray(v)) return [];
    return v.slice(0, max).flatMap((x) => {
      const r = schema.safeParse(x);
      return r.success ? [r.data as z.output<S>] : [];
    });
  });

/**
 * A page's data, or a bare array: anything else (a string of garbage, null, an object without a
 * `list` array) does not read, so the edge treats it as a fault, never as an empty list an offline
 * scanner would refuse every code from (issue 30).
 */
const PageShape = z.union([z.array(z.unknown()), z.object({ list: z.array(z.unknown()) }).passthrough()]);

/** checkInList's data: `{ total, page, pageSize, list }`; a bare array is a page without a total. */
export const CheckInPage = PageShape.transform((v) => {
  const o = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  const list = rowsOf(CheckInRow, CHECKIN_LIST_PAGE_MAX).parse(Array.isArray(v) ? v : o['list']);
  const total = looseInt.safeParse(o['total']);
  return { total: total.success && total.data !== null && total.data >= 0 ? total.data : null, list };
});
export type CheckInPage = z.output<typeof CheckInPage>;

/** One line of checkInStats: admitted and refused scans at a gate in an hour (expo-local). */
export const CheckInStatRow = z.object({
  day: Day,
  hour: looseInt.pipe(z.number().int().min(0).max(23)),
  gate: looseText(GATE_MAX_CHARS),
  admitted: count.pipe(z.number()),
  refused: count.pipe(z.number()),
});
export type CheckInStatRow = z.output<typeof CheckInStatRow>;

/** checkInStats' data: `{ rows }` or a bare array. */
export const CheckInStats = z.unknown().transform((v) => {
  const o = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  return rowsOf(CheckInStatRow, 5000).parse(Array.isArray(v) ? v : o['rows']);
});
export type CheckInStats = z.output<typeof CheckInStats>;

/** The largest page of the scan log. */
export const CHECKIN_LOG_PAGE_MAX = 1000;

/** One scan of the log (checkInLog): when and where, the code, what was decided. */
export const CheckInLogRow = z.object({
  at: z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/),
  gate: looseText(GATE_MAX_CHARS),
  euCode: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  result: z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), z.enum(CHECKIN_RESULTS)),
  scanId: looseText(64),
});
export type CheckInLogRow = z.output<typeof CheckInLogRow>;

/** checkInLog's data: `{ total, page, pageSize, list }` (oldest first); a bare array is a page without a total. */
export const CheckInLog = PageShape.transform((v) => {
  const o = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  const list = rowsOf(CheckInLogRow, CHECKIN_LOG_PAGE_MAX).parse(Array.isArray(v) ? v : o['list']);
  const total = looseInt.safeParse(o['total']);
  return { total: total.success && total.data !== null && total.data >= 0 ? total.data : null, list };
});
export type CheckInLog = z.output<typeof CheckInLog>;

// The calls of this area as the client answers them: the one declaration the client implements and src/lib picks its ports from.
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
