import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { matchRoute } from '../../src/lib/core/routes';
import { requestLogLine, type RequestLogLine } from '../../src/lib/ops/request-log';
import { countUpstreamCalls, type CallCount } from '../upstream/count';

/**
 * One JSON line per request (issue 24, docs/deploy.md "Logs"): Ray ID, method, route pattern,
 * status, duration, upstream calls; never the URL, a body, a cookie or a contact
 * (src/lib/ops/request-log.ts decides what is written). The first middleware of the Worker, so it
 * sees every answer, the pages' and the API's. Workers Logs indexes the JSON's fields
 * (wrangler.toml `[observability]`); `wrangler tail` and `npm start` show the lines as they are.
 */
export interface RequestLogOptions {
  /** where a line goes; default `console.log` of the JSON text (one line, whatever the runtime) */
  log: (line: RequestLogLine) => void;
  /** a clock in ms */
  now: () => number;
}

const DEFAULT_OPTIONS: RequestLogOptions = {
  log: (line) => console.log(JSON.stringify(line)),
  now: () => Date.now(),
};

/** The method-specific route patterns that matched (Hono's middlewares are registered for ALL methods). */
function routesOf(c: Context): string[] {
  try {
    return matchedRoutes(c)
      .filter((r) => r.method !== 'ALL')
      .map((r) => r.path);
  } catch {
    return []; // no match result (a request that never reached the router)
  }
}

/** A page's screen, for requests no API route matched (pages are rendered by Astro behind a catch-all). */
function pageScreen(c: Context): string | null {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return null;
  return matchRoute(new URL(c.req.url).pathname)?.screen ?? null;
}

/** Hono middleware factory (STYLE.md §3): options once, a named handler returned. */
export function requestLog(options: Partial<RequestLogOptions> = {}): MiddlewareHandler {
  const opts: RequestLogOptions = { ...DEFAULT_OPTIONS, ...options };
  return async function requestLogger(c, next) {
    // REQUEST_LOG=0 (docs/deploy.md "Logs"): no line; the bench turns it off, see docs/bench.md
    if ((c.env as { REQUEST_LOG?: string } | undefined)?.REQUEST_LOG === '0') return next();
    const start = opts.now();
    const tally: CallCount = { calls: 0 };
    let failed = false;
    try {
      await countUpstreamCalls(tally, next);
    } catch (e) {
      failed = true; // Hono's onError answers first; this is a failure past it
      throw e;
    } finally {
      const routes = routesOf(c);
      opts.log(
        requestLogLine({
          rayHeader: c.req.header('cf-ray'),
          method: c.req.method,
          routes,
          pageScreen: routes.length ? null : pageScreen(c),
          status: failed ? 500 : c.res.status,
          ms: opts.now() - start,
          upstream: tally.calls,
        }),
      );
    }
  };
}
