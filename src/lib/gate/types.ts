/**
 * The gate's wire between the edge API (`/api/gate/*`, staff key only) and the scanner island:
 * what a scan answers, the admission list an offline scanner keeps, and a sync of offline scans.
 * The upstream half is docs/upstream.md "Check-in (the gate)".
 */

/** What a scan decided (the upstream's redeemCode results). Only `admitted` lets the person in. */
export type GateResult = 'admitted' | 'used' | 'review' | 'void' | 'otherDay' | 'otherExpo' | 'unknown';

/** One scan's answer, as the gate screen shows it. */
export interface GateAnswer {
  result: GateResult;
  /** the registration code as read (trimmed) */
  code: string;
  /** the registered name, when the upstream gave one */
  name: string | null;
  /** the spec §2.1 class label in the page's language (visitor, exhibitor, …) */
  classLabel: string | null;
  ticketName: string | null;
  /** entries counted so far (this day's, for a pass valid on listed days) */
  usedCount: number | null;
  /** 0 = unlimited */
  maxCount: number | null;
  /** the latest admission before or by this scan: expo-local "YYYY-MM-DD HH:mm:ss" and the gate */
  lastEntry: { at: string; gate: string } | null;
  /** this gate's name (from the staff key) */
  gate: string;
  /** when the scan was made, ISO */
  scannedAt: string;
}

/** `GET /api/gate/list?eid=`: the expo's admission list for an offline scanner. */
export interface GateList {
  expoId: number;
  /** the expo-local day the counts are for, "YYYY-MM-DD" */
  today: string;
  /** when the edge read the list, ISO */
  fetchedAt: string;
  /** false when the upstream's list was cut short (more rows than the edge reads) */
  complete: boolean;
  rows: GateListRow[];
}

/** One registration of the list: no code, no name; the SHA-256 hex of `{expoId}:{euCode}`. */
export interface GateListRow {
  hash: string;
  usedCount: number;
  maxCount: number;
  /** 0 approved, else awaiting review */
  auditStatus: number | null;
  /** 2 = void (refund applied for) */
  useStatus: number | null;
  /** null for a whole-show pass; else its days with that day's count */
  days: { day: string; usedCount: number }[] | null;
}

/** One scan made offline, as the island queues it. */
export interface GateQueuedScan {
  /** the island's own id of the scan (random, ≤ 64 characters [A-Za-z0-9_-]) */
  scanId: string;
  code: string;
  scannedAt: string;
  /** what the scanner decided locally */
  local: GateResult;
}

/**
 * `POST /api/gate/sync` `{ eid, scans: GateQueuedScan[] }` (at most GATE_SYNC_MAX) →
 * `{ results: GateSynced[], refused: GateSyncRefused[] }`: the server's answer per scan, or its
 * refusal of the scan; a scan in neither stays queued (sent again next time).
 */
export interface GateSynced {
  scanId: string;
  answer: GateAnswer;
  /** admitted offline, but the server's count says the entry was one too many (a double entry) */
  double: boolean;
}

/**
 * A queued scan the organiser refused (its `400`: e.g. a `scannedAt` more than 30 days old, from a
 * phone whose clock is wrong): nothing was counted. The scanner drops it from its queue and shows
 * staff the note until dismissed; the rest of the queue goes on (issue 30).
 */
export interface GateSyncRefused {
  scanId: string;
  /** the organiser's code (400) */
  code: number;
  /** the organiser's message, or the catalogue's */
  msg: string;
}

/** The most scans one sync post carries. */
export const GATE_SYNC_MAX = 100;

/**
 * The gate API's envelope code for "this organiser's API cannot check in" (its check-in calls
 * answer 404 "unknown call"): the actions answer it (src/lib/actions/gate.ts), the scanner island
 * tells it from any other refusal (src/lib/gate/reply.ts).
 */
export const GATE_UNSUPPORTED = 501;

/**
 * The gate API's envelope code for "the organiser's system did not answer as expected" (any HTTP
 * status, a timeout, no connection, an unreadable body, an unexpected code: src/lib/gate/fault.ts),
 * with the reason in words as `msg`: the scanner decides from its list (src/lib/gate/reply.ts).
 * Never the API's plain 404, which only the edge's own staff-key check answers.
 */
export const GATE_UPSTREAM_FAULT = 502;
