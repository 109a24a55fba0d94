/**
 * The health check's shared upstream probe (functions/upstream/probe.ts SharedProbe, issue 29):
 * one call per isolate per TTL, a check that finds a probe in flight waits for its settled answer
 * (in its own time, never awaiting the other's promise), and a probe lost in flight (its request
 * cancelled) stops being waited for.
 */
import { describe, expect, it } from 'vitest';
import { PROBE_WAIT, SharedProbe } from '../../functions/upstream/probe';
import type { UpstreamProbe } from '../../src/lib/ops/health';

const UP: UpstreamProbe = { kind: 'up', ms: 5 };

/** A probe with a fake clock; `sleep` moves the clock (the waiting request's own timer). */
function rig(ttlMs = 10_000) {
  let clock = 0;
  const shared = new SharedProbe({ ttlMs, now: () => clock, sleep: async (ms) => void (clock += ms) });
  return { shared, advance: (ms: number) => void (clock += ms) };
}

describe('SharedProbe', () => {
  it('asks once while the answer is fresh, again after the TTL, and apart per key', async () => {
    const { shared, advance } = rig();
    let calls = 0;
    const probe = async () => (calls++, UP);
    await shared.read('a', probe);
    advance(9_999);
    expect(await shared.read('a', probe)).toEqual(UP);
    expect(calls).toBe(1);
    await shared.read('b', probe);
    expect(calls).toBe(2);
    advance(1);
    await shared.read('a', probe);
    expect(calls).toBe(3);
  });

  it('lets a check that finds a probe in flight wait for its settled answer', async () => {
    const { shared } = rig();
    let calls = 0;
    let settle: (p: UpstreamProbe) => void = () => {};
    const first = shared.read('a', () => (calls++, new Promise<UpstreamProbe>((r) => (settle = r))));
    const second = shared.read('a', async () => (calls++, UP));
    settle({ kind: 'down', fault: 'timeout', ms: 3000 });
    expect(await first).toEqual({ kind: 'down', fault: 'timeout', ms: 3000 });
    expect(await second).toEqual({ kind: 'down', fault: 'timeout', ms: 3000 });
    expect(calls).toBe(1);
  });

  it('stops waiting for a probe lost in flight and asks itself', async () => {
    const { shared } = rig();
    let calls = 0;
    void shared.read('a', () => (calls++, new Promise<UpstreamProbe>(() => {}))); // never settles
    expect(await shared.read('a', async () => (calls++, UP))).toEqual(UP);
    expect(calls).toBe(2);
    expect(PROBE_WAIT.waitMs).toBeGreaterThan(3_000); // longer than the probe's own timeout
  });
});
