/**
 * The health check's one cheap upstream call (functions/healthz.ts, docs/deploy.md "Health
 * check"): `selectAESKey` for one expo, straight through the core (no key cache, so it really
 * asks), with a short timeout. Any `{code, msg, data}` envelope counts as an answer, a refusal
 * too: the question is whether the organiser's API is reachable and speaks the contract, not
 * whether it knows this expo.
 *
 * {@link SharedProbe} shares the answer (issue 29): an isolate asks at most once per
 * HEALTH_PROBE_TTL_MS, however many checks arrive, so `/healthz` cannot be used to flood the
 * organiser.
 */
import type { AppEnv } from '../env';
import { createCore } from './core';
import { Path } from '../../src/lib/contract';
import { isUpstreamError } from './errors';
import { upstreamTimeoutMs } from './timeout';
import { SettledReads } from './settled-reads';
import { HEALTH_PROBE_TIMEOUT_MS, HEALTH_PROBE_TTL_MS, type UpstreamProbe } from '../../src/lib/ops/health';

/** The expo asked about: the spec's own sample expo (spec §2.1); an unknown one is answered with a refusal, which is fine. */
export const PROBE_EXPO_ID = 1308;

/**
 * Asks the configured upstream (`UPSTREAM_URL`, which the caller checked is a usable URL) once.
 * `fetch` is injectable for tests; default the global one.
 */
export async function probeUpstream(
  env: Pick<AppEnv, 'UPSTREAM_URL' | 'UPSTREAM_TIMEOUT_MS'>,
  fetcher: (req: Request) => Promise<Response> = (req) => fetch(req),
  now: () => number = () => performance.now(),
): Promise<UpstreamProbe> {
  const timeoutMs = Math.min(HEALTH_PROBE_TIMEOUT_MS, upstreamTimeoutMs(env));
  const core = createCore({ baseUrl: (env.UPSTREAM_URL ?? '').trim(), fetch: fetcher, timeoutMs });
  const start = now();
  try {
    await core.call(Path.selectAESKey, PROBE_EXPO_ID, { method: 'GET', query: { expoId: String(PROBE_EXPO_ID) } });
    return { kind: 'up', ms: now() - start };
  } catch (e) {
    if (isUpstreamError(e)) return { kind: 'down', fault: e.kind, status: e.status, ms: now() - start };
    return { kind: 'down', fault: 'network', ms: now() - start };
  }
}

/**
 * How a check waits for a probe another request has in flight: it looks every `pollMs`, from its
 * own request (a timer), for at most `waitMs` (the probe's timeout and a margin: a probe still in
 * flight after that was lost, e.g. its request was cancelled), then probes itself. It never awaits
 * the other request's promise: workerd runs a promise's continuations in the request that settles
 * it, and I/O on behalf of another request fails (functions/upstream/credential-views.ts).
 */
export const PROBE_WAIT = { pollMs: 20, waitMs: HEALTH_PROBE_TIMEOUT_MS + 500 } as const;

/** Options of {@link SharedProbe}. */
export interface SharedProbeOptions {
  /** how long a settled probe answers (ms); default HEALTH_PROBE_TTL_MS */
  ttlMs: number;
  /** clock, ms; default Date.now */
  now: () => number;
  /** waits `ms` in the caller's own request; default a timer */
  sleep: (ms: number) => Promise<unknown>;
}

/**
 * One isolate's upstream probe, shared (or one app's: tests make their own): ./settled-reads.ts
 * with one key per upstream's settings, so an answer is never reused for another address; a
 * failed probe is an answer too (the upstream is down), shared like any other.
 */
export class SharedProbe {
  readonly #reads: SettledReads<null>;

  constructor(options: Partial<SharedProbeOptions> = {}) {
    this.#reads = new SettledReads<null>({
      ttlMs: options.ttlMs ?? HEALTH_PROBE_TTL_MS,
      max: 8,
      wait: PROBE_WAIT,
      ...(options.now ? { now: options.now } : {}),
      ...(options.sleep ? { sleep: options.sleep } : {}),
    });
  }

  /** The upstream's state, asked through `probe` only when no fresh answer is at hand. */
  read(key: string, probe: () => Promise<UpstreamProbe>): Promise<UpstreamProbe> {
    return this.#reads.read(key, null, probe);
  }

  /** How the upstream's settings are told apart ({@link read}'s key). */
  static keyOf(env: Pick<AppEnv, 'UPSTREAM_URL' | 'UPSTREAM_TIMEOUT_MS'>): string {
    return `${(env.UPSTREAM_URL ?? '').trim()}\n${(env.UPSTREAM_TIMEOUT_MS ?? '').trim()}`;
  }
}
