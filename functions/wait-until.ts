import type { Context } from 'hono';
import type { AppEnv } from './env';
import type { RequestScope } from './upstream';

/** The request's waitUntil, when it runs in a Worker (tests may call the app without one). */
export function waitUntilOf(c: Context<{ Bindings: AppEnv }>): RequestScope['waitUntil'] {
  try {
    const ctx = c.executionCtx;
    return (p) => ctx.waitUntil(p);
  } catch {
    return undefined;
  }
}
