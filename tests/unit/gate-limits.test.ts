import { describe, expect, it } from 'vitest';
import { gateBodyLimit } from '../../src/lib/gate/limits';

describe('gateBodyLimit (a gate route’s own body limit is staff’s; issue 23 review)', () => {
  const sync = { own: 32 * 1024, other: 16 * 1024 };
  const scan = { own: 2 * 1024, other: 16 * 1024 };
  it('a stranger meets the unknown path’s limit, larger or smaller than the route’s', () => {
    expect(gateBodyLimit({ staff: false, size: 20_000, ...sync })).toBe(16 * 1024);
    expect(gateBodyLimit({ staff: false, size: 3_000, ...scan })).toBeNull();
    expect(gateBodyLimit({ staff: false, size: 16 * 1024, ...sync })).toBeNull();
  });
  it('staff meet the route’s own', () => {
    expect(gateBodyLimit({ staff: true, size: 20_000, ...sync })).toBeNull();
    expect(gateBodyLimit({ staff: true, size: 3_000, ...scan })).toBe(2 * 1024);
    expect(gateBodyLimit({ staff: true, size: 32 * 1024 + 1, ...sync })).toBe(32 * 1024);
  });
});
