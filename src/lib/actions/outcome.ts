/**
 * One declared round trip (DESIGN.md "forms that work without JavaScript", STYLE.md §15).
 *
 * Every post a visitor makes (look up, send a code, register, order, pledge, …) is an action:
 * an input schema over the posted string fields, the page a form post returns to, and a pure
 * `run(input, ports, ctx)` that decides an {@link ActionOutcome}. One adapter
 * (functions/api/action.ts) turns any outcome into the two answers the product always gives:
 *
 * - to an island (JSON): the envelope `{ code, msg, data }` the upstream itself speaks (spec §7);
 * - to a plain form post (no JavaScript): `303 See Other`, on to the next page, or back to the
 *   page with the flash cookie carrying every typed value, the failing fields and a notice.
 *
 * Nothing here knows Hono, cookies' attributes or the Worker: actions are tested in node.
 */
import type { z } from 'zod';

/** A message of the page's catalogue (`key` with `vars`), or a text of the server's (`text`, shown as is). */
export interface Notice {
  tone: 'info' | 'error';
  key: string | null;
  vars?: Record<string, string | number>;
  text: string | null;
}

/** A failing field: the input that receives focus, and its message (catalogue key or the server's text). */
export interface FieldError {
  field: string;
  key: string | null;
  text: string | null;
}

/** The envelope islands read (the upstream's own shape, spec §7). */
export interface Envelope<D = unknown> {
  code: number;
  msg: string | null;
  data: D | null;
}

/** A cookie the action sets (`value`) or removes (`value: null`). Attributes are the adapter's: HttpOnly, Lax, Secure on https. */
export interface CookieWrite {
  name: string;
  value: string | null;
  /** seconds; absent: a session cookie */
  maxAge?: number;
  /** default `/` */
  path?: string;
  /** Secure even on plain http (the verified-contact cookie: never sent over http, even locally behind a proxy) */
  alwaysSecure?: boolean;
  /** not HttpOnly (the language cookie, which holds nothing private) */
  script?: boolean;
}

/**
 * What every outcome may carry besides its kind: one value, answered both ways by the adapter.
 * An island gets the envelope `{ code, msg, data }` (spec §7); a form post's page gets the same
 * `data` in the flash (src/lib/page/flash.ts), next to the notice or the failing fields. Nothing
 * here is written twice: the island's `msg` is the notice's (or the first field error's) text
 * in the page's language unless the outcome says otherwise.
 */
interface Common<D> {
  /**
   * The envelope's code an island reads (spec §7, §8): default 200, or 400 for an error notice,
   * a failing field or a broken request. An upstream refusal passes its own code on.
   */
  code?: number;
  /**
   * The island's message when it is not the page's: `null` when the island says it from `data`
   * (or not at all), a text when the island shows other words than the page without JavaScript.
   * Absent: the notice's (or the first field error's) text.
   */
  msg?: string | null;
  /**
   * Typed data: the envelope's `data` for an island, and the flash's `data` for the page a form
   * post lands on when its action declares `flashData` (the gate's answer). Absent: the kind's
   * default (see {@link jsonOf}).
   */
  data?: D | null;
  /** the HTTP status of the JSON answer (default 200: refusals of ours are answered 200 with their code, like the upstream) */
  status?: number;
  /** response headers of either answer (e.g. `retry-after`) */
  headers?: Record<string, string>;
  cookies?: CookieWrite[];
}

export type ActionOutcome<D = unknown> =
  /**
   * On to the next page: `303 location`; JSON `{ code: 200, msg: null, data: { location } }` unless `data` says more.
   * `html`: a form post gets this page (200) instead of the 303, e.g. the hand-off to a cashier on
   * another origin, which `form-action 'self'` forbids reaching by a redirect after a form post.
   */
  | (Common<D> & { kind: 'navigate'; location: string; html?: string })
  /**
   * The input fails a rule: the page comes back with every typed value, the failing fields
   * (the first receives focus) and their messages. JSON: `{ code: 400, msg, data: { field, message } }`.
   */
  | (Common<D> & { kind: 'invalid'; errors: [FieldError, ...FieldError[]] })
  /**
   * A page-level message (or none): the page comes back with every typed value and the notice,
   * or goes to `to` with only `values` (typed values belong to the page they were typed on).
   * JSON: `{ code: 200 | 400, msg, data: null }` by tone.
   */
  | (Common<D> & {
      kind: 'notice';
      notice: Notice | null;
      to?: string;
      values?: Record<string, string>;
      /** the island follows `to` itself: the flash goes with the JSON answer too, for that page to show */
      flashWithJson?: boolean;
      /**
       * the id of the part of the page the notice belongs to: a form post comes back scrolled to it
       * (`303 back#anchor`), so a result down a long page is where the visitor is, not above the fold
       */
      anchor?: string;
    })
  /**
   * A request no page of ours makes (a hidden field broken or missing): a short sentence in
   * the page's language, never a schema dump. JSON: HTTP 400, `{ code: 400, msg: message, data: null }`;
   * a form post gets a small page with a link back.
   */
  | (Common<D> & { kind: 'broken'; message: string });

/** What an action knows of the request besides its input. */
export interface ActionContext {
  /** the page's language (its hidden `pageLang`, else the language cookie) */
  lang: string;
  /** the catalogue in that language */
  t: (key: string, vars?: Record<string, string | number>) => string;
  /** true when the caller is an island (answers JSON) */
  json: boolean;
  /** this site's origin, for same-origin checks of posted paths */
  origin: string;
  /** the same-origin page the post came from, when the browser said (`Referer`) */
  referer?: string | null;
  /** the request's cookies, by name (only ours matter) */
  cookies: Readonly<Record<string, string>>;
  now: number;
}

/** One action: declared once, run by the adapter for JSON and for form posts alike. */
export interface Action<In, Ports, D = unknown> {
  /** the API path, e.g. `/api/pledge` */
  path: `/api/${string}`;
  /** the largest body it takes, in bytes (a real form is far below) */
  bodyLimit: number;
  /** the posted fields it reads; a failure is a broken request (400), never a visitor's typing error */
  input: z.ZodType<In>;
  /** where a form post returns to (a same-origin path of ours); from the raw fields, so a broken request can still go back */
  back(fields: Readonly<Record<string, string>>, ctx: ActionContext): string;
  /** the typed values a page refills when it comes back (default: none) */
  keep?(fields: Readonly<Record<string, string>>): Record<string, string>;
  /**
   * The path of the form page's `draft` cookie (src/lib/page/flash.ts DRAFT_COOKIE), for a form
   * whose page reads one (the registration and buyer forms), else null: a form post answered back
   * to its page keeps the typed values there too, not only in the flash, which the page shows once,
   * so reloading the page after a refusal or a fault refills the form (issue 30).
   */
  draftPath?(fields: Readonly<Record<string, string>>): string | null;
  /**
   * The page a form post lands on reads the outcome's `data` from the flash (the gate's answer).
   * Other pages have their own words in the notice and fields: their flash stays without it, so a
   * cookie never carries what only an island reads.
   */
  flashData?: true;
  /** an island's call only: a form post (no page of ours makes one) is a broken request, and `run` is not called */
  jsonOnly?: true;
  /** the text of an upstream fault without a status of its own */
  faultKey?: 'error.relatedData' | 'error.uploadFailed';
  /** the `data` of a fault's JSON envelope when the island reads one (default null) */
  faultData?(message: string): D;
  run(input: In, ports: Ports, ctx: ActionContext): Promise<ActionOutcome<D>>;
}

/**
 * Thrown by `run` for an upstream fault past the point of no return (an order that exists):
 * the fault is answered as any other (spec §8), but a form post goes to `to`, with no typed value.
 */
export class FaultAt extends Error {
  constructor(
    readonly to: string,
    readonly fault: unknown,
  ) {
    super('upstream fault', { cause: fault });
  }
}

/** Declares an action (an identity function that keeps the types). */
export function defineAction<In, Ports, D = unknown>(action: Action<In, Ports, D>): Action<In, Ports, D> {
  return action;
}

/** The JSON an outcome answers an island, and its status: the kind's defaults (documented on each), or the outcome's own `code`, `msg`, `data`. */
export function jsonOf<D>(o: ActionOutcome<D>, t: ActionContext['t']): { status: number; body: Envelope<unknown> } {
  const status = o.status ?? (o.kind === 'broken' ? 400 : 200);
  const body = (code: number, msg: string | null, data: unknown): { status: number; body: Envelope<unknown> } => ({
    status,
    body: { code: o.code ?? code, msg: o.msg !== undefined ? o.msg : msg, data: o.data !== undefined ? o.data : data },
  });
  switch (o.kind) {
    case 'navigate':
      return body(200, null, { location: o.location });
    case 'invalid': {
      const [first] = o.errors;
      const message = messageText(first, t);
      return body(400, message, { field: first.field, message });
    }
    case 'notice':
      return body(o.notice?.tone === 'error' ? 400 : 200, o.notice ? messageText(o.notice, t) : null, null);
    case 'broken':
      return body(400, o.message, null);
  }
}

/**
 * A notice's or field error's text in the page's language: the catalogue's, the server's own
 * text, or both (a lead sentence of ours with the server's words on the next line, as
 * src/lib/page/upstream-message.ts refusalText reads an unknown refusal).
 */
export function messageText(m: { key: string | null; vars?: Record<string, string | number>; text: string | null }, t: ActionContext['t']): string {
  const text = m.text !== null && m.text !== '' ? m.text : null;
  if (m.key === null) return text ?? '';
  const lead = t(m.key, m.vars);
  return text === null ? lead : `${lead}\n${text}`;
}

/** Shorthands for the common outcomes. */
export const outcome = {
  navigate: (location: string, more: Omit<Common<unknown>, never> = {}): ActionOutcome => ({ kind: 'navigate', location, ...more }),
  invalid: (field: string, key: string | null, text: string | null = null): ActionOutcome => ({ kind: 'invalid', errors: [{ field, key, text }] }),
  error: (key: string, vars?: Record<string, string | number>): ActionOutcome => ({ kind: 'notice', notice: { tone: 'error', key, ...(vars ? { vars } : {}), text: null } }),
  info: (key: string, vars?: Record<string, string | number>): ActionOutcome => ({ kind: 'notice', notice: { tone: 'info', key, ...(vars ? { vars } : {}), text: null } }),
};
