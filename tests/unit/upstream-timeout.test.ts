import { describe, expect, it } from 'vitest';
import {
  UPSTREAM_TIMEOUT_DEFAULT_MS,
  UPSTREAM_TIMEOUT_MAX_MS,
  upstreamTimeoutMs,
} from '../../functions/upstream/timeout';

describe('UPSTREAM_TIMEOUT_MS', () => {
  it('defaults to 15000 ms', () => {
    expect(UPSTREAM_TIMEOUT_DEFAULT_MS).toBe(15000);
    expect(upstreamTimeoutMs({})).toBe(15000);
  });

  it.each([
    ['5000', 5000],
    [' 250 ', 250],
    ['600000', 600000],
  ])('%j → %i', (raw, ms) => {
    expect(upstreamTimeoutMs({ UPSTREAM_TIMEOUT_MS: raw })).toBe(ms);
  });

  it.each(['', 'abc', '-1', '0', '1.5', '1e4', '600001', '99999999'])('%j falls back to the default', (raw) => {
    expect(upstreamTimeoutMs({ UPSTREAM_TIMEOUT_MS: raw })).toBe(UPSTREAM_TIMEOUT_DEFAULT_MS);
  });

  it('caps at the legacy client timeout', () => {
    expect(UPSTREAM_TIMEOUT_MAX_MS).toBe(600000);
  });
});
