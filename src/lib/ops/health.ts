/**
 * The Worker's health check (`GET /healthz`, docs/deploy.md "Health check"; issues 24 and 29): what
 * an operator and a monitor need to know, decided from facts the handler gathers. Pure: the handler
 * (functions/healthz.ts) reads the environment, asks each database whether its newest migration is
 * applied and asks the upstream (at most once per {@link HEALTH_PROBE_TTL_MS} per isolate); this
 * file says what the answer is.
 *
 * A fault makes the answer 503, so a monitor pages someone: without `SESSION_SECRET` every API
 * call answers 503 while the pages still render, which `GET /api/health` (always `{ok:true}`)
 * never showed; without the migrations every page fails with "no such table".
 *
 * Who sees what (issue 29): anyone gets the status and `{"ok":true}` / `{"ok":false}`, nothing
 * else (no upstream state or latency, no variable names: a stranger learns only what the status
 * says). The details, each fault by a fixed code and a sentence that says what to do, go to the
 * Worker log (one line per unhealthy check) and to a caller presenting `HEALTH_TOKEN`. They never
 * carry a value from the environment (a secret, or the upstream's address).
 */

/** Shortest SESSION_SECRET the API accepts (functions/api/index.ts MIN_SESSION_SECRET). */
export const MIN_SESSION_SECRET_LENGTH = 16;

/** What the handler found out about the upstream. */
export type UpstreamProbe =
  /** `UPSTREAM_URL` is empty: the reference upstream answers in-process, nothing to ask */
  | { kind: 'reference' }
  /** it answered a `{code, msg, data}` envelope (any code: a refusal is still an answer) within the timeout */
  | { kind: 'up'; ms: number }
  /** it did not: the fault's kind (functions/upstream/errors.ts) and, for `http`, the status */
  | { kind: 'down'; fault: string; status?: number | undefined; ms: number }
  /** not asked, because its address is unusable (a config fault says why) */
  | { kind: 'skipped' };

/** The databases whose schema the check verifies (wrangler.toml bindings; functions/schema.ts names their newest migrations). */
export type SchemaDatabase = 'DB' | 'STAFF';

/**
 * One database's schema: its migrations table (`d1_migrations`, written by `wrangler d1
 * migrations apply`) holds the newest migration file of its folder (`ok`), holds rows but not
 * that one (`behind`: this code expects a migration not applied yet), does not exist (`missing`:
 * never migrated), or the read failed otherwise (`unreadable`).
 */
export interface SchemaCheck {
  db: SchemaDatabase;
  state: 'ok' | 'behind' | 'missing' | 'unreadable';
  /** the newest migration file name this code expects (functions/schema.ts) */
  latest: string;
  /** `unreadable`: the database's error, for the log line only (never in a reply) */
  error?: string;
}

/** The facts the answer is decided from: lengths and shapes, never the values themselves. */
export interface HealthFacts {
  /** length of SESSION_SECRET after trimming (0 when unset) */
  sessionSecretLength: number;
  /** UPSTREAM_URL: empty, a usable http(s) URL, or not one */
  upstreamUrl: 'empty' | 'ok' | 'bad';
  /** UPSTREAM_AUTH_URL: empty (UPSTREAM_URL is used), a usable http(s) URL, or not one */
  upstreamAuthUrl: 'empty' | 'ok' | 'bad';
  /** UPSTREAM_TIMEOUT_MS: unset (the default), a usable value, or one the client ignores for its default */
  upstreamTimeout: 'unset' | 'ok' | 'bad';
  /** bindings wrangler.toml declares that are missing at runtime */
  missingBindings: readonly string[];
  /** the schema of STAFF always, and of DB when it is the upstream (UPSTREAM_URL empty); a missing binding is not checked */
  schema: readonly SchemaCheck[];
  upstream: UpstreamProbe;
}

/** One fault: a fixed code (for alerts and tests) and what to do. */
export interface HealthProblem {
  code: string;
  message: string;
}

/** The details: the body a caller presenting `HEALTH_TOKEN` gets, and what the log line says. */
export interface HealthBody {
  ok: boolean;
  /** 'reference' (built in, not asked), 'up' / 'down' (UPSTREAM_URL asked), 'unchecked' (its address is unusable) */
  upstream: 'reference' | 'up' | 'down' | 'unchecked';
  /** how long the upstream took to answer, when it was asked */
  upstreamMs?: number;
  problems: HealthProblem[];
  /** things that work but look wrong (never a 503) */
  warnings: HealthProblem[];
}

/** The body anyone gets: the verdict and nothing else (issue 29). */
export interface PublicHealthBody {
  ok: boolean;
}

/** The answer: status and the details (see {@link publicBody} for what a stranger gets). */
export interface HealthAnswer {
  status: 200 | 503;
  body: HealthBody;
}

/** Whether text is an absolute http(s) URL the upstream client can use (it rejects anything else). */
export function urlShape(raw: string | undefined): 'empty' | 'ok' | 'bad' {
  const text = (raw ?? '').trim();
  if (text === '') return 'empty';
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? 'ok' : 'bad';
  } catch {
    return 'bad';
  }
}

/** UPSTREAM_TIMEOUT_MS as the client reads it (functions/upstream/timeout.ts): 1-600000 whole ms. */
export function timeoutShape(raw: string | undefined): 'unset' | 'ok' | 'bad' {
  const text = (raw ?? '').trim();
  if (text === '') return 'unset';
  if (!/^\d{1,7}$/.test(text)) return 'bad';
  const ms = Number(text);
  return ms > 0 && ms <= 600_000 ? 'ok' : 'bad';
}

/** A rule: when it holds of the facts, the problem it names. */
interface Rule {
  when: (f: HealthFacts) => boolean;
  then: (f: HealthFacts) => HealthProblem;
}

/** Faults: each makes the answer 503. */
const FAULTS: readonly Rule[] = [
  {
    when: (f) => f.sessionSecretLength === 0,
    then: () => ({
      code: 'session-secret-missing',
      message: 'SESSION_SECRET is not set: every API call answers 503. Run `npx wrangler secret put SESSION_SECRET` (docs/deploy.md).',
    }),
  },
  {
    when: (f) => f.sessionSecretLength > 0 && f.sessionSecretLength < MIN_SESSION_SECRET_LENGTH,
    then: () => ({
      code: 'session-secret-short',
      message: `SESSION_SECRET is shorter than ${MIN_SESSION_SECRET_LENGTH} characters: every API call answers 503. Set a longer one with \`npx wrangler secret put SESSION_SECRET\`.`,
    }),
  },
  {
    when: (f) => f.upstreamUrl === 'bad',
    then: () => ({ code: 'upstream-url-invalid', message: 'UPSTREAM_URL is not an absolute http(s) URL: no upstream call can be made.' }),
  },
  {
    when: (f) => f.upstreamAuthUrl === 'bad',
    then: () => ({ code: 'upstream-auth-url-invalid', message: 'UPSTREAM_AUTH_URL is not an absolute http(s) URL: the seat lookups cannot be made.' }),
  },
  {
    when: (f) => f.missingBindings.length > 0,
    then: (f) => ({
      code: 'binding-missing',
      message: `Binding${f.missingBindings.length > 1 ? 's' : ''} ${f.missingBindings.join(', ')} missing: deploy with the wrangler.toml of this repository (docs/deploy.md).`,
    }),
  },
  {
    when: (f) => f.schema.some((s) => s.state === 'missing' || s.state === 'behind'),
    then: (f) => {
      const behind = f.schema.filter((s) => s.state === 'missing' || s.state === 'behind');
      const what = behind.map((s) => `${s.db} (${s.state === 'missing' ? 'never migrated' : `${s.latest} not applied`})`).join(', ');
      const run = behind.map((s) => `\`npx wrangler d1 migrations apply ${s.db} --remote\``).join(' and ');
      return { code: 'schema', message: `The database schema is not in place: ${what}; every page that reads it fails. Run ${run} (docs/deploy.md).` };
    },
  },
  {
    when: (f) => f.schema.some((s) => s.state === 'unreadable'),
    then: (f) => {
      const names = f.schema.filter((s) => s.state === 'unreadable').map((s) => s.db);
      return { code: 'database-unreadable', message: `The database${names.length > 1 ? 's' : ''} ${names.join(', ')} could not be read (the Worker log has the error).` };
    },
  },
  {
    when: (f) => f.upstream.kind === 'down',
    then: (f) => {
      const probe = f.upstream as Extract<UpstreamProbe, { kind: 'down' }>;
      const what = probe.fault === 'http' && probe.status ? `HTTP ${probe.status}` : probe.fault;
      return { code: 'upstream-down', message: `The upstream (UPSTREAM_URL) did not answer: ${what}.` };
    },
  },
];

/** Warnings: reported, never a 503. */
const WARNINGS: readonly Rule[] = [
  {
    when: (f) => f.upstreamTimeout === 'bad',
    then: () => ({ code: 'upstream-timeout-ignored', message: 'UPSTREAM_TIMEOUT_MS is not a whole number of ms from 1 to 600000: the default (15000) is used.' }),
  },
];

/**
 * The health check's answer: 503 with every fault when there is one, else 200.
 * @example healthAnswer({ sessionSecretLength: 0, …, upstream: { kind: 'reference' } }).status // 503
 */
export function healthAnswer(facts: HealthFacts): HealthAnswer {
  const problems = FAULTS.filter((r) => r.when(facts)).map((r) => r.then(facts));
  const warnings = WARNINGS.filter((r) => r.when(facts)).map((r) => r.then(facts));
  const probe = facts.upstream;
  const body: HealthBody = {
    ok: problems.length === 0,
    upstream: probe.kind === 'skipped' ? 'unchecked' : probe.kind,
    ...(probe.kind === 'up' || probe.kind === 'down' ? { upstreamMs: Math.round(probe.ms) } : {}),
    problems,
    warnings,
  };
  return { status: problems.length === 0 ? 200 : 503, body };
}

/** What anyone gets: the verdict alone (issue 29: no upstream state, latency or variable names). */
export function publicBody(answer: HealthAnswer): PublicHealthBody {
  return { ok: answer.body.ok };
}

/**
 * The Worker log's line for an unhealthy check (healthy checks write none: the request log
 * already has a line per request): the details, and the databases not in place with their
 * errors. No secret, no upstream address.
 */
export function healthLogLine(answer: HealthAnswer, facts: Pick<HealthFacts, 'schema'>): Record<string, unknown> {
  const { body } = answer;
  return {
    event: 'healthz.unhealthy',
    status: answer.status,
    faults: body.problems.map((p) => p.code),
    problems: body.problems,
    upstream: body.upstream,
    ...(body.upstreamMs !== undefined ? { upstreamMs: body.upstreamMs } : {}),
    schema: facts.schema.filter((s) => s.state !== 'ok'),
  };
}

/** Shortest `HEALTH_TOKEN` that grants the details: a shorter one grants nothing (it could be guessed). */
export const MIN_HEALTH_TOKEN_LENGTH = 16;

/** The token of an `Authorization: Bearer <token>` header (scheme in any case); null for anything else. */
export function bearerToken(header: string | null | undefined): string | null {
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m?.[1] ?? null;
}

/**
 * Whether `given` is the operator's `expected` token, in constant time: both are hashed
 * (SHA-256) first, so the comparison always runs over 32 bytes whatever the lengths, and the
 * bytes are compared without an early exit. False when `expected` is unset or shorter than
 * {@link MIN_HEALTH_TOKEN_LENGTH} (without the secret configured, nobody gets the details).
 */
export async function tokenMatches(given: string | null | undefined, expected: string | undefined): Promise<boolean> {
  const secret = (expected ?? '').trim();
  if (secret.length < MIN_HEALTH_TOKEN_LENGTH || !given) return false;
  const enc = new TextEncoder();
  const [a, b] = await Promise.all([crypto.subtle.digest('SHA-256', enc.encode(given)), crypto.subtle.digest('SHA-256', enc.encode(secret))]);
  const x = new Uint8Array(a);
  const y = new Uint8Array(b);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

/** Whether the upstream should be asked: it is configured and its address is usable. */
export function shouldProbe(facts: Pick<HealthFacts, 'upstreamUrl'>): boolean {
  return facts.upstreamUrl === 'ok';
}

/** The probe's timeout: short, so a monitor's check never waits the calls' full UPSTREAM_TIMEOUT_MS. */
export const HEALTH_PROBE_TIMEOUT_MS = 3_000;

/**
 * How long an isolate answers checks from its last settled probe (issue 29): `/healthz` is public,
 * so without it each request was one call to the organiser (200 requests, 200 calls). 10 s keeps
 * a monitor's view current (it checks every minute or so, and an outage is seen within 10 s)
 * while a flood of checks costs the organiser at most one call per isolate per 10 s.
 */
export const HEALTH_PROBE_TTL_MS = 10_000;
