/**
 * `/api/gate/*` (src/lib/actions/gate.ts), for staff only. Every request passes the key check
 * first: the expo's gate cookie (`gate_{expoId}`, set by the staff link, functions/gate.ts) must
 * hold a valid, unexpired, unrevoked key of the expo the request names (`eid` in the body, or in
 * the query for the list). Without one the answer is exactly the API's answer for a path that
 * does not exist (`noApi`, functions/api/index.ts), whatever the key's fault, and whatever the
 * body's size: a gate route's own body limit ({@link GATE_BODY_LIMITS}) is staff's, a stranger's
 * body meets the unknown path's (413 over 16 KB, never sooner). GET and HEAD on the POST routes
 * answer that same 404 (no route).
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AppEnv } from '../env';
import { isUpstreamError, upstreamFor } from '../upstream';
import { staffFromCookies } from '../staff/keys';
import { bodyLimit, OTHER_API_BODY_LIMIT, tooLargeReply } from '../middleware/body-limit';
import { action, answerJson, type Ctx } from './action';
import { mediaType, readInput } from './input';
import { decodeNumericId } from '../../src/lib/util/ids';
import type { GateStaff } from '../../src/lib/gate/keys';
import { gateList, gateScan, readSync, syncScans, type GatePorts } from '../../src/lib/actions/gate';
import { gateBodyLimit } from '../../src/lib/gate/limits';
import { faultOfError, type CallOutcome } from '../../src/lib/gate/fault';
import type { UpstreamResult } from '../../src/lib/contract';
import type { ActionContext } from '../../src/lib/actions/outcome';

declare module 'hono' {
  interface ContextVariableMap {
    /** the staff key of a gate request, checked (functions/api/gate.ts) */
    gateStaff: GateStaff;
  }
}

/** The API's answer for a path it does not have (the catch-all's, word for word). */
export function noApi(c: Ctx): Response {
  return c.json({ error: `No API at ${new URL(c.req.url).pathname}` }, 404);
}

/** The gate routes' own body limits, for staff: the scan's action's, and sync's GATE_SYNC_MAX queued scans (src/lib/actions/gate.ts readSync). */
export const GATE_BODY_LIMITS: Readonly<Record<string, number>> = {
  [gateScan.path]: gateScan.bodyLimit,
  '/api/gate/sync': 32 * 1024,
};

/**
 * The body read of a gate route (functions/api/index.ts): up to the larger of its own limit and
 * the unknown path's, so that {@link staffOnly} can answer a stranger as that path would; beyond
 * both, the 413 names the limit of whoever asks (a holder of any gate key: the route's).
 */
export function gateBodyRead(own: number): MiddlewareHandler {
  return bodyLimit({
    maxBytes: Math.max(own, OTHER_API_BODY_LIMIT),
    tooLarge: async (c) => tooLargeReply(c, (await holdsGateKey(c)) ? own : OTHER_API_BODY_LIMIT),
  });
}

/** Whether the request's cookies hold a valid gate key of any expo (its body unread). */
async function holdsGateKey(c: Ctx): Promise<boolean> {
  const cookies = getCookie(c);
  for (const id of cookieExpos(cookies)) if (await staffFromCookies(c.env.STAFF, cookies, id)) return true;
  return false;
}

/** The expo a gate request names: `eid` of the query (GET) or of the body (JSON or form). */
async function requestedExpo(c: Ctx): Promise<number | null> {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return decodeNumericId(c.req.query('eid'));
  if (mediaType(c.req.header('content-type')) === 'application/json') {
    // sync's body is not string fields: read the eid alone (Hono keeps the body for the handler).
    const body = (await c.req.json().catch(() => null)) as unknown;
    const eid = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)['eid'] : undefined;
    return typeof eid === 'string' ? decodeNumericId(eid) : null;
  }
  return decodeNumericId((await readInput(c)).fields['eid']);
}

/** The expos whose gate cookie the request carries (`gate_{expoId}`), at most a few. */
function cookieExpos(cookies: Record<string, string>): number[] {
  return Object.keys(cookies)
    .map((name) => /^gate_(\d{1,12})$/.exec(name)?.[1])
    .filter((id): id is string => id !== undefined)
    .slice(0, 4)
    .map(Number);
}

/**
 * Hono middleware: the staff key of the named expo, else the API's 404. A body that names no
 * expo (malformed, or without `eid`) is a bad request (400) for a holder of any valid gate key,
 * and the 404 for everyone else.
 */
export function staffOnly(): MiddlewareHandler<{ Bindings: AppEnv }> {
  return async function gateStaffOnly(c, next) {
    const expoId = await requestedExpo(c);
    const cookies = getCookie(c);
    const staff = expoId === null ? null : await staffFromCookies(c.env.STAFF, cookies, expoId);
    if (!staff && expoId === null && c.req.method === 'POST') {
      for (const id of cookieExpos(cookies)) {
        if (await staffFromCookies(c.env.STAFF, cookies, id)) {
          const { t } = await readInput(c);
          return answerJson(c, t, { kind: 'broken', message: t('gate.badScan') });
        }
      }
    }
    // the body was read up to the larger of the two limits (gateBodyRead): each answers by its own
    const size = c.req.method === 'POST' ? (await c.req.arrayBuffer().catch(() => new ArrayBuffer(0))).byteLength : 0;
    const limit = gateBodyLimit({ staff: staff !== null, size, own: GATE_BODY_LIMITS[new URL(c.req.url).pathname] ?? OTHER_API_BODY_LIMIT, other: OTHER_API_BODY_LIMIT });
    if (limit !== null) return tooLargeReply(c, limit);
    if (!staff) return noApi(c);
    c.set('gateStaff', staff);
    return next();
  };
}

/**
 * A check-in call whose transport faults (the upstream client's thrown UpstreamError: an HTTP
 * status, a timeout, no connection, a body that does not read) come back as a value, so the gate's
 * rules answer each in words and none reaches the API's fault answer, which passes an upstream
 * 404 through as this API's own 404: the very answer a refused staff key gets (issue 30).
 * Anything else thrown is our bug and goes on to the app's error answer.
 */
function guarded<P, T>(call: (p: P) => Promise<UpstreamResult<T>>): (p: P) => Promise<CallOutcome<T>> {
  return async function checkinCall(p) {
    try {
      return await call(p);
    } catch (e) {
      if (!isUpstreamError(e)) throw e;
      return { ok: false, fault: faultOfError(e) };
    }
  };
}

function gatePorts(c: Ctx): GatePorts {
  const up = upstreamFor(c.env);
  return {
    up: { redeemCode: guarded((p) => up.redeemCode(p)), checkInList: guarded((p) => up.checkInList(p)) },
    staff: c.get('gateStaff'),
  };
}

export const gate = new Hono<{ Bindings: AppEnv }>();
gate.use('*', staffOnly());
gate.post('/scan', action(gateScan, { ports: gatePorts }));
gate.post('/sync', async function sync(c) {
  const t = (await readInput(c)).t as ActionContext['t'];
  if (mediaType(c.req.header('content-type')) !== 'application/json') {
    return answerJson(c, t, { kind: 'broken', message: t('gate.jsonOnly'), status: 415, code: 415 });
  }
  const read = readSync(await c.req.json().catch(() => null));
  if (!read.ok) return answerJson(c, t, { kind: 'broken', message: t(read.key) });
  return answerJson(c, t, await syncScans(read.scans, gatePorts(c), t));
});
gate.get('/list', async function list(c) {
  const { t } = await readInput(c);
  const listed = await gateList(gatePorts(c), Date.now(), t as ActionContext['t']);
  return answerJson(c, t, { ...listed, headers: { 'cache-control': 'no-store' } });
});
// No other method or path under /api/gate answers anything but the API's 404.
gate.all('*', noApi);
