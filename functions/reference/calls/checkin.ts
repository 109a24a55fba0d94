/**
 * Check-in at the gate on D1 (docs/upstream.md "Check-in (the gate)"): redeem a code, the expo's
 * admission list for an offline scanner, admitted and refused scans per gate and hour.
 *
 * An admission is one D1 batch (one transaction) whose first statement is the conditional count:
 * a whole-show pass `UPDATE registrations … WHERE … AND (max_count = 0 OR used_count < max_count)
 * RETURNING used_count`; a pass valid on listed days an upsert of its day's row in checkin_days
 * guarded the same way, then the pass's total. Every condition (this expo, not void, approved,
 * the day among its days, room left) is checked inside the statement, so 40 scans of a code with
 * maxCount 1 at once admit exactly one, and a refund applied for at the same moment never meets
 * an admission half done (the refund's own statement refuses a used credential). The log row of
 * an admission is written in the same batch (`WHERE changes() = 1`); a refusal is logged after.
 */
import type { Context } from 'hono';
import { z } from 'zod';
import type { CheckinResult } from '../../upstream/contract';
import { RefCode, ok, reply } from '../envelope';
import { expoLocalTime, type RefEnv } from '../expo';
import { DecimalId, boundedWhole, parseInput, readSmallJson } from '../inputs';
import { type RegistrationRow, validDays } from '../registrations';
import {
  CHECKIN_FUTURE_SKEW_MS,
  CHECKIN_MAX_AGE_DAYS,
  CHECKIN_MAX_BODY,
  CHECKIN_PAGE_SIZE_DEFAULT,
  CHECKIN_PAGE_SIZE_MAX,
  GATE_MAX_CHARS,
} from '../rules';

const EuCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a registration code');
/** An ISO time with its zone, so a scan made offline and synced later means one instant. */
const IsoTime = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/, 'must be an ISO time with a zone')
  .transform((s) => Date.parse(s))
  .pipe(z.number().finite());
const Gate = z
  .string()
  .trim()
  .min(1, 'is required')
  .refine((g) => [...g].length <= GATE_MAX_CHARS, `is at most ${GATE_MAX_CHARS} characters`)
  .refine((g) => !/[\u0000-\u001f\u007f]/.test(g), 'has control characters');
const RedeemBody = z.object({ expoId: DecimalId.optional(), euCode: EuCode, gate: Gate, scannedAt: IsoTime });

const ListQuery = z.object({
  expoId: DecimalId.optional(),
  page: boundedWhole(1, 1_000_000, 1),
  pageSize: boundedWhole(1, CHECKIN_PAGE_SIZE_MAX, CHECKIN_PAGE_SIZE_DEFAULT),
});
const StatsQuery = z.object({ expoId: DecimalId.optional() });

const OTHER_EXPO = 'bad input: expoId is not the expoId header';

const readBody = (c: Context<RefEnv>) => readSmallJson(c.req.raw, CHECKIN_MAX_BODY);

/** SHA-256 hex of `{expoId}:{euCode}`: how the admission list names a code without holding it. */
export async function codeHash(expoId: number, euCode: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${expoId}:${euCode}`));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The latest admission of a code, by the time it happened. */
async function lastEntry(db: D1Database, expoId: number, euCode: string): Promise<{ at: string; gate: string } | null> {
  const row = await db
    .prepare(
      "SELECT scanned_at AS at, gate FROM scan_log WHERE expo_id = ? AND eu_code = ? AND result = 'admitted' ORDER BY scanned_at DESC, id DESC LIMIT 1",
    )
    .bind(expoId, euCode)
    .first<{ at: string; gate: string }>();
  return row ?? null;
}

/** Exported for queryCustomerCode: the latest admission of a registration. */
export { lastEntry as latestAdmission };

/** Why a scan of this registration on this day is refused before counting; null when it may count. */
function refusal(row: RegistrationRow, day: string): CheckinResult | null {
  if (row.use_status === 2) return 'void';
  if (row.audit_status !== 0) return 'review';
  const days = validDays(row);
  if (days !== null && !days.includes(day)) return 'otherDay';
  return null;
}

/** The day's count of a pass valid on listed days; the whole count of a whole-show pass. */
async function countOf(db: D1Database, row: RegistrationRow, day: string): Promise<number> {
  if (validDays(row) === null) return row.used_count;
  const r = await db
    .prepare('SELECT used_count FROM checkin_days WHERE expo_id = ? AND eu_code = ? AND day = ?')
    .bind(row.expo_id, row.eu_code, day)
    .first<{ used_count: number }>();
  return r?.used_count ?? 0;
}

/**
 * `POST /customFrom/redeemCode` `{ expoId, euCode, gate, scannedAt }`: code 200 with `{ result, usedCount,
 * maxCount, useStatus, auditStatus, lastEntry, uname, euClass, ticketName, euDefine }` for every decided scan.
 */
export async function redeemCode(c: Context<RefEnv>): Promise<Response> {
  const input = parseInput(RedeemBody, await readBody(c));
  if (!input.ok) return reply(c, RefCode.BAD_INPUT, input.msg);
  if (input.value.expoId !== undefined && input.value.expoId !== c.var.expo.id)
    return reply(c, RefCode.BAD_INPUT, OTHER_EXPO);
  const { euCode, gate, scannedAt } = input.value;
  const now = Date.now();
  if (scannedAt > now + CHECKIN_FUTURE_SKEW_MS)
    return reply(c, RefCode.BAD_INPUT, 'bad input: scannedAt is in the future');
  if (scannedAt < now - CHECKIN_MAX_AGE_DAYS * 86_400_000)
    return reply(c, RefCode.BAD_INPUT, `bad input: scannedAt is more than ${CHECKIN_MAX_AGE_DAYS} days old`);

  const db = c.env.DB;
  const expo = c.var.expo;
  const at = expoLocalTime(scannedAt, expo.utc_offset_minutes);
  const day = at.slice(0, 10);
  const hour = Number(at.slice(11, 13));
  const log = (result: CheckinResult) =>
    db
      .prepare(
        'INSERT INTO scan_log (expo_id, eu_code, gate, scanned_at, day, hour, result, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .bind(expo.id, euCode, gate, at, day, hour, result, now);
  const blank = {
    usedCount: null,
    maxCount: null,
    useStatus: null,
    auditStatus: null,
    lastEntry: null,
    uname: null,
    euClass: null,
    ticketName: null,
    euDefine: null,
  };

  const find = () =>
    db
      .prepare('SELECT * FROM registrations WHERE expo_id = ? AND eu_code = ?')
      .bind(expo.id, euCode)
      .first<RegistrationRow>();
  const row = await find();
  if (!row) {
    const elsewhere = await db
      .prepare('SELECT 1 AS x FROM registrations WHERE eu_code = ? AND expo_id <> ?')
      .bind(euCode, expo.id)
      .first();
    const result: CheckinResult = elsewhere ? 'otherExpo' : 'unknown';
    await log(result).run();
    return ok(c, { result, ...blank });
  }

  const answer = async (result: CheckinResult, current: RegistrationRow, usedCount: number) =>
    ok(c, {
      result,
      usedCount,
      maxCount: current.max_count,
      useStatus: current.use_status,
      auditStatus: current.audit_status,
      lastEntry: await lastEntry(db, expo.id, euCode),
      uname: current.uname,
      euClass: current.eu_class,
      ticketName: current.ticket_name,
      euDefine: current.eu_define,
    });

  const early = refusal(row, day);
  if (early !== null) {
    await log(early).run();
    return answer(early, row, await countOf(db, row, day));
  }

  // The conditions again, inside the statements: they are what decides under concurrency.
  const allowed = `expo_id = ?1 AND eu_code = ?2 AND use_status <> 2 AND audit_status = 0`;
  const logAdmission = db
    .prepare(
      "INSERT INTO scan_log (expo_id, eu_code, gate, scanned_at, day, hour, result, received_at) SELECT ?, ?, ?, ?, ?, ?, 'admitted', ? WHERE changes() = 1",
    )
    .bind(expo.id, euCode, gate, at, day, hour, now);
  let counted: number | undefined;
  if (validDays(row) === null) {
    const [bump] = await db.batch<{ used_count: number }>([
      db
        .prepare(
          `UPDATE registrations SET used_count = used_count + 1, use_status = 1
            WHERE ${allowed} AND valid_days IS NULL AND (max_count = 0 OR used_count < max_count) RETURNING used_count`,
        )
        .bind(expo.id, euCode),
      logAdmission,
    ]);
    counted = bump?.results[0]?.used_count;
  } else {
    const [bump] = await db.batch<{ used_count: number }>([
      db
        .prepare(
          `INSERT INTO checkin_days (expo_id, eu_code, day, used_count)
             SELECT ?1, ?2, ?3, 1 FROM registrations
              WHERE ${allowed} AND valid_days IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(valid_days) WHERE value = ?3)
           ON CONFLICT (expo_id, eu_code, day) DO UPDATE SET used_count = checkin_days.used_count + 1
              WHERE EXISTS (SELECT 1 FROM registrations WHERE ${allowed} AND (max_count = 0 OR checkin_days.used_count < max_count))
           RETURNING used_count`,
        )
        .bind(expo.id, euCode, day),
      // the pass's total over every day, which the refund rule reads (a used credential is not refunded)
      db
        .prepare(
          'UPDATE registrations SET used_count = used_count + 1, use_status = 1 WHERE expo_id = ? AND eu_code = ? AND changes() = 1',
        )
        .bind(expo.id, euCode),
      logAdmission,
    ]);
    counted = bump?.results[0]?.used_count;
  }
  const current = (await find()) ?? row;
  if (counted !== undefined) return answer('admitted', current, counted);
  // Not counted: something changed meanwhile (void, review) or no room was left.
  const result = refusal(current, day) ?? 'used';
  await log(result).run();
  return answer(result, current, await countOf(db, current, day));
}

/**
 * `GET /customFrom/checkInList` `expoId, page, pageSize`: `{ total, page, pageSize, list: [{ hash, usedCount,
 * maxCount, auditStatus, useStatus, days }] }`, in a stable order (registration id).
 */
export async function checkInList(c: Context<RefEnv>): Promise<Response> {
  const input = parseInput(ListQuery, c.req.query());
  if (!input.ok) return reply(c, RefCode.BAD_INPUT, input.msg);
  if (input.value.expoId !== undefined && input.value.expoId !== c.var.expo.id)
    return reply(c, RefCode.BAD_INPUT, OTHER_EXPO);
  const { page, pageSize } = input.value;
  const db = c.env.DB;
  const expoId = c.var.expo.id;
  const [total, rows] = await db.batch<Record<string, unknown>>([
    db.prepare('SELECT count(*) AS n FROM registrations WHERE expo_id = ?').bind(expoId),
    db
      .prepare(
        `SELECT r.eu_code, r.used_count, r.max_count, r.audit_status, r.use_status, r.valid_days,
                (SELECT json_group_array(json_object('day', d.value, 'usedCount', coalesce(k.used_count, 0)))
                   FROM json_each(r.valid_days) d
                   LEFT JOIN checkin_days k ON k.expo_id = r.expo_id AND k.eu_code = r.eu_code AND k.day = d.value) AS days
           FROM registrations r WHERE r.expo_id = ? ORDER BY r.id LIMIT ? OFFSET ?`,
      )
      .bind(expoId, pageSize, (page - 1) * pageSize),
  ]);
  const list = await Promise.all(
    (rows?.results ?? []).map(async (r) => ({
      hash: await codeHash(expoId, String(r['eu_code'])),
      usedCount: r['used_count'],
      maxCount: r['max_count'],
      auditStatus: r['audit_status'],
      useStatus: r['use_status'],
      days: r['valid_days'] === null ? null : (JSON.parse(String(r['days'] ?? '[]')) as unknown),
    })),
  );
  return ok(c, { total: Number(total?.results[0]?.['n'] ?? 0), page, pageSize, list });
}

/** `GET /customFrom/checkInStats` `expoId`: `{ rows: [{ day, hour, gate, admitted, refused }] }` (expo-local hours). */
export async function checkInStats(c: Context<RefEnv>): Promise<Response> {
  const input = parseInput(StatsQuery, c.req.query());
  if (!input.ok) return reply(c, RefCode.BAD_INPUT, input.msg);
  if (input.value.expoId !== undefined && input.value.expoId !== c.var.expo.id)
    return reply(c, RefCode.BAD_INPUT, OTHER_EXPO);
  const { results } = await c.env.DB.prepare(
    `SELECT day, hour, gate, sum(result = 'admitted') AS admitted, sum(result <> 'admitted') AS refused
       FROM scan_log WHERE expo_id = ? GROUP BY day, hour, gate ORDER BY day, hour, gate LIMIT 5000`,
  )
    .bind(c.var.expo.id)
    .all();
  return ok(c, { rows: results });
}
