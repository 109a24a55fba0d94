/**
 * `GET /healthz` (and HEAD): the Worker's health check for operators and monitors
 * (docs/deploy.md "Health check", issues 24 and 29). 200 when configured, the schema of each
 * database in use is in place and the upstream answers; 503 otherwise. Anyone gets the status
 * and `{"ok":true}` / `{"ok":false}` only; a caller presenting `Authorization: Bearer
 * <HEALTH_TOKEN>` gets the details (faults, upstream state and latency), and an unhealthy check
 * writes them to the Worker log. The decision is src/lib/ops/health.ts; this file only gathers
 * the facts. `GET /api/health` stays as it was (always `{ok: true}`): old monitors and the bench
 * use it as a liveness check.
 */
import type { Context, Handler } from 'hono';
import type { AppEnv } from './env';
import {
  bearerToken,
  healthAnswer,
  healthLogLine,
  publicBody,
  shouldProbe,
  timeoutShape,
  tokenMatches,
  urlShape,
  type HealthFacts,
  type SchemaCheck,
  type SchemaDatabase,
} from '../src/lib/ops/health';
import { probeUpstream, SharedProbe, type SharedProbeOptions } from './upstream/probe';
import { LATEST_MIGRATIONS, MIGRATIONS_TABLE } from './schema';

/** Options of {@link healthCheck}. */
export interface HealthCheckOptions extends SharedProbeOptions {
  /** how the upstream probe's request leaves (tests inject a fake); default the global fetch */
  fetch: (req: Request) => Promise<Response>;
  /** where an unhealthy check's line goes; default console.warn, as JSON (tests capture it) */
  log: (line: Record<string, unknown>) => void;
}

const DEFAULT_OPTIONS: Pick<HealthCheckOptions, 'fetch' | 'log'> = {
  fetch: (req) => fetch(req),
  log: (line) => console.warn(JSON.stringify(line)),
};

const isD1 = (v: unknown): v is D1Database => typeof (v as D1Database | undefined)?.prepare === 'function';

/** The bindings wrangler.toml declares, each with a check that it is there at runtime. */
const BINDINGS: readonly [keyof AppEnv, (v: unknown) => boolean][] = [
  ['DB', isD1],
  ['STAFF', isD1],
  ['LIMITS', (v) => typeof (v as DurableObjectNamespace | undefined)?.idFromName === 'function'],
];

/**
 * One database's schema: one read of its migrations table for the newest migration this code
 * expects (functions/schema.ts). "no such table" means it was never migrated; another error is
 * kept for the log line.
 */
async function schemaOf(db: D1Database, name: SchemaDatabase): Promise<SchemaCheck> {
  const latest = LATEST_MIGRATIONS[name];
  try {
    const row = await db.prepare(`SELECT 1 AS applied FROM ${MIGRATIONS_TABLE} WHERE name = ?1 LIMIT 1`).bind(latest).first();
    return { db: name, state: row ? 'ok' : 'behind', latest };
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    return /no such table/i.test(error) ? { db: name, state: 'missing', latest } : { db: name, state: 'unreadable', latest, error };
  }
}

/**
 * The facts of this environment: the schema of STAFF (always the edge's) and of DB when the
 * embedded reference is the upstream, read side by side with the upstream's state (shared: at
 * most one call per isolate per HEALTH_PROBE_TTL_MS).
 */
async function gatherFacts(env: AppEnv, opts: Pick<HealthCheckOptions, 'fetch'>, shared: SharedProbe): Promise<HealthFacts> {
  const shapes = {
    upstreamUrl: urlShape(env.UPSTREAM_URL),
    upstreamAuthUrl: urlShape(env.UPSTREAM_AUTH_URL),
  };
  const databases: SchemaDatabase[] = shapes.upstreamUrl === 'empty' ? ['STAFF', 'DB'] : ['STAFF'];
  const [upstream, ...schema] = await Promise.all([
    shapes.upstreamUrl === 'empty'
      ? ({ kind: 'reference' } as const)
      : shouldProbe(shapes)
        ? shared.read(SharedProbe.keyOf(env), () => probeUpstream(env, opts.fetch))
        : ({ kind: 'skipped' } as const),
    ...databases.flatMap((name) => (isD1(env[name]) ? [schemaOf(env[name], name)] : [])),
  ]);
  return {
    sessionSecretLength: (env.SESSION_SECRET ?? '').length, // as the API measures it (functions/api/index.ts)
    ...shapes,
    upstreamTimeout: timeoutShape(env.UPSTREAM_TIMEOUT_MS),
    missingBindings: BINDINGS.filter(([name, present]) => !present(env[name])).map(([name]) => name),
    schema,
    upstream,
  };
}

/** The handler (STYLE.md §3: options once, a named function returned; the shared probe lives as long as the app). */
export function healthCheck(options: Partial<HealthCheckOptions> = {}): Handler<{ Bindings: AppEnv }> {
  const opts = { ...DEFAULT_OPTIONS, ...options };
  const shared = new SharedProbe(options);
  return async function healthz(c: Context<{ Bindings: AppEnv }>) {
    const facts = await gatherFacts(c.env, opts, shared);
    const answer = healthAnswer(facts);
    if (answer.status !== 200) opts.log(healthLogLine(answer, facts));
    const detailed = await tokenMatches(bearerToken(c.req.header('authorization')), c.env.HEALTH_TOKEN);
    // A monitor must see this moment's state, never a cached one.
    c.header('cache-control', 'no-store');
    return c.json(detailed ? answer.body : publicBody(answer), answer.status);
  };
}
