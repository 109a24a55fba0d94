/**
 * What the organiser's check-in calls answered, as the gate must tell it apart (issue 30): a
 * decision; a refusal of this one scan (`400`: bad input, e.g. a `scannedAt` more than 30 days
 * old from a phone whose clock is wrong); an API without the check-in calls (code `404` "unknown
 * call": docs/upstream.md "Check-in"); or an organiser's system that did not answer as expected —
 * any HTTP status, a timeout, no connection, a body that is not the envelope, data of the wrong
 * shape, any other code. The last is never "your staff key no longer works": only the edge's own
 * staff-key table says that (functions/api/gate.ts answers it before the organiser is asked).
 * The scanner then decides from its list, and staff are told why in words.
 */
import type { UpstreamResult } from '../contract';

/** How the organiser's system failed to answer a check-in call as the contract says. */
export type GateFault =
  /** an HTTP status other than 2xx (a 404 from a proxy or a moved API included) */
  | { kind: 'http'; status: number }
  /** no answer within UPSTREAM_TIMEOUT_MS */
  | { kind: 'timeout' }
  /** no connection at all */
  | { kind: 'network' }
  /** an answer that is not the `{code, msg, data}` envelope, or data the contract cannot read */
  | { kind: 'unreadable' }
  /** an envelope with a code that is neither a decision nor a refusal of the scan */
  | { kind: 'refused'; code: number; msg: string | null };

/** The envelope code with which the organiser refuses one scan's input (docs/upstream.md "Check-in": `400`). */
export const SCAN_REFUSED_CODE = 400;
/** The envelope code of "no such call" (docs/upstream.md "Check-in"): this organiser's API cannot check in. */
export const UNSUPPORTED_CODE = 404;

/**
 * A thrown transport fault of the upstream client (functions/upstream/errors.ts UpstreamError:
 * its `kind` and `status`) as a gate fault; anything else thrown reads as unreadable.
 * @example faultOfError({ kind: 'http', status: 404 }) // { kind: 'http', status: 404 }
 * @example faultOfError({ kind: 'bad-data' }) // { kind: 'unreadable' }
 */
export function faultOfError(e: { kind?: unknown; status?: unknown } | null | undefined): GateFault {
  switch (e?.kind) {
    case 'http':
      return typeof e.status === 'number' ? { kind: 'http', status: e.status } : { kind: 'unreadable' };
    case 'timeout':
      return { kind: 'timeout' };
    case 'network':
      return { kind: 'network' };
    default:
      // 'not-json', 'bad-data', 'no-key' and anything we do not know
      return { kind: 'unreadable' };
  }
}

/** One check-in call's outcome: the port's result, or the fault it was thrown as. */
export type CallOutcome<T> = UpstreamResult<T> | { ok: false; fault: GateFault };

/** What a check-in call's outcome means for the gate. */
export type CallRead<T> =
  | { kind: 'decided'; data: T }
  | { kind: 'refusedScan'; code: number; msg: string | null }
  | { kind: 'unsupported' }
  | { kind: 'fault'; fault: GateFault };

/**
 * Reads a check-in call's outcome. `scanRefusals`: a `400` refuses this scan (redeemCode); for the
 * list and the log a `400` is a fault like any other code.
 * @example readCall({ ok: false, kind: 'refused', code: 404, msg: 'unknown call' }) // { kind: 'unsupported' }
 * @example readCall({ ok: false, code: 400, msg: 'too old' }, true) // { kind: 'refusedScan', code: 400, msg: 'too old' }
 * @example readCall({ ok: false, code: 500, msg: 'db down' }, true).kind // 'fault'
 */
export function readCall<T>(r: CallOutcome<T>, scanRefusals = false): CallRead<T> {
  if (r.ok) return { kind: 'decided', data: r.data };
  if ('fault' in r) return { kind: 'fault', fault: r.fault };
  if (r.code === UNSUPPORTED_CODE) return { kind: 'unsupported' };
  if (scanRefusals && r.code === SCAN_REFUSED_CODE) return { kind: 'refusedScan', code: r.code, msg: r.msg };
  return { kind: 'fault', fault: { kind: 'refused', code: r.code, msg: r.msg } };
}

/** The catalogue keys of the reasons (src/i18n/*.json). */
export type FaultKey = 'gate.faultHttp' | 'gate.faultTimeout' | 'gate.faultNetwork' | 'gate.faultUnreadable' | 'gate.faultRefused' | 'gate.faultRefusedMsg';

/** The most characters of the organiser's own message a reason carries. */
const MSG_MAX = 200;

/**
 * The reason in words (a catalogue key and its vars): what staff read beside "deciding from the
 * list on this phone", and a page without JavaScript shows.
 * @example faultReason({ kind: 'http', status: 404 }) // { key: 'gate.faultHttp', vars: { status: 404 } }
 */
export function faultReason(f: GateFault): { key: FaultKey; vars: Record<string, string | number> } {
  switch (f.kind) {
    case 'http':
      return { key: 'gate.faultHttp', vars: { status: f.status } };
    case 'timeout':
      return { key: 'gate.faultTimeout', vars: {} };
    case 'network':
      return { key: 'gate.faultNetwork', vars: {} };
    case 'unreadable':
      return { key: 'gate.faultUnreadable', vars: {} };
    case 'refused': {
      const msg = (f.msg ?? '').replace(/\s+/g, ' ').trim().slice(0, MSG_MAX).trim();
      return msg ? { key: 'gate.faultRefusedMsg', vars: { code: f.code, msg } } : { key: 'gate.faultRefused', vars: { code: f.code } };
    }
  }
}
