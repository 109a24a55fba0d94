/**
 * What the gate scanner (src/islands/GateScanner.tsx) makes of a gate call's reply, in one place
 * for every call (scan, sync, the list read). Issue 30: "your staff key no longer works" and "the
 * organiser's system did not answer as expected" are told apart for every status and body.
 *
 * - The key is gone only when the edge itself says so: its own staff-key table refused the key,
 *   and every gate call then answers exactly what an API path that does not exist answers
 *   (functions/api/gate.ts `noApi`: HTTP 404, `{ "error": "No API at /api/gate/…" }`). Staff are
 *   told, and the scanner decides nothing more.
 * - The organiser's system did not answer as expected: the edge's envelope code
 *   {@link GATE_UPSTREAM_FAULT} with the reason in words. The scanner decides from its list.
 * - Anything else that is not an envelope (a proxy's or captive portal's page, another 404, a 5xx
 *   of the platform, no answer at all) is no answer from the gate server: offline too, with the
 *   status said, never taken for a refused key.
 * - The envelope code GATE_UNSUPPORTED: the organiser's API lacks the check-in calls (said as such).
 * - Anything else is the API's envelope, read by the call.
 */
import { GATE_UNSUPPORTED, GATE_UPSTREAM_FAULT } from './types';

/** The API's JSON envelope (DESIGN.md part 3). */
export interface Envelope<T> {
  code: number;
  msg: string | null;
  data: T | null;
}

/**
 * A gate call's reply as the island's fetch reads it: the envelope; `gone` (the edge refused the
 * staff key); `{ status }` (the gate server answered, but nothing of ours); null (no answer).
 */
export type GateReply<T> = Envelope<T> | 'gone' | { status: number } | null;

/**
 * The reply of a gate call from its HTTP status and parsed body (null: not JSON).
 * @example replyOf(404, { error: 'No API at /api/gate/scan' }, '/api/gate/scan') // 'gone'
 * @example replyOf(404, null, '/api/gate/scan') // { status: 404 }
 * @example replyOf(200, { code: 502, msg: '…', data: null }, '/api/gate/scan') // the envelope
 */
export function replyOf<T>(status: number, body: unknown, path: string): GateReply<T> {
  const o = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  if (o && typeof o['code'] === 'number') {
    return { code: o['code'], msg: typeof o['msg'] === 'string' ? o['msg'] : null, data: (o['data'] ?? null) as T | null };
  }
  // The edge's answer for a path it does not have, word for word (functions/api/gate.ts noApi).
  if (status === 404 && o && Object.keys(o).length === 1 && o['error'] === `No API at ${path}`) return 'gone';
  return { status };
}

/** What a reply means for the scanner. */
export type ReplyRead<T> =
  /** decide from the list; `reason` says why in words (null: the network is gone, which the status line says) */
  | { kind: 'offline'; reason: { key: 'gateScan.serverOdd'; vars: { status: number } } | { text: string } | null; envelope: Envelope<T> | null }
  | { kind: 'keyGone' }
  | { kind: 'unsupported' }
  | { kind: 'answer'; envelope: Envelope<T> };

/**
 * @example readReply(null) // { kind: 'offline', reason: null, envelope: null }
 * @example readReply('gone') // { kind: 'keyGone' }
 * @example readReply({ status: 502 }).kind // 'offline'
 * @example readReply({ code: 501, msg: '…', data: null }) // { kind: 'unsupported' }
 * @example readReply({ code: 502, msg: 'The organiser’s system answered HTTP 404…', data: null }).kind // 'offline'
 * @example readReply({ code: 200, msg: null, data: 1 }) // { kind: 'answer', envelope: { code: 200, msg: null, data: 1 } }
 */
export function readReply<T>(reply: GateReply<T>): ReplyRead<T> {
  if (reply === null) return { kind: 'offline', reason: null, envelope: null };
  if (reply === 'gone') return { kind: 'keyGone' };
  if (!('code' in reply)) return { kind: 'offline', reason: { key: 'gateScan.serverOdd', vars: { status: reply.status } }, envelope: null };
  if (reply.code === GATE_UNSUPPORTED) return { kind: 'unsupported' };
  // the organiser's system did not answer as expected; a sync's answered scans still come with it
  if (reply.code === GATE_UPSTREAM_FAULT) return { kind: 'offline', reason: reply.msg ? { text: reply.msg } : null, envelope: reply };
  // an answer of ours that is neither a decision nor a refusal (the app's 500, a 503 not ready)
  if (reply.code >= 500) return { kind: 'offline', reason: reply.msg ? { text: reply.msg } : null, envelope: null };
  return { kind: 'answer', envelope: reply };
}
