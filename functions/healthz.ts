/**
 * `GET /healthz` (and HEAD): the Worker's health check for operators and monitors
 * (docs/deploy.md "Health check", issue 24). 200 `{ok: true, …}` when configured and the upstream
 * answers; 503 with the faults otherwise. The decision is src/lib/ops/health.ts; this file only
 * gathers the facts. `GET /api/health` stays as it was (always `{ok: true}`): old monitors and
 * the bench use it as a liveness check.
 */
import type { Context, Handler } from 'hono';
import type { AppEnv } from './env';
import { healthAnswer, shouldProbe, timeoutShape, urlShape, type HealthFacts } from '../src/lib/ops/health';
import { probeUpstream } from './upstream/probe';

/** Options of {@link healthCheck}. */
export interface HealthCheckOptions {
  /** how the upstream probe's request leaves (tests inject a fake); default the global fetch */
  fetch: (req: Request) => Promise<Response>;
}

const DEFAULT_OPTIONS: HealthCheckOptions = { fetch: (req) => fetch(req) };

/** The bindings wrangler.toml declares, each with a check that it is there at runtime. */
const BINDINGS: readonly [keyof AppEnv, (v: unknown) => boolean][] = [
  ['DB', (v) => typeof (v as D1Database | undefined)?.prepare === 'function'],
  ['STAFF', (v) => typeof (v as D1Database | undefined)?.prepare === 'function'],
  ['LIMITS', (v) => typeof (v as DurableObjectNamespace | undefined)?.idFromName === 'function'],
];

/** The facts of this environment, the upstream asked once when it is configured. */
async function gatherFacts(env: AppEnv, opts: HealthCheckOptions): Promise<HealthFacts> {
  const shapes = {
    upstreamUrl: urlShape(env.UPSTREAM_URL),
    upstreamAuthUrl: urlShape(env.UPSTREAM_AUTH_URL),
  };
  const upstream =
    shapes.upstreamUrl === 'empty'
      ? ({ kind: 'reference' } as const)
      : shouldProbe(shapes)
        ? await probeUpstream(env, opts.fetch)
        : ({ kind: 'skipped' } as const);
  return {
    sessionSecretLength: (env.SESSION_SECRET ?? '').length, // as the API measures it (functions/api/index.ts)
    ...shapes,
    upstreamTimeout: timeoutShape(env.UPSTREAM_TIMEOUT_MS),
    missingBindings: BINDINGS.filter(([name, present]) => !present(env[name])).map(([name]) => name),
    upstream,
  };
}

/** The handler (STYLE.md §3: options once, a named function returned). */
export function healthCheck(options: Partial<HealthCheckOptions> = {}): Handler<{ Bindings: AppEnv }> {
  const opts: HealthCheckOptions = { ...DEFAULT_OPTIONS, ...options };
  return async function healthz(c: Context<{ Bindings: AppEnv }>) {
    const { status, body } = healthAnswer(await gatherFacts(c.env, opts));
    // A monitor must see this moment's state, never a cached one.
    c.header('cache-control', 'no-store');
    return c.json(body, status);
  };
}
