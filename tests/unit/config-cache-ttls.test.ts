/**
 * The config cache's lifetimes from the environment (functions/upstream/config-cache.ts): a rule,
 * so a unit test; the cache itself, with the Cache API, is tests/edge/config-cache.
 */
import { describe, expect, it } from 'vitest';
import { configCacheTtls } from '../../functions/upstream/config-cache';

describe('CONFIG_CACHE_TTL_S and CONFIG_CACHE_STALE_S', () => {
  it('reads the TTLs from the environment, defaults for bad values', () => {
    expect(configCacheTtls({})).toEqual({ ttlS: 60, staleS: 600 });
    expect(configCacheTtls({ CONFIG_CACHE_TTL_S: '5', CONFIG_CACHE_STALE_S: '0' })).toEqual({ ttlS: 5, staleS: 0 });
    expect(configCacheTtls({ CONFIG_CACHE_TTL_S: '-1', CONFIG_CACHE_STALE_S: 'x' })).toEqual({ ttlS: 60, staleS: 600 });
  });
});
