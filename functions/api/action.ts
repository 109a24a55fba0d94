/**
 * The one adapter between an action (src/lib/actions) and Hono: it reads the body (JSON from an
 * island, or a plain form post), validates the declared input, runs the action over its ports
 * and answers either JSON or the flash cookie plus `303` (STYLE.md §3, §15). Handlers are a
 * line each: `api.post('/pledge', action(pledge, { ports: pledgePorts }))`.
 *
 * Faults of the upstream (thrown by a port) are answered here too, as spec §8 says
 * (functions/api/fault.ts), with every typed value kept.
 */
import type { Context } from 'hono';
import { getCookie, setCookie, deleteCookie } from 'hono/cookie';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../env';
import { readInput, type Input } from './input';
import { badRequest } from './bad-request';
import { faultJson, upstreamFault } from './fault';
import { DRAFT_COOKIE, DRAFT_MAX_AGE_S, encodeFlash, FLASH_COOKIE, FLASH_MAX_AGE_S, FLASH_MAX_PATH, type FlashInput } from '../../src/lib/page/flash';
import { FaultAt, jsonOf, type Action, type ActionContext, type ActionOutcome, type CookieWrite } from '../../src/lib/actions/outcome';

export type Ctx = Context<{ Bindings: AppEnv }>;

/** The attributes every cookie of ours has: HttpOnly, SameSite=Lax, Secure on https (or always, when asked). */
export function cookieOptions(c: Ctx, w: Pick<CookieWrite, 'maxAge' | 'path' | 'alwaysSecure' | 'script'> = {}) {
  return {
    path: w.path ?? '/',
    httpOnly: w.script !== true,
    sameSite: 'Lax' as const,
    secure: w.alwaysSecure === true || new URL(c.req.url).protocol === 'https:',
    ...(w.maxAge !== undefined ? { maxAge: w.maxAge } : {}),
  };
}

/** Sets or removes the outcome's cookies. */
export function writeCookies(c: Ctx, cookies: readonly CookieWrite[] = []): void {
  for (const w of cookies) {
    if (w.value === null) deleteCookie(c, w.name, { path: w.path ?? '/', secure: cookieOptions(c, w).secure });
    else setCookie(c, w.name, w.value, cookieOptions(c, w));
  }
}

/** The context an action runs in, from the request and its parsed input. */
export function actionContext(c: Ctx, input: Input): ActionContext {
  return {
    lang: input.lang,
    t: input.t as ActionContext['t'],
    json: input.json,
    origin: new URL(c.req.url).origin,
    referer: c.req.header('referer') ?? null,
    cookies: getCookie(c),
    now: Date.now(),
  };
}

/** Where a form post comes back to, and the values it refills. */
export interface Way {
  back: string;
  values: Record<string, string>;
  /** the path of the back page's `draft` cookie, when the page reads one (Action.draftPath) */
  draft?: string | null;
  /** the page reads the outcome's `data` from the flash (Action.flashData) */
  data?: boolean;
}

/**
 * Answers an outcome, the one place a reply is written from one: JSON for an island (the
 * envelope of {@link jsonOf}), else `303` on (navigate) or back with the flash (every typed
 * value, the failing fields, the notice and the outcome's `data`).
 */
export function answer(c: Ctx, input: Input, way: Way, o: ActionOutcome): Response {
  const headers = o.headers ?? {};
  const json = () => {
    const { status, body } = jsonOf(o, input.t as ActionContext['t']);
    return c.json(body, status as ContentfulStatusCode, headers);
  };
  // a form post comes back with a flash; an island gets one only to show on the page it goes to
  const flashes = o.kind === 'notice' ? !input.json || o.flashWithJson === true : o.kind === 'invalid' && !input.json;
  // The flash this answer writes is the one the page reads: an outcome's removal of the last one
  // (e.g. forgetting the device) does not remove it.
  writeCookies(c, flashes ? o.cookies?.filter((w) => !(w.name === FLASH_COOKIE && w.value === null)) : o.cookies);
  if (o.kind === 'broken') return input.json ? json() : withHeaders(badRequest(c, input, o.message, input.t('app.back'), way.back), headers);
  if (o.kind === 'navigate') {
    if (input.json) return json();
    return withHeaders(o.html !== undefined ? c.html(o.html) : c.redirect(o.location, 303), headers);
  }
  if (input.json && !flashes) return json();
  const to = o.kind === 'notice' && o.to ? o.to : way.back;
  // Another page's flash carries that page's values only.
  const values = to === way.back ? way.values : {};
  const data = way.data === true ? (o.data ?? null) : null;
  const flash: FlashInput =
    o.kind === 'invalid'
      ? { path: to, values, error: o.errors[0], ...(o.errors.length > 1 ? { errors: o.errors } : {}), data }
      : { path: to, values: { ...values, ...(o.values ?? {}) }, notice: o.notice, data };
  setCookie(c, FLASH_COOKIE, encodeFlash(flash), cookieOptions(c, { maxAge: FLASH_MAX_AGE_S }));
  // The flash is shown once; the draft keeps the values for a reload of the form (no JS: an
  // island keeps its own copy in session storage).
  if (!input.json && way.draft && to === way.back && Object.keys(values).length > 0) {
    setCookie(c, DRAFT_COOKIE, encodeFlash({ path: way.back, values }), cookieOptions(c, { path: way.draft, maxAge: DRAFT_MAX_AGE_S }));
  }
  const at = o.kind === 'notice' && o.anchor ? `${to}#${o.anchor}` : to;
  return input.json ? json() : withHeaders(c.redirect(at, 303), headers);
}

/**
 * The JSON of an outcome, for a route only islands call (the gate's sync and list, a JSON-only
 * refusal): the same envelope {@link answer} gives an island.
 */
export function answerJson(c: Ctx, t: Input['t'], o: ActionOutcome): Response {
  writeCookies(c, o.cookies);
  const { status, body } = jsonOf(o, t as ActionContext['t']);
  return c.json(body, status as ContentfulStatusCode, o.headers ?? {});
}

function withHeaders(res: Response, headers: Record<string, string>): Response {
  for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
  return res;
}

/** An upstream fault (thrown by a port) as spec §8 shows it: JSON, or back to the page with every value. */
export function faultAnswer(c: Ctx, input: Input, way: Way, e: unknown, def: Pick<Action<unknown, unknown>, 'faultKey' | 'faultData'>): Response {
  const fault = upstreamFault(e, input.t, new URL(c.req.url).pathname, def.faultKey);
  if (input.json) {
    if (def.faultData && 'code' in fault.body) return c.json({ ...fault.body, data: def.faultData(fault.body.msg) }, fault.status);
    return faultJson(c, fault);
  }
  return answer(c, input, way, { kind: 'notice', notice: fault.notice });
}

/** A back path the flash can belong to, else home: a form post never goes back to a page that cannot show its values. */
export function flashablePath(path: string): string {
  return path.length <= FLASH_MAX_PATH ? path : '/';
}

/** Options of {@link action}: how to build the action's ports from the request. */
export interface ActionOptions<Ports> {
  ports(c: Ctx): Ports;
  /**
   * A form post's answer of the route's own, where it has one (else null: the usual 303): a
   * function that makes it, called once the outcome's cookies are written (Hono puts cookies set
   * afterwards on no response already made).
   */
  formAnswer?(c: Ctx, input: Input, o: ActionOutcome): (() => Response) | null;
}

/**
 * The Hono handler of an action: read, validate, run, answer (JSON or flash + 303).
 * @example api.post('/pledge', action(pledge, { ports: pledgePorts }))
 */
export function action<In, Ports, D>(def: Action<In, Ports, D>, options: ActionOptions<Ports>) {
  return async function handleAction(c: Ctx): Promise<Response> {
    const input = await readInput(c);
    const ctx = actionContext(c, input);
    const back = flashablePath(def.back(input.fields, ctx));
    const way: Way = { back, values: def.keep?.(input.fields) ?? {}, draft: back === '/' ? null : (def.draftPath?.(input.fields) ?? null), data: def.flashData === true };
    const parsed = def.input.safeParse(input.fields);
    if (!parsed.success || (def.jsonOnly && !input.json)) return answer(c, input, way, { kind: 'broken', message: input.t('api.badPage') });
    let o: ActionOutcome;
    try {
      o = (await def.run(parsed.data, options.ports(c), ctx)) as ActionOutcome;
    } catch (e) {
      const declared = def as Pick<Action<unknown, unknown>, 'faultKey' | 'faultData'>;
      if (e instanceof FaultAt) return faultAnswer(c, input, { back: e.to, values: {} }, e.fault, declared);
      return faultAnswer(c, input, way, e, declared);
    }
    const own = input.json ? null : (options.formAnswer?.(c, input, o) ?? null);
    if (!own) return answer(c, input, way, o);
    writeCookies(c, o.cookies);
    return withHeaders(own(), o.headers ?? {});
  };
}
