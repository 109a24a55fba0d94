import { getFetchState } from 'astro/hono';
import type { MiddlewareHandler } from 'hono';

/**
 * Astro renders pages whole instead of streaming them.
 *
 * A streamed page's status, headers and cookies are fixed when its first bytes are ready,
 * which is before the screens (src/components/screens) have awaited the upstream: whatever
 * they set after that await is silently dropped. The screens set exactly such things: the
 * CSP's image hosts from the organiser's config (Astro.csp.insertDirective), the camera's
 * Permissions-Policy on a form with the card camera, and the deletion of the flash cookie
 * once a page has shown it. Every await of a page happens before its first byte anyway (the
 * layout is rendered inside the screens), so rendering whole costs only the few milliseconds
 * of synchronous rendering that followed.
 *
 * Must run before `cf()` and `astro()` (functions/worker.ts): they share the request's
 * FetchState through the Hono context (`getFetchState`, astro/hono).
 */
export function wholePages(): MiddlewareHandler {
  return async function wholePagesHandler(c, next) {
    getFetchState(c).streaming = false;
    await next();
  };
}
