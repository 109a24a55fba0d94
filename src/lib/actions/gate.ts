/**
 * The gate's calls (README "The gate"; docs/upstream.md "Check-in (the gate)"), for staff with a
 * valid key of the expo only: functions/api/gate.ts answers every request without one exactly as
 * a path that does not exist, before any of this runs, and hands the key's gate in as a port.
 *
 * - `POST /api/gate/scan` (an action): `{ eid, code, scannedAt?, scanId? }`. A form post comes
 *   back 303 to `/gate/{eid}` with the answer in the flash; JSON answers
 *   `{ code: 200, msg: null, data: GateAnswer }`. The gate's name comes from the key, never from the body.
 * - `POST /api/gate/sync` (JSON only): `{ eid, scans: GateQueuedScan[] }` → `{ code: 200, data: { results: GateSynced[] } }`.
 * - `GET /api/gate/list?eid=` → `{ code: 200, data: GateList }`.
 *
 * An organiser API without the calls (a refusal with code 404, "unknown call") answers
 * `{ code: 501, msg: "…cannot record entries yet", data: null }` and the gate page says so. An
 * organiser's system that does not answer as the contract says (any HTTP status, a timeout, no
 * connection, a body that does not read, another code: src/lib/gate/fault.ts) answers
 * `{ code: 502, msg: <the reason in words> }`: the scanner decides from its list. It is never the
 * API's 404, which only a staff key the edge's own table refuses gets (issue 30).
 */
import { z } from 'zod';
import { decodeNumericId, encodeId } from '../util/ids';
import { gateAnswer, isDouble, unreadAnswer, type RedeemedView } from '../gate/answer';
import type { GateStaff } from '../gate/keys';
import { expoToday } from '../gate/report';
import { faultReason, readCall, UNSUPPORTED_CODE, type CallOutcome, type CallRead, type GateFault } from '../gate/fault';
import { codeReadings } from '../gate/code';
import {
  GATE_SYNC_MAX,
  GATE_UNSUPPORTED,
  GATE_UPSTREAM_FAULT,
  type GateAnswer,
  type GateList,
  type GateListRow,
  type GateQueuedScan,
  type GateResult,
  type GateSyncRefused,
  type GateSynced,
} from '../gate/types';
import { defineAction, type ActionContext, type ActionOutcome } from './outcome';
import type { Upstream } from '../contract';

/**
 * The upstream's check-in calls (src/lib/contract/checkin.ts) as the gate uses them: a
 * result, or the transport fault the call was thrown as (functions/api/gate.ts turns the client's
 * UpstreamError into a {@link GateFault} before it reaches these rules).
 */
export type GateUpstream = { [K in 'redeemCode' | 'checkInList']: (...a: Parameters<Upstream[K]>) => Promise<CallOutcome<DataOf<Awaited<ReturnType<Upstream[K]>>>>> };

/** A success's data type of a call's result. */
type DataOf<R> = R extends { ok: true; data: infer D } ? D : never;

export interface GatePorts {
  up: GateUpstream;
  /** the request's staff key, already checked (functions/api/gate.ts) */
  staff: GateStaff;
}

/** The upstream code of "no such call" (docs/upstream.md "Check-in"): this organiser's API cannot check in. */
export { UNSUPPORTED_CODE };
/** Our envelope codes for it and for an organiser's system that did not answer as expected: src/lib/gate/types.ts, where the island reads them. */
export { GATE_UNSUPPORTED, GATE_UPSTREAM_FAULT };

/** A fault's reason in the page's words. */
export function faultText(f: GateFault, t: ActionContext['t']): string {
  const { key, vars } = faultReason(f);
  return t(key, vars);
}

/** The rows of the admission list the edge reads at most; past it the list says `complete: false`. */
export const GATE_LIST_CAP = 50_000;
/** The page size the edge asks for (the contract's largest). */
export const GATE_LIST_PAGE = 1000;

/** A scanner's id of a scan. */
export const SCAN_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** An ISO time with its zone, as the contract takes `scannedAt`. */
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A posted `scannedAt`, or null when it is not an ISO time with a zone. */
export function readScannedAt(text: string | undefined): string | null {
  const v = (text ?? '').trim();
  if (!ISO_WITH_ZONE.test(v)) return null;
  const ms = Date.parse(v);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** The gate page of an expo. */
export function gatePath(expoId: number): string {
  return `/gate/${encodeId(expoId)}`;
}

/** The organiser's API lacks the check-in calls: the island reads its code, the page says so. */
const unsupported: ActionOutcome<never> = { kind: 'notice', notice: { tone: 'error', key: 'gate.unsupported', text: null }, code: GATE_UNSUPPORTED };

/** The fields a scan posts (strings; checked in `run`, after the key, so nothing is said to a caller without one). */
const ScanFields = z.record(z.string(), z.string());

/** What one scan on the upstream came to. */
export type Redeemed =
  | { ok: true; answer: GateAnswer }
  /** the API lacks the call */
  | { ok: false; kind: 'unsupported' }
  /** the organiser refused this scan's input (400): its message */
  | { ok: false; kind: 'refusedScan'; code: number; msg: string | null }
  /** the organiser's system did not answer as expected */
  | { ok: false; kind: 'fault'; fault: GateFault };

/** One scan on the upstream: the answer, a refusal of this scan, the API without the call, or a fault. */
export async function redeem(
  ports: GatePorts,
  scan: { text: string; scannedAt: string; scanId?: string | undefined },
  t: ActionContext['t'],
): Promise<Redeemed> {
  const { staff } = ports;
  const readings = codeReadings(scan.text);
  const shown = scan.text.replace(/\s+/g, '').slice(0, 64);
  if (readings.length === 0) return { ok: true, answer: unreadAnswer(shown, staff.gate, scan.scannedAt) };
  // The likeliest reading first; the next only when the organiser does not know it (its codes may hold a 0).
  let code = readings[0] ?? '';
  let r: CallRead<RedeemedView> = { kind: 'unsupported' };
  for (const reading of readings) {
    code = reading;
    r = readCall(
      await ports.up.redeemCode({
        expoId: staff.expoId,
        euCode: code,
        gate: staff.gate,
        scannedAt: scan.scannedAt,
        ...(scan.scanId !== undefined ? { scanId: scan.scanId } : {}),
      }),
      true,
    );
    if (r.kind !== 'decided' || r.data.result !== 'unknown') break;
  }
  // known by none: the answer shows the likeliest reading, as staff will read it back
  if (r.kind === 'decided' && r.data.result === 'unknown') code = readings[0] ?? code;
  switch (r.kind) {
    case 'decided':
      return { ok: true, answer: gateAnswer(r.data, { code, gate: staff.gate, scannedAt: scan.scannedAt }, t) };
    case 'unsupported':
      return { ok: false, kind: 'unsupported' };
    case 'refusedScan':
      return { ok: false, kind: 'refusedScan', code: r.code, msg: r.msg };
    case 'fault':
      return { ok: false, kind: 'fault', fault: r.fault };
  }
}

/**
 * The id of the server-rendered answer. A form post comes back to the gate's top, not to this
 * anchor: the answer is the page's first block (issue 30), and a fragment would stop the browser
 * focusing the code field for the next person (HTML autofocus is skipped on a fragment's target).
 */
export const GATE_ANSWER_ANCHOR = 'gate-answer';

export const gateScan = defineAction({
  path: '/api/gate/scan',
  bodyLimit: 2 * 1024,
  // the gate page shows the answer a form post came back with
  flashData: true,
  input: ScanFields,
  back: (fields) => {
    const expoId = decodeNumericId(fields['eid']);
    return expoId === null ? '/' : gatePath(expoId);
  },
  async run(fields, ports: GatePorts, ctx): Promise<ActionOutcome> {
    const text = fields['code'] ?? '';
    // The manual form focuses the field; the scanner (which never posts an empty code) gets a 400.
    if (text.trim() === '') return { kind: 'invalid', errors: [{ field: 'code', key: 'gate.codeMissing', text: null }], status: 400, data: null };
    const scannedAt = fields['scannedAt'] === undefined ? new Date(ctx.now).toISOString() : readScannedAt(fields['scannedAt']);
    const scanId = fields['scanId'];
    if (scannedAt === null || (scanId !== undefined && !SCAN_ID.test(scanId))) return { kind: 'broken', message: ctx.t('gate.badScan') };
    const r = await redeem(ports, { text, scannedAt, scanId }, ctx.t);
    if (!r.ok) {
      if (r.kind === 'unsupported') return unsupported;
      if (r.kind === 'fault') {
        // Not the API's 404: the scanner tells this from a staff key the edge refused, and decides
        // offline from its list (the reason alone); the page without it says what to do instead.
        const reason = faultText(r.fault, ctx.t);
        return { kind: 'notice', notice: { tone: 'error', key: 'gate.faultNoJs', vars: { reason }, text: null }, code: GATE_UPSTREAM_FAULT, msg: reason };
      }
      return { kind: 'notice', notice: { tone: 'error', key: null, text: r.msg?.trim() || ctx.t('error.relatedData') } };
    }
    // The answer itself: the island's `data`, the gate page's flash `data` (src/lib/screens/gate.ts).
    return { kind: 'notice', notice: null, data: r.answer };
  },
});

/** A sync post, as read: the scans, or why it is refused (a catalogue key). */
export function readSync(body: unknown): { ok: true; eid: string; scans: GateQueuedScan[] } | { ok: false; key: string } {
  const o = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  if (!o || typeof o['eid'] !== 'string' || !Array.isArray(o['scans'])) return { ok: false, key: 'gate.badScan' };
  const raw = o['scans'] as unknown[];
  if (raw.length > GATE_SYNC_MAX) return { ok: false, key: 'gate.tooMany' };
  const RESULT = z.enum(['admitted', 'used', 'review', 'void', 'otherDay', 'otherExpo', 'unknown']);
  const Scan = z.object({
    scanId: z.string().regex(SCAN_ID),
    code: z.string().max(2048),
    scannedAt: z.string().max(40),
    local: RESULT,
  });
  const scans: GateQueuedScan[] = [];
  for (const s of raw) {
    const p = Scan.safeParse(s);
    const at = p.success ? readScannedAt(p.data.scannedAt) : null;
    if (!p.success || at === null) return { ok: false, key: 'gate.badScan' };
    scans.push({ scanId: p.data.scanId, code: p.data.code, scannedAt: at, local: p.data.local as GateResult });
  }
  return { ok: true, eid: o['eid'], scans };
}

/**
 * Redeems queued scans in order, each with its own `scannedAt` and `scanId` (so a retried sync is
 * answered, not counted, twice by an upstream that keeps scan ids); `double` when the scanner
 * admitted someone the server's count refuses. A scan the organiser refuses (`400`, e.g. a
 * `scannedAt` more than 30 days old from a phone whose clock is wrong) is answered as refused,
 * with the organiser's message, and the rest go on (issue 30: one such scan stalled every later
 * sync of its scanner). A fault of the organiser's system stops there: what was answered so far
 * comes back, the rest stay queued on the scanner (code 502, the reason in words). JSON only
 * (functions/api/gate.ts answers the outcome as its envelope).
 */
export async function syncScans(scans: readonly GateQueuedScan[], ports: GatePorts, t: ActionContext['t']): Promise<ActionOutcome<{ results: GateSynced[]; refused: GateSyncRefused[] }>> {
  const results: GateSynced[] = [];
  const refused: GateSyncRefused[] = [];
  for (const s of scans) {
    const r = await redeem(ports, { text: s.code, scannedAt: s.scannedAt, scanId: s.scanId }, t);
    if (!r.ok) {
      if (r.kind === 'unsupported') return unsupported;
      if (r.kind === 'refusedScan') {
        refused.push({ scanId: s.scanId, code: r.code, msg: r.msg?.trim() || t('error.relatedData') });
        continue;
      }
      return { kind: 'notice', notice: { tone: 'error', key: null, text: faultText(r.fault, t) }, code: GATE_UPSTREAM_FAULT, data: { results, refused } };
    }
    results.push({ scanId: s.scanId, answer: r.answer, double: isDouble(s.local, r.answer.result) });
  }
  return { kind: 'notice', notice: null, data: { results, refused } };
}

/**
 * The expo's admission list for an offline scanner: every page of checkInList, up to
 * {@link GATE_LIST_CAP} rows (`complete` false past it, or when a page failed after the first).
 */
export async function gateList(ports: GatePorts, now: number, t: ActionContext['t']): Promise<ActionOutcome<GateList>> {
  const { expoId } = ports.staff;
  const rows: GateListRow[] = [];
  let complete = true;
  for (let page = 1; ; page++) {
    const r = readCall(await ports.up.checkInList({ expoId, page, pageSize: GATE_LIST_PAGE }));
    if (r.kind !== 'decided') {
      if (page === 1) {
        if (r.kind === 'unsupported') return unsupported;
        return { kind: 'notice', notice: { tone: 'error', key: null, text: r.kind === 'fault' ? faultText(r.fault, t) : t('error.relatedData') }, code: GATE_UPSTREAM_FAULT };
      }
      complete = false;
      break;
    }
    rows.push(...r.data.list);
    if (rows.length >= GATE_LIST_CAP) {
      complete = rows.length === GATE_LIST_CAP && r.data.total === GATE_LIST_CAP;
      rows.length = Math.min(rows.length, GATE_LIST_CAP);
      break;
    }
    const total = r.data.total;
    if (r.data.list.length === 0 || (total !== null ? rows.length >= total : r.data.list.length < GATE_LIST_PAGE)) break;
  }
  return { kind: 'notice', notice: null, data: { expoId, today: expoToday(expoId, now), fetchedAt: new Date(now).toISOString(), complete, rows } };
}
