/**
 * Check-in at the gate on D1 (docs/upstream.md "Check-in (the gate)"): redeem a code, the expo's
 * admission list for an offline scanner, admitted and refused scans per gate and hour, the scan log.
 *
 * An admission is one D1 batch (one transaction) whose first statement is the conditional count:
 * a whole-show pass `UPDATE registrations … WHERE … AND (max_count = 0 OR used_count < max_count)
 * RETURNING used_count`; a pass valid on listed days an upsert of its day's row in checkin_days
 * guarded the same way, then the pass's total. Every condition (this expo, not void, approved,
 * the day among its days, room left) is checked inside the statement, so 40 scans of a code with
 * maxCount 1 at once admit exactly one, and a refund applied for at the same moment never meets
 * an admission half done (the refund's own statement refuses a used credential). The log row of
 * an admission is written in the same batch (`WHERE changes() = 1`), and so is a refusal's
 * (`WHERE changes() = 0`, its reason read from the row as the batch sees it).
 *
 * A scan may carry the scanner's own `scanId` (UNIQUE per expo in scan_log, migration
 * 0014_scan_ids.sql): the counting statement counts only while no log row holds that id, and
 * the log rows insert `ON CONFLICT DO NOTHING`, so a retried sync, also 40 of them at once, counts
 * once and logs once; every answer to that id carries the first answer's result (for an
 * admission: `admitted`, so a scanner retrying after a lost reply is not told "used").
 */
import type { Context } from 'hono';
import { z } from 'zod';
import type { CheckinResult } from '../../../src/lib/contract';
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
/** The scanner's own id of a scan: a retried sync of it is answered, not counted, again. */
const ScanId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, _ or -');
const RedeemBody = z.object({
  expoId: DecimalId.optional(),
  euCode: EuCode,
  gate: Gate,
  scannedAt: IsoTime,
  scanId: ScanId.optional(),
});

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
 * `POST /customFrom/redeemCode` `{ expoId, euCode, gate, scannedAt, scanId? }`: code 200 with `{ result, usedCount,
 * maxCount, useStatus, auditStatus, lastEntry, uname, euClass, ticketName, euDefine }` for every decided scan.
 * A `scanId` already logged for this expo (a retried sync) is answered with its first result and counts nothing.
 */
export async function redeemCode(c: Context<RefEnv>): Promise<Response> {
  const input = parseInput(RedeemBody, await readBody(c));
  if (!input.ok) return reply(c, RefCode.BAD_INPUT, input.msg);
  if (input.value.expoId !== undefined && input.value.expoId !== c.var.expo.id)
    return reply(c, RefCode.BAD_INPUT, OTHER_EXPO);
  const { euCode, gate, scannedAt } = input.value;
  const scanId = input.value.scanId ?? null;
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
  /** The scan's log row; a retried scanId conflicts and inserts nothing (RETURNING then gives no row). */
  const LOG = 'INSERT INTO scan_log (expo_id, eu_code, gate, scanned_at, day, hour, result, received_at, scan_id)';
  const NOT_LOGGED = 'ON CONFLICT (expo_id, scan_id) DO NOTHING RETURNING result';
  /** The result first answered to this scanId, or null (none given, or not seen yet). */
  const replayed = async (): Promise<CheckinResult | null> => {
    if (scanId === null) return null;
    const prior = await db
      .prepare('SELECT result, eu_code FROM scan_log WHERE expo_id = ? AND scan_id = ?')
      .bind(expo.id, scanId)
      .first<{ result: CheckinResult; eu_code: string }>();
    if (!prior) return null;
    // one scan is one code: the same id with another code is not a retry but a scanner's mistake
    if (prior.eu_code !== euCode) throw new ScanIdTaken();
    return prior.result;
  };
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

  try {
    const find = () =>
      db
        .prepare('SELECT * FROM registrations WHERE expo_id = ? AND eu_code = ?')
        .bind(expo.id, euCode)
        .first<RegistrationRow>();
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

    // A retried scan: its first answer's result, today's counts, nothing written.
    const again = await replayed();
    const row = await find();
    if (again !== null) {
      if (!row || again === 'otherExpo' || again === 'unknown') return ok(c, { result: again, ...blank });
      return answer(again, row, await countOf(db, row, day));
    }

    if (!row) {
      // decided and logged in one statement: another expo's code, or no code at all
      const logged = await db
        .prepare(
          `${LOG} SELECT ?1, ?2, ?3, ?4, ?5, ?6,
                  CASE WHEN EXISTS (SELECT 1 FROM registrations WHERE eu_code = ?2 AND expo_id <> ?1) THEN 'otherExpo' ELSE 'unknown' END,
                  ?7, ?8
            WHERE NOT EXISTS (SELECT 1 FROM registrations WHERE expo_id = ?1 AND eu_code = ?2) ${NOT_LOGGED}`,
        )
        .bind(expo.id, euCode, gate, at, day, hour, now, scanId)
        .first<{ result: CheckinResult }>();
      const result = logged?.result ?? (await replayed());
      const later = result === null || result === 'otherExpo' || result === 'unknown' ? null : await find();
      // a parallel retry of this scanId won (its result), or the code was registered meanwhile (unknown when scanned)
      if (result !== null && later) return answer(result, later, await countOf(db, later, day));
      return ok(c, { result: result === 'otherExpo' ? 'otherExpo' : 'unknown', ...blank });
    }

    // One batch (one transaction) decides and logs: the count, the admission's log row
    // (`changes() = 1`) or else the refusal's (`changes() = 0`), every condition inside the
    // statements, which is what decides under concurrency. A scanId already logged counts nothing.
    const allowed = `expo_id = ?1 AND eu_code = ?2 AND use_status <> 2 AND audit_status = 0`;
    const fresh = `NOT EXISTS (SELECT 1 FROM scan_log WHERE expo_id = ?1 AND scan_id = ?3)`;
    const logAdmission = db
      .prepare(`${LOG} SELECT ?, ?, ?, ?, ?, ?, 'admitted', ?, ? WHERE changes() = 1`)
      .bind(expo.id, euCode, gate, at, day, hour, now, scanId);
    // why it was not counted, read from the row as the batch sees it
    const logRefusal = db
      .prepare(
        `${LOG} SELECT ?1, ?2, ?3, ?4, ?5, ?6,
                CASE WHEN use_status = 2 THEN 'void'
                     WHEN audit_status <> 0 THEN 'review'
                     WHEN valid_days IS NOT NULL AND NOT EXISTS (SELECT 1 FROM json_each(valid_days) WHERE value = ?5) THEN 'otherDay'
                     ELSE 'used' END,
                ?7, ?8
           FROM registrations WHERE expo_id = ?1 AND eu_code = ?2 AND changes() = 0 ${NOT_LOGGED}`,
      )
      .bind(expo.id, euCode, gate, at, day, hour, now, scanId);
    let batch: D1Result<Record<string, unknown>>[];
    if (validDays(row) === null) {
      batch = await db.batch<Record<string, unknown>>([
        db
          .prepare(
            `UPDATE registrations SET used_count = used_count + 1, use_status = 1
              WHERE ${allowed} AND valid_days IS NULL AND (max_count = 0 OR used_count < max_count) AND ${fresh}
              RETURNING used_count`,
          )
          .bind(expo.id, euCode, scanId),
        logAdmission,
        logRefusal,
      ]);
    } else {
      batch = await db.batch<Record<string, unknown>>([
        db
          .prepare(
            `INSERT INTO checkin_days (expo_id, eu_code, day, used_count)
               SELECT ?1, ?2, ?4, 1 FROM registrations
                WHERE ${allowed} AND valid_days IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(valid_days) WHERE value = ?4)
                  AND ${fresh}
             ON CONFLICT (expo_id, eu_code, day) DO UPDATE SET used_count = checkin_days.used_count + 1
                WHERE EXISTS (SELECT 1 FROM registrations WHERE ${allowed} AND (max_count = 0 OR checkin_days.used_count < max_count))
                  AND ${fresh}
             RETURNING used_count`,
          )
          .bind(expo.id, euCode, scanId, day),
        // the pass's total over every day, which the refund rule reads (a used credential is not refunded)
        db
          .prepare(
            'UPDATE registrations SET used_count = used_count + 1, use_status = 1 WHERE expo_id = ? AND eu_code = ? AND changes() = 1',
          )
          .bind(expo.id, euCode),
        logAdmission,
        logRefusal,
      ]);
    }
    const counted = batch[0]?.results[0]?.['used_count'];
    const refused = batch[batch.length - 1]?.results[0]?.['result'] as CheckinResult | undefined;
    const current = (await find()) ?? row;
    if (typeof counted === 'number') return answer('admitted', current, counted);
    // Not counted: the refusal logged with the decision, or (a parallel retry of this scanId won) its first result.
    const result = refused ?? (await replayed()) ?? 'used';
    return answer(result, current, await countOf(db, current, day));
  } catch (e) {
    if (e instanceof ScanIdTaken) return reply(c, RefCode.BAD_INPUT, 'bad input: scanId was given to another code');
    throw e;
  }
}

/** A scanId already logged for another code of this expo. */
class ScanIdTaken extends Error {}

/** A paged read of this expo's list or log: its page and size, or the refusal of a bad query. */
function pageAsked(c: Context<RefEnv>): Response | { page: number; pageSize: number; db: D1Database; expoId: number } {
  const input = parseInput(ListQuery, c.req.query());
  if (!input.ok) return reply(c, RefCode.BAD_INPUT, input.msg);
  if (input.value.expoId !== undefined && input.value.expoId !== c.var.expo.id) return reply(c, RefCode.BAD_INPUT, OTHER_EXPO);
  return { page: input.value.page, pageSize: input.value.pageSize, db: c.env.DB, expoId: c.var.expo.id };
}

/**
 * `GET /customFrom/checkInList` `expoId, page, pageSize`: `{ total, page, pageSize, list: [{ hash, usedCount,
 * maxCount, auditStatus, useStatus, days }] }`, in a stable order (registration id).
 */
export async function checkInList(c: Context<RefEnv>): Promise<Response> {
  const asked = pageAsked(c);
  if (asked instanceof Response) return asked;
  const { page, pageSize, db, expoId } = asked;
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

/**
 * `GET /customFrom/checkInLog` `expoId, page, pageSize`: `{ total, page, pageSize, list: [{ at, gate, euCode, result,
 * scanId }] }`, every scan of the expo oldest first (by the time it happened, then arrival), the organiser's export.
 */
export async function checkInLog(c: Context<RefEnv>): Promise<Response> {
  const asked = pageAsked(c);
  if (asked instanceof Response) return asked;
  const { page, pageSize, db, expoId } = asked;
  const [total, rows] = await db.batch<Record<string, unknown>>([
    db.prepare('SELECT count(*) AS n FROM scan_log WHERE expo_id = ?').bind(expoId),
    db
      .prepare(
        `SELECT scanned_at AS at, gate, eu_code AS euCode, result, scan_id AS scanId
           FROM scan_log WHERE expo_id = ? ORDER BY scanned_at, id LIMIT ? OFFSET ?`,
      )
      .bind(expoId, pageSize, (page - 1) * pageSize),
  ]);
  return ok(c, { total: Number(total?.results[0]?.['n'] ?? 0), page, pageSize, list: rows?.results ?? [] });
}
