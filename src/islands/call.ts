import { toastFor, type CallFailure } from '../lib/page/toast';
import { showToast } from '../stores/toast';

/** What the edge API answers to islands: `{ code, msg, data }` like the upstream (spec §7). */
export interface ApiReply<T = unknown> {
  code: number;
  msg: string | null;
  data: T | null;
}

/**
 * Posts JSON to the edge API. Transport failures show the spec §8 toast and resolve to
 * null; a reply body is returned whatever its code, and the caller decides what to show
 * (spec §8: a failed verify or lookup shows no message).
 */
export async function postJson<T>(url: string, body: unknown): Promise<ApiReply<T> | null> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    fail(navigator.onLine === false ? { kind: 'offline' } : { kind: 'network' });
    return null;
  }
  let reply: unknown = null;
  try {
    reply = await res.json();
  } catch {
    reply = null;
  }
  if (isReply<T>(reply)) return reply;
  fail({ kind: 'http', status: res.status, statusText: res.statusText, url });
  return null;
}

function isReply<T>(x: unknown): x is ApiReply<T> {
  return typeof x === 'object' && x !== null && typeof (x as { code?: unknown }).code === 'number';
}

function fail(failure: CallFailure): void {
  showToast(toastFor(failure));
}
