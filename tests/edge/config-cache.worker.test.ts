/**
 * The edge cache of the organiser's form config (issue 10): one `getCustomerId` per TTL and
 * location instead of one per view; failures never cached; a change shows after the TTL.
 */
import { env } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppEnv } from '../../functions/env';
import reference from '../../functions/reference';
import { upstreamFor } from '../../functions/upstream';
import { Path } from '../../src/lib/contract';
import { cachedConfig, ConfigMemo } from '../../functions/upstream/config-cache';
import type { FormConfig } from '../../src/lib/contract';
import type { UpstreamResult } from '../../src/lib/contract/result';
import { UNKNOWN_EXPO_TTL_S, UpstreamError } from '../../functions/upstream/errors';

const testEnv = env as unknown as AppEnv;

afterEach(() => vi.restoreAllMocks());

function countConfigCalls(): () => number {
  const spy = vi.spyOn(reference, 'fetch');
  return () => spy.mock.calls.filter((c) => new URL((c[0] as Request).url).pathname === `/custom${Path.getCustomerId}`).length;
}

const config = (title: string): UpstreamResult<FormConfig> => ({
  ok: true,
  code: 200,
  msg: 'success',
  data: { customerForm: [], customerUrls: null, customerWx: { formTitle: title } as FormConfig['customerWx'], expoInfo: null, activity: null },
});

describe('getCustomerId through upstreamFor (the reference in-process)', () => {
  it('20 views of one page within the TTL ask the organiser at most once', async () => {
    const calls = countConfigCalls();
    for (let i = 0; i < 20; i++) {
      const r = await upstreamFor(testEnv).getCustomerId({ expoId: 1308, fId: 21308, ty: 'visitor' });
      expect(r.ok).toBe(true);
    }
    expect(calls()).toBeLessThanOrEqual(1);
  });

  it('a refusal is not cached', async () => {
    const calls = countConfigCalls();
    for (let i = 0; i < 3; i++) expect((await upstreamFor(testEnv).getCustomerId({ expoId: 1308, fId: 99_999 })).ok).toBe(false);
    expect(calls()).toBe(3);
  });

  // issue 19 item 13: an attacker (or a dead link in a chat group) opens a dead expo id 20 times.
  it('20 views of an unknown expo cost one selectAESKey and no getCustomerId (the "no such expo" is remembered)', async () => {
    const spy = vi.spyOn(reference, 'fetch');
    const calls = (path: string) => spy.mock.calls.filter((c) => new URL((c[0] as Request).url).pathname === `/custom${path}`).length;
    const dead = 900_000 + Math.floor(Math.random() * 99_999);
    const view = () =>
      upstreamFor(testEnv)
        .getCustomerId({ expoId: dead, fId: 21308, ty: 'visitor' })
        .then(() => 'answered', (e: unknown) => (e instanceof UpstreamError ? `${e.kind}/${e.code}` : 'other'));
    // One view, then 19 at once: the storm after the first answer.
    const seen = [await view(), ...(await Promise.all(Array.from({ length: 19 }, view)))];
    expect(new Set(seen)).toEqual(new Set(['no-key/404']));
    expect(calls(Path.selectAESKey)).toBe(1);
    expect(calls(Path.getCustomerId)).toBe(0);
  });

  it('CONFIG_CACHE_TTL_S=0 turns the cache off', async () => {
    const calls = countConfigCalls();
    const off = { ...testEnv, CONFIG_CACHE_TTL_S: '0' };
    for (let i = 0; i < 3; i++) await upstreamFor(off).getCustomerId({ expoId: 1308, fId: 21308 });
    expect(calls()).toBe(3);
  });
});

describe('cachedConfig', () => {
  const open = () => caches.open(`test-${crypto.randomUUID()}`);

  // With and without the isolate memo: the memo never keeps a config past what the Cache API would.
  it.each([
    ['the Cache API alone', undefined],
    ['the isolate memo in front', new ConfigMemo()],
  ] as const)('fresh for the TTL, then stale-while-revalidate, then a change shows (%s)', async (_what, memo) => {
    let clock = 1_000_000;
    let version = 'v1';
    const load = vi.fn(async () => config(version));
    const pending: Promise<unknown>[] = [];
    const cacheP = open();
    const read = cachedConfig({ cache: () => cacheP, ttlS: 60, staleS: 600, scope: 's', now: () => clock, waitUntil: (p) => pending.push(p), memo });
    const title = async () => {
      const r = await read({ expoId: 1, fId: 2 }, load);
      return r.ok ? r.data.customerWx?.formTitle : null;
    };
    expect(await title()).toBe('v1');
    version = 'v2';
    clock += 59_000;
    expect(await title()).toBe('v1');
    expect(load).toHaveBeenCalledTimes(1);
    // Past the TTL: the stale copy at once, a refresh behind it…
    clock += 2_000;
    expect(await title()).toBe('v1');
    await Promise.all(pending);
    expect(load).toHaveBeenCalledTimes(2);
    // …and the change from then on.
    expect(await title()).toBe('v2');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('past TTL + stale, or without waitUntil, it fetches before answering', async () => {
    let clock = 0;
    let version = 'a';
    const load = vi.fn(async () => config(version));
    const cacheP = open();
    const read = cachedConfig({ cache: () => cacheP, ttlS: 10, staleS: 10, scope: 's', now: () => clock });
    await read({ expoId: 1, fId: 2 }, load);
    version = 'b';
    clock += 15_000;
    const r = await read({ expoId: 1, fId: 2 }, load);
    expect(r.ok && r.data.customerWx?.formTitle).toBe('b');
  });

  it('a fault or a refusal is never kept; a failed refresh keeps the stale copy', async () => {
    let clock = 0;
    const cacheP = open();
    const pending: Promise<unknown>[] = [];
    const read = cachedConfig({ cache: () => cacheP, ttlS: 10, staleS: 100, scope: 's', now: () => clock, waitUntil: (p) => pending.push(p) });
    await expect(read({ expoId: 1, fId: 2 }, () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    const refusal = await read({ expoId: 1, fId: 2 }, async () => ({ ok: false, kind: 'refused', code: 404, msg: 'no' }));
    expect(refusal.ok).toBe(false);
    const good = vi.fn(async () => config('kept'));
    expect((await read({ expoId: 1, fId: 2 }, good)).ok).toBe(true);
    expect(good).toHaveBeenCalledTimes(1);
    clock += 20_000;
    const r = await read({ expoId: 1, fId: 2 }, () => Promise.reject(new Error('down again')));
    expect(r.ok && r.data.customerWx?.formTitle).toBe('kept');
    await Promise.all(pending);
    const again = await read({ expoId: 1, fId: 2 }, () => Promise.reject(new Error('still down')));
    expect(again.ok && again.data.customerWx?.formTitle).toBe('kept');
  });

  it('an "unknown expo" answer is kept for its TTL in the Cache API (another isolate sees it); a timeout, a 5xx or another refusal never is', async () => {
    let clock = 0;
    const cacheP = open();
    const reader = () => cachedConfig({ cache: () => cacheP, ttlS: 60, staleS: 600, scope: 's', now: () => clock, memo: new ConfigMemo() });
    const unknown = vi.fn(async (): Promise<UpstreamResult<FormConfig>> => {
      throw new UpstreamError('no-key', 'selectAESKey refused (404)', { path: Path.selectAESKey, code: 404, msg: 'unknown expo 5' });
    });
    const first = reader();
    for (let i = 0; i < 20; i++) await expect(first({ expoId: 5, fId: 2 }, unknown)).rejects.toMatchObject({ kind: 'no-key', code: 404 });
    // A second isolate (its own memo) reads the kept answer from the Cache API.
    await expect(reader()({ expoId: 5, fId: 2 }, unknown)).rejects.toMatchObject({ kind: 'no-key', code: 404, msg: 'unknown expo 5' });
    expect(unknown).toHaveBeenCalledTimes(1);
    // After the unknown TTL the organiser is asked again (the expo may exist now).
    clock += UNKNOWN_EXPO_TTL_S * 1000;
    const now = vi.fn(async () => config('created'));
    const created = await first({ expoId: 5, fId: 2 }, now);
    expect(created.ok && created.data.customerWx?.formTitle).toBe('created');
    expect(now).toHaveBeenCalledTimes(1);
    // Faults and other refusals of selectAESKey: asked every time.
    for (const fault of [
      new UpstreamError('timeout', 'slow', { path: Path.selectAESKey }),
      new UpstreamError('http', '503', { path: Path.selectAESKey, status: 503 }),
      new UpstreamError('no-key', 'selectAESKey refused (500)', { path: Path.selectAESKey, code: 500, msg: 'busy' }),
    ]) {
      const failing = vi.fn(async (): Promise<UpstreamResult<FormConfig>> => {
        throw fault;
      });
      const read = reader();
      for (let i = 0; i < 3; i++) await expect(read({ expoId: 6, fId: 2 }, failing)).rejects.toBe(fault);
      expect(failing).toHaveBeenCalledTimes(3);
    }
  });

  it('keeps expos, urls, types and upstreams apart', async () => {
    const cacheP = open();
    const read = (scope: string) => cachedConfig({ cache: () => cacheP, ttlS: 60, staleS: 0, scope });
    await read('a')({ expoId: 1, fId: 2, ty: 'x' }, async () => config('a-1-2-x'));
    const other = vi.fn(async () => config('other'));
    for (const [scope, p] of [
      ['b', { expoId: 1, fId: 2, ty: 'x' }],
      ['a', { expoId: 3, fId: 2, ty: 'x' }],
      ['a', { expoId: 1, fId: 4, ty: 'x' }],
      ['a', { expoId: 1, fId: 2, ty: 'y' }],
    ] as const) {
      await read(scope)(p, other);
    }
    expect(other).toHaveBeenCalledTimes(4);
  });

  describe('the isolate memo in front of the Cache API', () => {
    /** A cache whose match() calls are counted. */
    async function countedCache(): Promise<{ cache: Cache; matches: () => number }> {
      const cache = await open();
      let n = 0;
      const match = cache.match.bind(cache);
      cache.match = (...args: Parameters<Cache['match']>) => {
        n++;
        return match(...args);
      };
      return { cache, matches: () => n };
    }

    it('a fresh config is answered from memory: 20 reads, one load, no Cache API read after the first', async () => {
      const { cache, matches } = await countedCache();
      const memo = new ConfigMemo();
      const load = vi.fn(async () => config('m'));
      const read = cachedConfig({ cache: async () => cache, ttlS: 60, staleS: 600, scope: 's', memo });
      for (let i = 0; i < 20; i++) {
        const r = await read({ expoId: 1, fId: 2 }, load);
        expect(r.ok && r.data.customerWx?.formTitle).toBe('m');
      }
      expect(load).toHaveBeenCalledTimes(1);
      expect(matches()).toBe(1);
      // A second reader (another request) with the same memo does not read the Cache API either.
      const other = cachedConfig({ cache: async () => cache, ttlS: 60, staleS: 600, scope: 's', memo });
      await other({ expoId: 1, fId: 2 }, load);
      expect(matches()).toBe(1);
      // Without the memo the Cache API is read every time.
      const plain = cachedConfig({ cache: async () => cache, ttlS: 60, staleS: 600, scope: 's' });
      await plain({ expoId: 1, fId: 2 }, load);
      await plain({ expoId: 1, fId: 2 }, load);
      expect(matches()).toBe(3);
    });

    it('a config read from the Cache API by another isolate is remembered only for what is left of its TTL', async () => {
      let clock = 0;
      const cacheP = open();
      // Isolate A loads and stores it at t=0.
      await cachedConfig({ cache: () => cacheP, ttlS: 10, staleS: 0, scope: 's', now: () => clock })({ expoId: 1, fId: 2 }, async () => config('a'));
      // Isolate B reads it at t=8 s (fresh), remembers it…
      clock = 8_000;
      const memo = new ConfigMemo();
      const load = vi.fn(async () => config('b'));
      const read = cachedConfig({ cache: () => cacheP, ttlS: 10, staleS: 0, scope: 's', now: () => clock, memo });
      expect((await read({ expoId: 1, fId: 2 }, load)).ok).toBe(true);
      expect(load).not.toHaveBeenCalled();
      // …and at t=11 s its memory has expired with the entry: it loads again.
      clock = 11_000;
      const r = await read({ expoId: 1, fId: 2 }, load);
      expect(r.ok && r.data.customerWx?.formTitle).toBe('b');
      expect(load).toHaveBeenCalledTimes(1);
    });

    it('answers copies: a caller changing its config does not change the next answer', async () => {
      const memo = new ConfigMemo();
      const cacheP = open();
      const read = cachedConfig({ cache: () => cacheP, ttlS: 60, staleS: 0, scope: 's', memo });
      const first = await read({ expoId: 1, fId: 2 }, async () => config('original'));
      if (first.ok && first.data.customerWx) first.data.customerWx.formTitle = 'changed by a caller';
      const second = await read({ expoId: 1, fId: 2 }, async () => config('not asked'));
      expect(second.ok && second.data.customerWx?.formTitle).toBe('original');
      if (second.ok && second.data.customerWx) second.data.customerWx.formTitle = 'changed again';
      const third = await read({ expoId: 1, fId: 2 }, async () => config('not asked'));
      expect(third.ok && third.data.customerWx?.formTitle).toBe('original');
    });

    it('a fault or a refusal is never remembered; the memo holds at most its size', async () => {
      const memo = new ConfigMemo(3);
      const cacheP = open();
      const read = cachedConfig({ cache: () => cacheP, ttlS: 60, staleS: 0, scope: 's', memo });
      await expect(read({ expoId: 1, fId: 2 }, () => Promise.reject(new Error('down')))).rejects.toThrow('down');
      await read({ expoId: 1, fId: 2 }, async () => ({ ok: false, kind: 'refused', code: 404, msg: 'no' }));
      expect(memo.size).toBe(0);
      for (let f = 1; f <= 5; f++) await read({ expoId: 1, fId: f }, async () => config(`f${f}`));
      expect(memo.size).toBe(3);
    });
  });
});
