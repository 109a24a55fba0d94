/**
 * An upstream fault as the visitor sees it (spec §8), for every edge API route.
 *
 * - The organiser answered HTTP 403, 404, 405 or 5xx: that status is passed through, so the
 *   island shows the spec's own toast for it (src/lib/page/toast.ts: 404 'the method does not
 *   exist', 405 and 500 'server error' with the status text for 3 s and 5 s, 403 silent). The
 *   body carries no `code`, which is how the island tells it from an answer of ours
 *   (src/islands/call.ts). Without JavaScript the page comes back with the same text (none for 403).
 * - No reply in time: 504 and 'request timed out'.
 * - Anything else (network, not JSON, undecryptable data): 502 and the route's own text.
 * Nothing of the upstream's body is shown.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Translate } from '../../src/i18n';
import type { Notice } from '../../src/lib/actions/outcome';
import { toastFor } from '../../src/lib/page/toast';
import { isUpstreamError } from '../upstream';

export interface FaultView {
  /** the HTTP status of the JSON answer */
  status: ContentfulStatusCode;
  /** the JSON answer's body */
  body: { code: number; msg: string; data: null } | { error: string };
  /** what a page without JavaScript shows; null: nothing (403) */
  notice: Notice | null;
}

/** The statuses of spec §8 that the island shows its own toast for. */
const PASSED = (status: number) => status === 403 || status === 404 || status === 405 || (status >= 500 && status <= 599);

/**
 * The view of a thrown upstream fault.
 * @param fallbackKey the route's text for a fault without a status of its own
 */
export function upstreamFault(
  e: unknown,
  t: Translate,
  apiPath: string,
  fallbackKey: 'error.relatedData' | 'error.uploadFailed' = 'error.relatedData',
): FaultView {
  if (isUpstreamError(e, 'http') && e.status !== undefined && PASSED(e.status)) {
    const statusText = e.statusText?.trim() || `HTTP ${e.status}`;
    const toast = toastFor({ kind: 'http', status: e.status, statusText, url: apiPath });
    return {
      status: e.status as ContentfulStatusCode,
      body: { error: statusText },
      notice: toast?.key ? { tone: 'error', key: toast.key, vars: toast.vars ?? {}, text: null } : null,
    };
  }
  const timeout = isUpstreamError(e, 'timeout');
  // Anything but a typed upstream fault is our bug: the visitor still gets a clear answer.
  if (!isUpstreamError(e)) console.error('upstream call failed unexpectedly', e);
  const msg = t(timeout ? 'error.timeout' : fallbackKey);
  return { status: timeout ? 504 : 502, body: { code: timeout ? 504 : 502, msg, data: null }, notice: { tone: 'error', key: null, text: msg } };
}

/** The JSON answer of a fault view. */
export function faultJson(c: Context, f: FaultView): Response {
  return c.json(f.body, f.status);
}
