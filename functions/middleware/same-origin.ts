import type { MiddlewareHandler } from 'hono';

/**
 * Cross-site posts are refused: a page elsewhere could otherwise post a form
 * to /api/lookup or /api/lang and sign a visitor into the attacker's contact or language. A
 * browser names the page a post came from in `Origin` (else `Referer`); a state-changing
 * request whose origin is another site's answers 403. A request with neither (curl, a server)
 * is not a browser acting for a visitor and goes on.
 */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origin a request says it came from: `Origin`, else the origin of `Referer`; null when neither says. */
export function claimedOrigin(origin: string | undefined, referer: string | undefined): string | null {
  if (origin !== undefined && origin !== '') return origin;
  if (referer === undefined || referer === '') return null;
  try {
    return new URL(referer).origin;
  } catch {
    return 'invalid';
  }
}

/** Hono middleware: 403 for a state-changing request from another origin. */
export function sameOrigin(): MiddlewareHandler {
  return async function sameOriginOnly(c, next) {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const claimed = claimedOrigin(c.req.header('origin'), c.req.header('referer'));
    if (claimed === null || claimed === new URL(c.req.url).origin) return next();
    return c.json({ code: 403, msg: 'This form was sent from another site. Open the page on this site and try again.', data: null }, 403);
  };
}
