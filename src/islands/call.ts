import { toastFor, type CallFailure } from '../lib/page/toast';
import { showToast } from '../stores/toast';
import type { Envelope } from '../lib/actions/outcome';

/** What the edge API answers to islands: `{ code, msg, data }` like the upstream (spec §7; src/lib/actions). */
export type ApiReply<T = unknown> = Envelope<T>;

/**
 * Posts JSON to the edge API. Transport failures show the spec §8 toast and resolve to
 * null; a reply body is returned whatever its code, and the caller decides what to show
 * (spec §8: a failed verify or lookup shows no message). {@link submit} handles the common outcomes too.
 */
export const postJson = <T>(url: string, body: unknown): Promise<ApiReply<T> | null> => submit<T>(url, body, null);

function isReply<T>(x: unknown): x is ApiReply<T> {
  return typeof x === 'object' && x !== null && typeof (x as { code?: unknown }).code === 'number';
}

function fail(failure: CallFailure): null {
  showToast(toastFor(failure));
  return null;
}

/** The data of a navigate outcome: the page to go to (`replace`: the current page leaves the history). */
export interface Navigate {
  location: string;
  replace?: boolean;
}
/** The data of an invalid outcome: the failing field and its message. */
export interface Invalid {
  field: string;
  message: string;
}

/** What an island does with the common outcomes of {@link submit}; each is optional. */
export interface SubmitHandlers<D> {
  /** before the browser goes to `data.location` (write session storage, drop a draft) */
  leave?(data: D & Navigate, reply: ApiReply<D>): void;
  /** a field the server refused: show the message under it and focus it */
  invalid?(data: D & Invalid): void;
  /** a refusal without data (a code not 2xx); default: the spec §8 toast of its `msg` */
  notice?(reply: ApiReply<D>): void;
}

/**
 * Posts an action's input (src/lib/actions) and does what every island does with the common
 * outcomes, so an island handles only its own:
 * - a transport fault (offline, no answer, an HTTP status of spec §8): the toast;
 * - navigate (`data.location`): `leave`, then the browser goes there;
 * - invalid (`data.field` and `data.message`): `invalid`;
 * - a refusal without data: `notice`, by default the toast of its message.
 * Each of these resolves to null; any other answer (a list to choose from, an update prompt, a
 * challenge, a found business card) resolves to its envelope.
 * @example const reply = await submit<LookupOutcome>('/api/lookup', body, { leave: (d) => write(d.session) });
 */
export async function submit<D>(url: string, body: unknown, on: SubmitHandlers<D> | null = {}): Promise<ApiReply<D> | null> {
  let reply: unknown = null;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    reply = await res.json().catch(() => null);
  } catch {
    fail(navigator.onLine === false ? { kind: 'offline' } : { kind: 'network' });
    return null;
  }
  if (!isReply<D>(reply)) return fail({ kind: 'http', status: res.status, statusText: res.statusText, url });
  const d = reply.data as (D & Navigate & Invalid & { outcome?: string }) | null;
  if (!on) return reply;
  if (d?.location && (d.outcome ?? 'navigate') === 'navigate') {
    on.leave?.(d, reply);
    window.location[d.replace ? 'replace' : 'assign'](d.location);
  } else if (d?.field && d.message) on.invalid?.(d);
  else if (!d && (reply.code < 200 || reply.code > 202)) (on.notice ?? toastOf)(reply);
  else return reply;
  return null;
}

/** The spec §8 toast of a reply's message. */
export function toastOf(reply: ApiReply<unknown>): void {
  fail({ kind: 'body', code: reply.code, msg: reply.msg });
}
