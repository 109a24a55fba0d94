/**
 * The reference's hold rules (functions/reference/holds.ts, issue 29): how much of a limited
 * ticket one contact may hold unpaid, and the cooldown after letting an unpaid order go. Pure;
 * tests/edge/reference.holds.worker.test.ts proves createOrderNew applies them atomically.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HOLD_COOLDOWN_MS, cooldownEnds, holdShare, mayHold, mayOrderNow, minutesUntil } from '../../functions/reference/holds';

describe('holdShare: a third of the pool, at least 1 while any is left', () => {
  it('by the numbers', () => {
    expect([0, 1, 2, 3, 5, 6, 8, 9, 40, 100].map(holdShare)).toEqual([0, 1, 1, 1, 1, 2, 2, 3, 13, 33]);
    expect(holdShare(-3)).toBe(0);
  });
  it('never all of what is left while more than one is left; never more than the pool', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), (pool) => {
        const n = holdShare(pool);
        expect(n).toBeLessThanOrEqual(pool);
        if (pool >= 2) expect(n).toBeLessThan(pool);
        if (pool >= 1) expect(n).toBeGreaterThanOrEqual(1);
      }),
    );
  });
});

describe('mayHold and mayOrderNow', () => {
  it('the last 8 Day Passes of 1216 (20 in all, 12 sold): 2 for one contact', () => {
    expect(mayHold({ stock: 20, taken: 12, mine: 0 })).toBe(2);
    expect(mayOrderNow({ stock: 20, taken: 12, mine: 0 })).toBe(2);
  });
  it("the contact's own unpaid holds count in its pool and against its share: splitting an order gains nothing", () => {
    // It holds 2 of the 8: the pool is still 8 for it, its share 2, nothing more now.
    expect(mayHold({ stock: 20, taken: 14, mine: 2 })).toBe(2);
    expect(mayOrderNow({ stock: 20, taken: 14, mine: 2 })).toBe(0);
    // Holding 1: one more.
    expect(mayOrderNow({ stock: 20, taken: 13, mine: 1 })).toBe(1);
  });
  it('never more than is left', () => {
    expect(mayOrderNow({ stock: 10, taken: 10, mine: 0 })).toBe(0);
    expect(mayOrderNow({ stock: 10, taken: 9, mine: 0 })).toBe(1);
  });
  it('unlimited stock (0) has no share', () => {
    expect(mayHold({ stock: 0, taken: 50, mine: 3 })).toBe(Infinity);
    expect(mayOrderNow({ stock: 0, taken: 50, mine: 3 })).toBe(Infinity);
  });
  it('100 VIP tickets, every contact taking all it may (20 an order): 5 hold 82, holding all takes 13', () => {
    let taken = 0;
    const held: number[] = [];
    while (taken < 100) {
      const n = Math.min(20, mayOrderNow({ stock: 100, taken, mine: 0 }));
      held.push(n);
      taken += n;
    }
    expect(held.slice(0, 5)).toEqual([20, 20, 20, 13, 9]);
    expect(held).toHaveLength(13);
  });
});

describe('the cooldown', () => {
  const NOW = 1_800_000_000_000;
  it('15 minutes from when the unpaid order stopped holding', () => {
    expect(HOLD_COOLDOWN_MS).toBe(15 * 60_000);
    expect(cooldownEnds(null, NOW)).toBeNull();
    expect(cooldownEnds(NOW, NOW)).toBe(NOW + HOLD_COOLDOWN_MS);
    expect(cooldownEnds(NOW - HOLD_COOLDOWN_MS + 1, NOW)).toBe(NOW + 1);
    expect(cooldownEnds(NOW - HOLD_COOLDOWN_MS, NOW)).toBeNull();
  });
  it('says whole minutes, at least 1', () => {
    expect(minutesUntil(NOW + HOLD_COOLDOWN_MS, NOW)).toBe(15);
    expect(minutesUntil(NOW + 61_000, NOW)).toBe(2);
    expect(minutesUntil(NOW + 1, NOW)).toBe(1);
  });
});
