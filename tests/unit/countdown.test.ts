/** The countdown store factory (src/stores/countdown.ts). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countdown, secondsLeft } from '../../src/stores/countdown';
import { $toast } from '../../src/stores/toast';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  $toast.set(null);
});

describe('countdown', () => {
  it('seconds left round up and never go below 0', () => {
    expect(secondsLeft(10_500, 10_000)).toBe(1);
    expect(secondsLeft(10_000, 10_000)).toBe(0);
    expect(secondsLeft(10_000, 12_000)).toBe(0);
  });
  it('starts at its seconds before anyone listens (the server render)', () => {
    expect(countdown(1800, 1000, 0).$left.get()).toBe(1800);
    expect(countdown(-5).$left.get()).toBe(0);
  });
  it('counts to the deadline while a component listens, and stops ticking when none does', () => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
    const c = countdown(5, 250);
    const seen: number[] = [];
    const off = c.$left.listen((n) => seen.push(n));
    vi.advanceTimersByTime(1_000);
    expect(c.$left.get()).toBe(4);
    vi.advanceTimersByTime(4_000);
    expect(c.$left.get()).toBe(0);
    expect(seen).toEqual([4, 3, 2, 1, 0]);
    off();
    vi.advanceTimersByTime(5_000);
    c.start(3);
    expect(c.$left.get()).toBe(3);
  });
  it('a throttled timer still shows the time left (deadline, not decrements)', () => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
    const c = countdown(60);
    const off = c.$left.listen(() => undefined);
    vi.setSystemTime(30_000);
    vi.advanceTimersByTime(1_000);
    expect(c.$left.get()).toBe(29);
    off();
  });
});
