/**
 * What the gate scanner (src/islands/GateScanner.tsx) makes of a gate call's reply, in one place
 * for every call (issue 23 review: sync and the list read wrote it twice): no answer (the network
 * or the server failed) means the gate works offline; the edge's plain 404 means the staff key is
 * gone (expired or revoked: every gate call then answers as for a path that does not exist,
 * functions/api/gate.ts), which staff are told; the envelope code GATE_UNSUPPORTED means the
 * organiser's API lacks the check-in calls (said as such, not as a refused scan); anything else is
 * the API's envelope, read by the call.
 */
import { GATE_UNSUPPORTED } from './types';

/** The API's JSON envelope (DESIGN.md part 3). */
export interface Envelope<T> {
  code: number;
  msg: string | null;
  data: T | null;
}

/** A gate call's reply as the island's fetch reads it: the envelope, `gone`, or null (no answer). */
export type GateReply<T> = Envelope<T> | 'gone' | null;

/** What a reply means for the scanner. */
export type ReplyRead<T> = { kind: 'offline' } | { kind: 'keyGone' } | { kind: 'unsupported' } | { kind: 'answer'; envelope: Envelope<T> };

/**
 * @example readReply(null) // { kind: 'offline' }
 * @example readReply('gone') // { kind: 'keyGone' }
 * @example readReply({ code: 501, msg: '…', data: null }) // { kind: 'unsupported' }
 * @example readReply({ code: 200, msg: null, data: 1 }) // { kind: 'answer', envelope: { code: 200, msg: null, data: 1 } }
 */
export function readReply<T>(reply: GateReply<T>): ReplyRead<T> {
  if (reply === null) return { kind: 'offline' };
  if (reply === 'gone') return { kind: 'keyGone' };
  if (reply.code === GATE_UNSUPPORTED) return { kind: 'unsupported' };
  return { kind: 'answer', envelope: reply };
}
