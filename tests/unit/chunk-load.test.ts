import { describe, expect, it } from 'vitest';
import { CHUNK_LOAD_TIMEOUT_MS, chunkTimeoutMs, EAGER_ISLANDS } from '../../src/lib/page/chunk-load';

describe('chunk load failure (spec §8, §9)', () => {
  it('the timeout is the spec\'s 120 s unless a browser test set a shorter one', () => {
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
    expect(chunkTimeoutMs({})).toBe(120_000);
    expect(chunkTimeoutMs({ chunkLoadTimeoutMs: 1500 })).toBe(1500);
    expect(chunkTimeoutMs({ chunkLoadTimeoutMs: '1' })).toBe(120_000);
    expect(chunkTimeoutMs({ chunkLoadTimeoutMs: -1 })).toBe(120_000);
  });

  it('only islands that start at once or on idle count as late; client:visible ones wait for the visitor', () => {
    expect(EAGER_ISLANDS).toContain('[client=idle]');
    expect(EAGER_ISLANDS).not.toContain('visible');
  });
});
