/**
 * The offline gate, pure: what a scanner without network decides from the admission list it keeps
 * (src/lib/gate/types.ts `GateList`), how it counts its own admissions so the same code twice is
 * refused, and what it makes of the server's answers when the queued scans are sent
 * (`POST /api/gate/sync`): the server's count wins, and every scan admitted offline that the
 * server would have refused is a double entry staff must see.
 *
 * The scanner island (src/islands/GateScanner.tsx) keeps the list and the queue in IndexedDB and
 * calls these rules; nothing here touches the browser.
 */
import { normaliseCode } from './code';
import type { GateAnswer, GateListRow, GateQueuedScan, GateResult, GateSyncRefused, GateSynced } from './types';

/** A list row as the scanner keeps it: the server's row, plus the last entry it made or learnt. */
export interface LocalRow extends GateListRow {
  /** the latest admission this scanner knows of (its own offline ones, or a server answer's) */
  lastEntry?: { at: string; gate: string } | null;
}

/** What the scanner decided without the server. */
export interface LocalDecision {
  result: GateResult;
  /** the count before this scan (today's for a day pass); null when the code is not on the list */
  usedCount: number | null;
  maxCount: number | null;
}

/** The same code read again within this many milliseconds is the same person: ignored. */
export const REPEAT_WINDOW_MS = 3000;

/**
 * SHA-256 hex of `{expoId}:{code}`: the key of the list's rows (no code is ever on the list). The
 * code is read first as every scan reads it ({@link normaliseCode}): a code typed in lower case
 * or with 0 for O finds the row the organiser hashed from the code itself.
 */
export async function listHash(expoId: number, code: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${expoId}:${normaliseCode(code) ?? code}`));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The one reading of a typed or scanned code (src/lib/gate/code.ts): the camera's, the form's, the list's. */
export { normaliseCode };

/**
 * The device's local calendar day of an instant, "YYYY-MM-DD". A gate scanner stands at the
 * expo, so its clock's day is the expo-local day the list's day passes are counted in.
 */
export function localDay(at: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())}`;
}

/**
 * The expo-local day a scan at `now` counts on, offline: the list's own `today` while the phone's
 * calendar day is still the one it was when the list was read (a phone whose clock is set to
 * another time zone than the expo's still counts day passes on the expo's day); after the phone's
 * day has turned, the phone's day (a gate scans through a night offline without a fresh list only
 * where the two agree anyway).
 */
export function scanDay(list: { today: string; fetchedAt: string } | null, now: Date): string {
  const device = localDay(now);
  if (!list) return device;
  const fetched = new Date(list.fetchedAt);
  return !Number.isNaN(fetched.getTime()) && localDay(fetched) === device ? list.today : device;
}

/** An instant as the device's local "YYYY-MM-DD HH:mm:ss" (the form of a server answer's `lastEntry.at`). */
export function localStamp(at: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${localDay(at)} ${p(at.getHours())}:${p(at.getMinutes())}:${p(at.getSeconds())}`;
}

/** The count that decides today: the day's own for a day pass (null: not valid today), else the whole count. */
function countFor(row: GateListRow, day: string): number | null {
  if (row.days === null) return row.usedCount;
  return row.days.find((d) => d.day === day)?.usedCount ?? null;
}

/**
 * The decision for a code, from its list row alone (`null`: not on this expo's list; offline the
 * scanner cannot tell another expo's code from an unknown one, so both are `unknown`).
 * In order: not on the list; awaiting review (`auditStatus` other than 0; null = not stated,
 * taken as approved); void (`useStatus` 2); a day pass on a day not among its days; the count
 * (today's for a day pass) at the maximum (0 = unlimited); else admitted.
 * @example decideLocally(null, '2026-11-26').result // 'unknown'
 */
export function decideLocally(row: GateListRow | null, day: string): LocalDecision {
  if (!row) return { result: 'unknown', usedCount: null, maxCount: null };
  const count = countFor(row, day);
  const out = (result: GateResult): LocalDecision => ({ result, usedCount: count ?? 0, maxCount: row.maxCount });
  if (row.auditStatus !== null && row.auditStatus !== 0) return out('review');
  if (row.useStatus === 2) return out('void');
  if (count === null) return out('otherDay');
  if (row.maxCount > 0 && count >= row.maxCount) return out('used');
  return out('admitted');
}

/**
 * The row after one admission on `day` (the whole count, and the day's for a day pass), with the
 * entry as its last: the same code offline again is then refused as used.
 */
export function bump(row: LocalRow, day: string, entry: { at: string; gate: string }): LocalRow {
  return {
    ...row,
    usedCount: row.usedCount + 1,
    days: row.days === null ? null : row.days.map((d) => (d.day === day ? { ...d, usedCount: d.usedCount + 1 } : d)),
    lastEntry: entry,
  };
}

/**
 * The row after the server answered a scan of it (a sync's or an online scan's): the server's
 * count wins (for a day pass, the count of the scan's day), its last entry replaces ours, and a
 * void or review answer marks the row so the next offline scan says so too. `unknown` and
 * `otherExpo` answers leave the row as it is (a code the server does not know has no row).
 */
export function mergeAnswer(row: LocalRow, answer: GateAnswer, day: string): LocalRow {
  if (answer.result === 'unknown' || answer.result === 'otherExpo') return row;
  const next: LocalRow = { ...row };
  if (answer.maxCount !== null) next.maxCount = answer.maxCount;
  if (answer.usedCount !== null) {
    if (row.days === null) next.usedCount = answer.usedCount;
    else next.days = row.days.map((d) => (d.day === day ? { ...d, usedCount: answer.usedCount ?? d.usedCount } : d));
  }
  if (answer.lastEntry) next.lastEntry = answer.lastEntry;
  if (answer.result === 'void') next.useStatus = 2;
  if (answer.result === 'review') next.auditStatus = row.auditStatus && row.auditStatus !== 0 ? row.auditStatus : 1;
  return next;
}

/** A scan admitted offline that the server would have refused: shown to staff until dismissed. */
export interface DoubleEntry {
  scanId: string;
  code: string;
  /** when and where the scanner admitted it (its own queued scan) */
  scannedAt: string;
  gate: string;
  /** the server's answer: its result, count and the entry that came first */
  server: GateResult;
  usedCount: number | null;
  maxCount: number | null;
  lastEntry: { at: string; gate: string } | null;
}

/**
 * A double entry: the scanner admitted offline, the server says otherwise (its `double` flag, or
 * the same rule when an older server leaves it out).
 */
export function isDoubleEntry(local: GateResult, synced: Pick<GateSynced, 'double' | 'answer'>): boolean {
  return synced.double || (local === 'admitted' && synced.answer.result !== 'admitted');
}

/**
 * A queued scan the organiser refused (a sync's `refused`: e.g. its `scannedAt` more than 30 days
 * old, the phone's clock wrong): nothing was counted. It leaves the queue, so the scans after it
 * are sent (issue 30), and is shown to staff until dismissed.
 */
export interface RefusedScan {
  scanId: string;
  /** the registration code as queued */
  code: string;
  scannedAt: string;
  /** the organiser's code (400) and message */
  reply: number;
  msg: string;
}

/** What one sync answer means for the queue: the scans answered (to drop), the double entries among them, the refused ones (to drop and show). */
export interface SyncOutcome {
  /** scanIds the server answered: they leave the queue */
  answered: string[];
  doubles: DoubleEntry[];
  /** each answered scan with the server's answer, to merge into the list rows */
  merges: { scan: GateQueuedScan; answer: GateAnswer }[];
  /** scans the organiser refused: they leave the queue too, and staff see each */
  refused: RefusedScan[];
}

/**
 * Reads a sync's results against the scans sent: results for scans not sent are ignored; a scan
 * the organiser refused leaves the queue as refused; a scan without a result or refusal stays
 * queued (sent again next time, the server's scanId makes that safe).
 */
export function readSync(sent: readonly GateQueuedScan[], results: readonly GateSynced[], gate: string, refused: readonly GateSyncRefused[] = []): SyncOutcome {
  const byId = new Map(sent.map((s) => [s.scanId, s]));
  const out: SyncOutcome = { answered: [], doubles: [], merges: [], refused: [] };
  for (const r of refused) {
    const scan = byId.get(r.scanId);
    if (!scan) continue;
    byId.delete(r.scanId);
    // read as the wire gave it: a server of another version may send anything
    const msg = typeof r.msg === 'string' ? r.msg.slice(0, 300) : '';
    out.refused.push({ scanId: scan.scanId, code: scan.code, scannedAt: scan.scannedAt, reply: typeof r.code === 'number' ? r.code : 0, msg });
  }
  for (const r of results) {
    const scan = byId.get(r.scanId);
    if (!scan) continue;
    byId.delete(r.scanId);
    out.answered.push(scan.scanId);
    out.merges.push({ scan, answer: r.answer });
    if (isDoubleEntry(scan.local, r)) {
      out.doubles.push({
        scanId: scan.scanId,
        code: scan.code,
        scannedAt: scan.scannedAt,
        gate: r.answer.gate || gate,
        server: r.answer.result,
        usedCount: r.answer.usedCount,
        maxCount: r.answer.maxCount,
        lastEntry: r.answer.lastEntry,
      });
    }
  }
  return out;
}

/** The queue in sync posts of at most `max` scans, oldest first. */
export function batches<T extends { scannedAt: string }>(queue: readonly T[], max: number): T[][] {
  const sorted = [...queue].sort((a, b) => a.scannedAt.localeCompare(b.scannedAt));
  const out: T[][] = [];
  for (let i = 0; i < sorted.length; i += max) out.push(sorted.slice(i, i + max));
  return out;
}

/**
 * A fresh list with the scanner's own admissions that the server has not seen yet counted in
 * (queued scans decided `admitted`), so a list fetched while some scans still wait does not
 * forget them.
 */
export function withPending(
  row: LocalRow,
  pending: readonly { scannedAt: string; gate: string }[],
  dayOf: (at: Date) => string = localDay,
): LocalRow {
  return pending.reduce((r, p) => {
    const at = new Date(p.scannedAt);
    return bump(r, dayOf(at), { at: localStamp(at), gate: p.gate });
  }, row);
}

/**
 * A camera read is a new scan unless the same code was read within {@link REPEAT_WINDOW_MS}
 * (a code held in front of the camera is read many times a second: one person, one scan).
 * @example isRepeat({ code: 'A', at: 1000 }, 'A', 2500) // true
 */
export function isRepeat(last: { code: string; at: number } | null, code: string, now: number, windowMs = REPEAT_WINDOW_MS): boolean {
  return last !== null && last.code === code && now - last.at < windowMs;
}

/** A random scan id (≤ 64 characters `[A-Za-z0-9_-]`): 16 random bytes, hex. */
export function newScanId(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  return [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
}

/** What the status line says, as facts; the island puts them into words. */
export type GateStatus =
  | { kind: 'online'; codes: number; updatedAt: string | null; waiting: number; complete: boolean }
  | { kind: 'offline'; updatedAt: string | null; waiting: number; codes: number };

/**
 * The status line's facts: offline when the browser says so or the last call failed; the list's
 * size and time; how many scans wait to be sent.
 */
export function gateStatus(f: { online: boolean; codes: number; updatedAt: string | null; waiting: number; complete: boolean }): GateStatus {
  return f.online
    ? { kind: 'online', codes: f.codes, updatedAt: f.updatedAt, waiting: f.waiting, complete: f.complete }
    : { kind: 'offline', codes: f.codes, updatedAt: f.updatedAt, waiting: f.waiting };
}

/** An ISO instant as the device's "HH:mm" (the status line, the double-entry list). */
export function clock(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/**
 * An ISO instant as the device's "HH:mm" on `day` (the device's local "YYYY-MM-DD"), else
 * "YYYY-MM-DD HH:mm": a refused scan made a month ago by a phone whose clock is wrong shows it.
 * @example scanTime('2026-10-26T01:14:00.000Z', '2026-11-26') // '2026-10-26 09:14' (at UTC+8)
 */
export function scanTime(iso: string, day: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return localDay(d) === day ? clock(iso) : `${localDay(d)} ${clock(iso)}`;
}

/**
 * A "YYYY-MM-DD HH:mm:ss" entry time as staff read it: "HH:mm" on `day`, else "YYYY-MM-DD HH:mm".
 * @example entryTime('2026-11-26 09:14:05', '2026-11-26') // '09:14'
 */
export function entryTime(at: string, day: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})/.exec(at);
  if (!m) return at;
  return m[1] === day ? (m[2] ?? '') : `${m[1]} ${m[2]}`;
}

/** How each result looks (one table with the server-rendered answer's: src/lib/gate/look.ts). */
export { GATE_LOOK as SCAN_LOOK, type GateTone as ScanTone } from './look';

/** The answer a local decision shows (the same shape the server answers). */
export function localAnswer(code: string, d: LocalDecision, row: LocalRow | null, gate: string, scannedAt: string): GateAnswer {
  const counted = d.result === 'admitted' && d.usedCount !== null ? d.usedCount + 1 : d.usedCount;
  return {
    result: d.result,
    code,
    name: null,
    classLabel: null,
    ticketName: null,
    usedCount: counted,
    maxCount: d.maxCount,
    lastEntry: d.result === 'admitted' ? { at: localStamp(new Date(scannedAt)), gate } : (row?.lastEntry ?? null),
    gate,
    scannedAt,
  };
}
