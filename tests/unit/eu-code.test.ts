/**
 * The reference's registration codes (functions/reference/euCode.ts): a rule, so a unit test;
 * that registrations get distinct codes through the reference is tests/edge/reference.calls.
 */
import { describe, expect, it } from 'vitest';
import { EU_CODE_LENGTH, newEuCode } from '../../functions/reference/euCode';

describe('euCode', () => {
  it('is 16 base32 characters from the CSPRNG, unique over many draws', () => {
    const seen = new Set<string>();
    const counts = new Map<string, number>();
    for (let i = 0; i < 4000; i++) {
      const c = newEuCode();
      expect(c).toHaveLength(EU_CODE_LENGTH);
      expect(c).toMatch(/^[A-Z2-7]+$/);
      seen.add(c);
      for (const ch of c) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    }
    expect(seen.size).toBe(4000);
    // 64000 characters over 32 symbols: 2000 each expected; every symbol occurs, none dominates.
    expect(counts.size).toBe(32);
    for (const n of counts.values()) expect(n).toBeGreaterThan(1700);
    for (const n of counts.values()) expect(n).toBeLessThan(2300);
  });
});
