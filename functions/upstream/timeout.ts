/**
 * The per-call upstream timeout from the environment (DESIGN.md "Configuration":
 * `UPSTREAM_TIMEOUT_MS`, default 15000).
 */
import type { AppEnv } from '../env';

/** Default per-call timeout in ms. */
export const UPSTREAM_TIMEOUT_DEFAULT_MS = 15000;

/** The longest timeout accepted: the legacy client's own 600000 ms (spec §7, §9). */
export const UPSTREAM_TIMEOUT_MAX_MS = 600_000;

/**
 * The per-call timeout from `UPSTREAM_TIMEOUT_MS`: a positive whole number of ms up to
 * {@link UPSTREAM_TIMEOUT_MAX_MS}; anything else (unset, empty, `abc`, `-1`, `1.5`, `0`) gives the default.
 * @example upstreamTimeoutMs({ UPSTREAM_TIMEOUT_MS: '5000' }) // 5000
 */
export function upstreamTimeoutMs(env: Pick<AppEnv, 'UPSTREAM_TIMEOUT_MS'>): number {
  const raw = env.UPSTREAM_TIMEOUT_MS?.trim() ?? '';
  if (!/^\d{1,7}$/.test(raw)) return UPSTREAM_TIMEOUT_DEFAULT_MS;
  const ms = Number(raw);
  return ms > 0 && ms <= UPSTREAM_TIMEOUT_MAX_MS ? ms : UPSTREAM_TIMEOUT_DEFAULT_MS;
}
