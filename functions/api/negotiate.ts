/**
 * Content negotiation of the edge API, in one place (issue 30): whether a caller wants JSON back
 * (an island's fetch) or the HTML answer of a form post (303 back or on, or a small page). Read
 * from `Accept` with its q-values by Hono's own `accepts` helper:
 *
 * - `text/html;q=0.9, application/json` → JSON (JSON ranks higher);
 * - `application/json;q=0, text/html` → HTML (q=0 is "not acceptable");
 * - `application/*` → JSON, `text/*` → HTML; media types compare case-insensitively;
 * - `*`/`*`, a type we do not answer, or no `Accept` at all → the route's default.
 *
 * The default is the route's: a body sent as JSON comes from a script (functions/api/input.ts),
 * a plain form post from a page without JavaScript.
 */
import type { Context } from 'hono';
import { accepts } from 'hono/accepts';

const JSON_TYPE = 'application/json';
const HTML_TYPE = 'text/html';

/** What a route answers when `Accept` prefers neither JSON nor HTML. */
export type AnswerDefault = 'json' | 'html';

/**
 * True when the caller prefers JSON to HTML by its `Accept` header's q-values, else the route's default.
 * @example wantsJson(c, 'html') // Accept: text/html;q=0.9, application/json → true
 */
export function wantsJson(c: Context, routeDefault: AnswerDefault): boolean {
  const fallback = routeDefault === 'json' ? JSON_TYPE : HTML_TYPE;
  return accepts(c, { header: 'Accept', supports: [JSON_TYPE, HTML_TYPE], default: fallback }) === JSON_TYPE;
}
