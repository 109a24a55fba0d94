import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { CONTACT_COOKIE, provenFor } from '../../src/lib/lookup/contact-cookie';
import { encodeFlash, FLASH_COOKIE, FLASH_MAX_AGE_S } from '../../src/lib/page/flash';
import { startPage, type PageStart } from '../../src/lib/page/load';
import { isSafeRedirectPath } from '../../src/lib/util/safe-redirect';
import { redactPath } from '../../src/lib/ops/redact';
import {
  GUARD_RULES,
  once,
  runGuard,
  successUrl,
  type GuardConfig,
  type GuardFacts,
  type GuardPorts,
  type GuardRule,
} from '../../src/lib/page/guard';
import type { AppEnv } from '../env';
import { waitUntilOf } from '../wait-until';
import { requestUpstream, upstreamWx, type RequestScope, type Upstream, type WxPort } from '../upstream';

/**
 * The navigation guard at the edge (spec §4, §2.3), the first step of the page pipeline: it
 * starts the page (src/lib/page/load.ts startPage: the route matched once, the contact
 * verified once), runs src/lib/page/guard.ts's rules over it before any page work and turns
 * their outcome into a 302 (with the openid cookie set or cleared), or hands the started page
 * and the request's upstream on to the page loader (src/middleware.ts, through `pageHandoff`).
 * Only page requests: GET/HEAD, not the API, the legacy API, the dev pages, Astro's assets or
 * static files.
 */

export type { WxPort } from '../upstream';

/** What the guard hands on to the page loader: the started page and the request's upstream. */
export interface StartedPage extends PageStart {
  upstream: Upstream;
}

declare module 'hono' {
  interface ContextVariableMap {
    /** set by the guard when the page proceeds */
    startedPage: StartedPage;
    /** the Astro adapter's per-request state (astro/hono, @astrojs/cloudflare/hono): its locals reach the page loader */
    fetchState: { locals: object };
  }
}


export interface GuardOptions {
  /** the upstream client of a request (tests give a failing one); default the request's shared one, which the page loader reuses */
  upstream: (env: AppEnv, request: Request, scope: RequestScope) => Upstream;
  /** the messaging-app calls for an environment; null: none (no silent login, no OAuth) */
  wx: (env: AppEnv) => WxPort | null;
  /** path prefixes that are not pages */
  skipPrefixes: readonly string[];
  rules: readonly GuardRule[];
  /** clock, ms */
  now: () => number;
}

/** Cookie holding the messaging-app openid (spec §3 store value `openid`); a session cookie. */
export const OPENID_COOKIE = 'oid';
/** Set for a few minutes after a failed silent login, so the OAuth round does not loop. */
export const LOGIN_FAILED_COOKIE = 'wxfail';
const LOGIN_FAILED_MAX_AGE_S = 5 * 60;

/** Where the OAuth rule sends a visitor (src/lib/page/guard.ts oauthUrl). */
const OAUTH_PREFIX = 'https://open.weixin.qq.com/';

/** A path with a file extension is a static file (logo.jpg, favicon.svg …), not a page. */
const STATIC_FILE = /\.[A-Za-z0-9]{1,8}$/;

const DEFAULT_OPTIONS: GuardOptions = {
  upstream: requestUpstream,
  wx: upstreamWx,
  skipPrefixes: ['/api/', '/custom/', '/auth/', '/wx/', '/dev/', '/_astro/', '/_image', '/_server-islands/'],
  rules: GUARD_RULES,
  now: Date.now,
};

/** Hono middleware factory (STYLE.md §3): options merged once, a named handler returned. */
export function guard(options: Partial<GuardOptions> = {}): MiddlewareHandler<{ Bindings: AppEnv }> {
  const opts: GuardOptions = { ...DEFAULT_OPTIONS, ...options };
  return async function navigationGuard(c, next) {
    const url = new URL(c.req.url);
    const isPage =
      (c.req.method === 'GET' || c.req.method === 'HEAD') &&
      !opts.skipPrefixes.some((p) => url.pathname.startsWith(p) || `${url.pathname}/` === p) &&
      !STATIC_FILE.test(url.pathname);
    if (!isPage) return next();

    const now = opts.now();
    const env = c.env;
    const start = await startPage(url, getCookie(c, CONTACT_COOKIE), env.SESSION_SECRET ?? '', now);
    const page = start.info;
    const upstream = opts.upstream(env, c.req.raw, { waitUntil: waitUntilOf(c) });
    if (page.expoId !== null && !page.skip) {
      // spec §4: navigation fetches the expo's key, through the client's own key cache (once per
      // expo and isolate). A failed fetch must not stop the page (spec §2.3: failed navigation swallowed).
      await upstream.aesKey(page.expoId).catch(() => undefined);
    }
    const facts = factsOf(c, url, start, now);
    const ports = portsOf(upstream, page, opts.wx(env));
    const outcome = await runGuard({ ...facts, loginAvailable: ports.available }, ports.ports, opts.rules);
    const proceed = () => {
      c.set('startedPage', { ...start, upstream });
      return next();
    };
    if (outcome.kind === 'proceed') return proceed();
    // Every target is a path on this site, the messaging app's OAuth page or the organiser's
    // http(s) success URL (spec §4 status 1); a rule that ever
    // built anything else is our bug, and the page renders instead.
    const organiserUrl = outcome.external === true && successUrl(outcome.location) === outcome.location;
    if (!isSafeRedirectPath(outcome.location) && !outcome.location.startsWith(OAUTH_PREFIX) && !organiserUrl) {
      // the target as a log may name it: a credential path carries the code (src/lib/ops/redact.ts)
      console.error('guard: refused an unsafe redirect target', redactPath(outcome.location));
      return proceed();
    }

    const secure = url.protocol === 'https:';
    if (outcome.openId === null) deleteCookie(c, OPENID_COOKIE, { path: '/', secure });
    else if (typeof outcome.openId === 'string') {
      setCookie(c, OPENID_COOKIE, outcome.openId, { path: '/', httpOnly: true, secure, sameSite: 'Lax' });
    }
    if (outcome.loginFailed) {
      setCookie(c, LOGIN_FAILED_COOKIE, '1', {
        path: '/',
        httpOnly: true,
        secure,
        sameSite: 'Lax',
        maxAge: LOGIN_FAILED_MAX_AGE_S,
      });
    }
    if (outcome.notice) {
      // what the target page says and fills in: the flash of a no-JS round trip, for that page only
      const flash = encodeFlash({ path: outcome.location, values: outcome.notice.values, notice: { tone: 'info', key: outcome.notice.key, text: null } });
      setCookie(c, FLASH_COOKIE, flash, { path: '/', httpOnly: true, secure, sameSite: 'Lax', maxAge: FLASH_MAX_AGE_S });
    }
    c.header('cache-control', 'no-store');
    return c.redirect(outcome.location, 302);
  };
}

/**
 * Hands the page the guard started on to the page loader (src/middleware.ts reads
 * `locals.startedPage`). Runs after the Astro adapter's `cf()`, which made the request's
 * Astro state, and before `astro()` renders (functions/worker.ts).
 */
export function pageHandoff(): MiddlewareHandler<{ Bindings: AppEnv }> {
  return async function handOverPage(c, next) {
    const started = c.get('startedPage');
    const state = c.get('fetchState');
    if (started && state) Object.assign(state.locals, { startedPage: started });
    await next();
  };
}

function factsOf(
  c: Context<{ Bindings: AppEnv }>,
  url: URL,
  start: PageStart,
  now: number,
): Omit<GuardFacts, 'loginAvailable'> {
  const page = start.info;
  const secret = c.env.SESSION_SECRET ?? '';
  const hasVerifiedContact = secret.length >= 16 && page.expoId !== null && provenFor(start.contact, page.expoId) !== null;
  const lapsed = secret.length >= 16 && page.expoId !== null && !hasVerifiedContact ? provenFor(start.lapsed, page.expoId) : null;
  const openId = getCookie(c, OPENID_COOKIE)?.trim() || null;
  return {
    url,
    page,
    userAgent: c.req.header('user-agent') ?? '',
    hasVerifiedContact,
    lapsed,
    openId,
    loginFailedRecently: getCookie(c, LOGIN_FAILED_COOKIE) === '1',
    now,
  };
}

function portsOf(
  upstream: Upstream,
  page: GuardFacts['page'],
  wx: WxPort | null,
): { ports: GuardPorts; available: boolean } {
  const config = once(async (): Promise<GuardConfig | null> => {
    if (page.expoId === null || page.fId === null) return null;
    const r = await upstream.getCustomerId({ expoId: page.expoId, fId: page.fId, ty: page.ty });
    if (!r.ok) return null;
    return {
      activity: r.data.activity !== null,
      isUserClass: r.data.customerWx?.isUserClass ?? null,
      endTime: r.data.expoInfo?.endTime ?? null,
      successfulUrl: r.data.customerWx?.successfulUrl ?? null,
    };
  });
  const unavailable = () => Promise.reject(new Error('no messaging-app calls for this upstream'));
  return {
    available: wx !== null,
    ports: {
      config,
      appId: wx && page.expoId !== null ? once(() => wx.appId(page.expoId as number)) : unavailable,
      silentLogin: async (code) => {
        if (!wx || page.expoId === null) return unavailable();
        const cfg = await config().catch(() => null);
        return wx.silentLogin({ code, expoId: page.expoId, fId: page.fId, isUserClass: cfg?.isUserClass ?? null });
      },
    },
  };
}
