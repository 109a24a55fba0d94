/**
 * What the actions' ports answer, in the shapes of the upstream client (functions/upstream)
 * without importing it: a success with its data, or a refusal with its code and message
 * (spec §8). Transport faults are thrown, and the adapter answers them.
 */
import { displayText } from '../page/flash';
import type { ActionContext, ActionOutcome } from './outcome';

export type Result<T> = { ok: true; data: T } | { ok: false; code: number; msg: string | null };

/** A refusal of the abuse limits (functions/limits): the status, the wait and the message. */
export interface LimitRefusal {
  status: 429 | 503;
  retryAfterS: number | null;
  key: string;
  vars: { n: number };
}

/**
 * A refused request, as the spec answers a refused send (§4, §8): JSON `{ code: 600, msg, data: null }`
 * with HTTP 429 (503 when the counter is unreachable) and `Retry-After`; a form post comes back
 * with the message and every typed value.
 */
export function limitedOutcome(r: LimitRefusal, ctx: Pick<ActionContext, 't' | 'json'>): ActionOutcome {
  return {
    kind: 'notice',
    notice: { tone: 'error', key: r.key, vars: r.vars, text: null },
    status: r.status,
    ...(ctx.json && r.retryAfterS !== null ? { headers: { 'retry-after': String(r.retryAfterS) } } : {}),
    reply: { code: 600, msg: ctx.t(r.key, r.vars), data: null },
  };
}

/** An upstream refusal's own message (cut to what a page shows), else the route's text. */
export function refusalText(msg: string | null, fallback: string, max?: number): string {
  return displayText(msg ?? '', max) || fallback;
}
