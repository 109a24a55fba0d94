import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { createT } from '../../src/i18n';
import { LANG_COOKIE, resolveLang } from '../../src/lib/core/languages';

/**
 * Request bodies read bounded. Every body is read here, at most `maxBytes`
 * of it kept; a larger one is refused with 413 and a message, but only after the rest has been
 * read and dropped (up to `drainBytes`): answering while a client is still sending makes
 * proxies (wrangler's among them) reset the connection, and the visitor sees "Network
 * connection lost" instead of the answer. Hono's own bodyLimit answers early without draining.
 */
export interface BodyLimitOptions {
  /** the largest body the route accepts */
  maxBytes: number;
  /** how much of an over-long body is read and dropped before answering; beyond it the stream is cancelled */
  drainBytes: number;
  /** the 413 reply */
  tooLarge: (c: Context, maxBytes: number) => Response | Promise<Response>;
  /** the reply when the body stops arriving (the client went away mid-request) */
  broken: (c: Context) => Response;
}

/** The largest body of an API path that names no limit of its own (functions/api/index.ts), a path that does not exist included. */
export const OTHER_API_BODY_LIMIT = 16 * 1024;

/** The API's 413 for a body over `maxBytes`. */
export function tooLargeReply(c: Context, maxBytes: number): Response {
  return c.json({ code: 413, msg: `The request is too large (at most ${Math.round(maxBytes / 1024)} KB). Reload the page and try again.`, data: null }, 413);
}

const DEFAULT_OPTIONS: Omit<BodyLimitOptions, 'maxBytes'> = {
  drainBytes: 8 * 1024 * 1024,
  tooLarge: tooLargeReply,
  // in the request's language (the body, and any pageLang in it, never arrived).
  broken: (c) => c.json({ code: 400, msg: createT(resolveLang(getCookie(c, LANG_COOKIE)))('api.incomplete'), data: null }, 400),
};

/** Hono middleware factory (STYLE.md §3): options checked once, a named handler returned. */
export function bodyLimit(options: Partial<BodyLimitOptions> & Pick<BodyLimitOptions, 'maxBytes'>): MiddlewareHandler {
  const opts: BodyLimitOptions = { ...DEFAULT_OPTIONS, ...options };
  if (!(opts.maxBytes > 0) || opts.drainBytes < opts.maxBytes) throw new Error('bodyLimit: maxBytes > 0 and drainBytes ≥ maxBytes');
  return async function boundedBody(c, next) {
    const body = c.req.raw.body;
    if (!body) return next();
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size <= opts.maxBytes) chunks.push(value);
        else if (size > opts.drainBytes) {
          await reader.cancel().catch(() => undefined);
          break;
        }
      }
    } catch {
      return opts.broken(c);
    }
    if (size > opts.maxBytes) return opts.tooLarge(c, opts.maxBytes);
    const whole = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      whole.set(chunk, at);
      at += chunk.byteLength;
    }
    c.req.raw = new Request(c.req.raw, { body: whole });
    return next();
  };
}
