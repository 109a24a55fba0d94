/**
 * A scan at the gate, pure: what was read becomes a registration code (src/lib/gate/code.ts), the upstream's decision
 * (docs/upstream.md "Check-in (the gate)") becomes a {@link GateAnswer}, and the answer's look on
 * the gate screen is a table (colour and word per result), so nothing at arm's length is left to
 * chance. The no-JS round trip carries the answer as the flash's `data` ({@link readAnswer}).
 */
import { z } from 'zod';
import { registrationLabel, type Translate } from '../core/labels';
import type { GateAnswer, GateResult } from './types';

/** The one reading of a typed or scanned code (src/lib/gate/code.ts), for the edge's scan action. */
export { normaliseCode, SCAN_TEXT_MAX } from './code';

export { GATE_LOOK, type GateTone } from './look';

/** What the gate reads of the upstream's redeemCode data (src/lib/contract/checkin.ts `Redeemed`). */
export interface RedeemedView {
  result: GateResult;
  usedCount: number | null;
  maxCount: number | null;
  lastEntry: { at: string; gate: string } | null;
  uname: string;
  euClass: number | null;
  ticketName: string;
  euDefine: string;
}

/**
 * The answer of one scan. For `otherExpo` and `unknown` nothing but the result is shown, whatever
 * the upstream sent (docs/upstream.md: every other field null).
 */
export function gateAnswer(r: RedeemedView, scan: { code: string; gate: string; scannedAt: string }, t: Translate): GateAnswer {
  const bare = r.result === 'otherExpo' || r.result === 'unknown';
  const name = r.uname.trim();
  return {
    result: r.result,
    code: scan.code,
    name: bare || name === '' ? null : name,
    classLabel: bare ? null : registrationLabel(r, t),
    ticketName: bare || r.ticketName.trim() === '' ? null : r.ticketName.trim(),
    usedCount: bare ? null : r.usedCount,
    maxCount: bare ? null : r.maxCount,
    lastEntry: bare ? null : r.lastEntry,
    gate: scan.gate,
    scannedAt: scan.scannedAt,
  };
}

/** The answer for a text that holds no code: `unknown`, without asking the upstream. */
export function unreadAnswer(code: string, gate: string, scannedAt: string): GateAnswer {
  return { result: 'unknown', code, name: null, classLabel: null, ticketName: null, usedCount: null, maxCount: null, lastEntry: null, gate, scannedAt };
}

/**
 * `used / max` as staff read it: the maximum 0 is unlimited (`unlimited`, the catalogue's word).
 * @example countText({ usedCount: 1, maxCount: 0 }, '∞') // '1 / ∞'
 */
export function countText(a: Pick<GateAnswer, 'usedCount' | 'maxCount'>, unlimited: string): string | null {
  if (a.usedCount === null && a.maxCount === null) return null;
  const max = a.maxCount === null ? '?' : a.maxCount === 0 ? unlimited : String(a.maxCount);
  return `${a.usedCount ?? 0} / ${max}`;
}

const RESULTS = ['admitted', 'used', 'review', 'void', 'otherDay', 'otherExpo', 'unknown'] as const satisfies readonly GateResult[];

/** A {@link GateAnswer} as it comes back from the flash (any JSON: its shape is checked). */
const AnswerShape = z.object({
  result: z.enum(RESULTS),
  code: z.string(),
  name: z.string().nullable(),
  classLabel: z.string().nullable(),
  ticketName: z.string().nullable(),
  usedCount: z.number().nullable(),
  maxCount: z.number().nullable(),
  lastEntry: z.object({ at: z.string(), gate: z.string() }).nullable(),
  gate: z.string(),
  scannedAt: z.string(),
});

/** The answer a scan's outcome kept in the flash (its `data`), or null when it holds none. */
export function readAnswer(data: unknown): GateAnswer | null {
  const parsed = AnswerShape.safeParse(data);
  return parsed.success ? parsed.data : null;
}

/**
 * A sync's double entry: the scanner admitted someone offline, and the server's count says no.
 * @example isDouble('admitted', 'used') // true
 */
export function isDouble(local: GateResult, server: GateResult): boolean {
  return local === 'admitted' && server !== 'admitted';
}
