/**
 * The Worker's health check (`GET /healthz`, docs/deploy.md "Health check"; issue 24): what an
 * operator and a monitor need to know, decided from facts the handler gathers. Pure: the handler
 * (functions/healthz.ts) reads the environment and asks the upstream once; this file says what
 * the answer is.
 *
 * A fault makes the answer 503, so a monitor pages someone: without `SESSION_SECRET` every API
 * call answers 503 while the pages still render, which `GET /api/health` (always `{ok:true}`)
 * never showed. The body names each fault by a fixed code and a sentence that says what to do;
 * it never carries a value from the environment (a secret, or the upstream's address).
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
  upstream: UpstreamProbe;
}

/** One fault: a fixed code (for alerts and tests) and what to do. */
export interface HealthProblem {
  code: string;
  message: string;
}

/** The reply body. */
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

/** The answer: status and body. */
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

/** Whether the upstream should be asked: it is configured and its address is usable. */
export function shouldProbe(facts: Pick<HealthFacts, 'upstreamUrl'>): boolean {
  return facts.upstreamUrl === 'ok';
}

/** The probe's timeout: short, so a monitor's check never waits the calls' full UPSTREAM_TIMEOUT_MS. */
export const HEALTH_PROBE_TIMEOUT_MS = 3_000;
