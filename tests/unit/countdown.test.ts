/** The countdown store factory (src/stores/countdown.ts) and the islands' submit (src/islands/ask.ts). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countdown, secondsLeft } from '../../src/stores/countdown';
import { ask } from '../../src/islands/ask';
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

describe('ask', () => {
  const answer = (body: unknown, status = 200) => vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })));
  it('reads each outcome of an action', async () => {
    answer({ code: 200, msg: null, data: { location: '/x' } });
    expect(await ask('/api/a', {})).toEqual({ kind: 'navigate', location: '/x' });
    answer({ code: 200, msg: 'ok', data: { companies: ['A'] } });
    expect(await ask('/api/a', {})).toEqual({ kind: 'data', data: { companies: ['A'] }, message: 'ok' });
    answer({ code: 200, msg: null, data: null });
    expect(await ask('/api/a', {})).toEqual({ kind: 'data', data: null, message: null });
    answer({ code: 400, msg: 'Name?', data: { field: 'userName' } });
    expect(await ask('/api/a', {})).toEqual({ kind: 'invalid', field: 'userName', message: 'Name?' });
    answer({ code: 400, msg: 'No seat', data: { field: null } });
    expect(await ask('/api/a', {})).toEqual({ kind: 'notice', code: 400, message: 'No seat' });
    answer({ code: 600, msg: null, data: null }, 429);
    expect(await ask('/api/a', {})).toEqual({ kind: 'notice', code: 600, message: '' });
  });
  it('no answer of ours is a fault (the toast is shown)', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('down', { status: 500, statusText: 'Internal Server Error' })));
    vi.stubGlobal('navigator', { onLine: true });
    expect(await ask('/api/a', {})).toEqual({ kind: 'fault' });
    expect($toast.get()).not.toBeNull();
  });
});
