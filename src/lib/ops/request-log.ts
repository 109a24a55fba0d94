/**
 * The request log (issue 24, docs/deploy.md "Logs"): one JSON line per request with the
 * Cloudflare Ray ID, method, route, status, duration and upstream calls. Pure: the middleware
 * (functions/middleware/request-log.ts) hands over what it saw; this file decides what may be
 * written.
 *
 * What never goes in: the URL as requested (paths carry registration codes, query strings carry
 * contacts), bodies, cookies, headers other than the Ray ID. The route is the *pattern* that
 * answered (`/api/lookup`, `/qr/:file`), or the page screen's name (`page:credential`), or null.
 */

/** A log line, as written (JSON, one line). */
export interface RequestLogLine {
  /** marks the line for log searches (Workers Logs indexes JSON fields) */
  type: 'request';
  /** the `cf-ray` request header (Cloudflare sets it on every request); null when absent or malformed (local runs) */
  ray: string | null;
  method: string;
  /** the route pattern or page screen that answered; null when nothing matched */
  route: string | null;
  status: number;
  /** wall time from the request's arrival to its response (headers; a streamed page body may take longer), whole ms */
  ms: number;
  /** upstream calls made for this request (functions/upstream/count.ts) */
  upstream: number;
}

/** What the middleware saw. */
export interface RequestFacts {
  rayHeader: string | null | undefined;
  method: string;
  /** the method-specific route patterns that matched, in order (Hono's matched routes without the middlewares) */
  routes: readonly string[];
  /** the page screen the pathname names (src/lib/core/routes.ts matchRoute), when it names one */
  pageScreen: string | null;
  status: number;
  ms: number;
  upstream: number;
}

/** A Ray ID: 16 hex digits, optionally `-` and a data centre's three-letter code (e.g. `8f1b2c3d4e5f6a7b-SIN`). */
const RAY_ID = /^[0-9a-f]{16}(?:-[A-Z]{3})?$/i;

/** The methods written as they are; any other is written as OTHER (a client chooses the method). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Route patterns only: path segments of letters, digits and `-_.`, params (`:name`, with an optional `{…}`), `*`. */
const PATTERN = /^\/[A-Za-z0-9_\-./:*{}+?\\]*$/;

/** The Ray ID when the header holds one, else null: a client may send anything in it locally. */
export function rayId(header: string | null | undefined): string | null {
  const text = (header ?? '').trim();
  return RAY_ID.test(text) ? text : null;
}

/**
 * The route to write: the last method-specific pattern that matched (the handler that answered,
 * or would have, had a middleware not answered first), else the page screen, else null.
 * A route that is not a pattern (never expected) is not written.
 * @example routeLabel(['/api/lookup'], null) // '/api/lookup'
 * @example routeLabel([], 'credential') // 'page:credential'
 */
export function routeLabel(routes: readonly string[], pageScreen: string | null): string | null {
  const route = routes.at(-1);
  if (route !== undefined && route !== '*' && route !== '/*' && PATTERN.test(route)) return route;
  if (pageScreen && /^[A-Za-z]+$/.test(pageScreen)) return `page:${pageScreen}`;
  return null;
}

/** The line for one request. */
export function requestLogLine(f: RequestFacts): RequestLogLine {
  return {
    type: 'request',
    ray: rayId(f.rayHeader),
    method: METHODS.has(f.method.toUpperCase()) ? f.method.toUpperCase() : 'OTHER',
    route: routeLabel(f.routes, f.pageScreen),
    status: f.status,
    ms: Math.max(0, Math.round(f.ms)),
    upstream: f.upstream,
  };
}
