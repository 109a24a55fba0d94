/**
 * The health check's one cheap upstream call (functions/healthz.ts, docs/deploy.md "Health
 * check"): `selectAESKey` for one expo, straight through the core (no key cache, so it really
 * asks), with a short timeout. Any `{code, msg, data}` envelope counts as an answer, a refusal
 * too: the question is whether the organiser's API is reachable and speaks the contract, not
 * whether it knows this expo.
 */
import type { AppEnv } from '../env';
import { createCore } from './core';
import { Path } from './contract';
import { isUpstreamError } from './errors';
import { upstreamTimeoutMs } from './timeout';
import { HEALTH_PROBE_TIMEOUT_MS, type UpstreamProbe } from '../../src/lib/ops/health';

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
