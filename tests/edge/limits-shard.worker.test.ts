/**
 * Issue 24, "One global limiter": the abuse limits' counts spread over many `LIMITS` Durable
 * Objects (one per key family and hash bucket, src/lib/security/limits-shard.ts), each key
 * still exact, and a request whose rules live in several objects still counted all or none
 * (functions/limits/index.ts hitLimits). The whole app in-process with the real `Limiter`
 * objects and the reference upstream on D1, default limits.
 *
 * Which objects were used is read twice: from the names the edge asked the namespace for (a
 * recording wrapper around `LIMITS`), and from the objects that exist and the rows each holds
 * (`listDurableObjectIds`, `runInDurableObject`). Date is faked and moved 10 hours per test,
 * so no test sees another's counts.
 */
import { listDurableObjectIds, runInDurableObject } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { app, BASE, testEnv, TIGHT_PER_ADDRESS } from './api-lookup.helpers';
import type { AppEnv } from '../../functions/env';
import { hitLimits } from '../../functions/limits';
import type { Limiter } from '../../functions/limits/limiter';
import { LIMIT_SHARDS, limiterName, shardBucket } from '../../src/lib/security/limits-shard';
import type { LimitRule } from '../../src/lib/security/limits';

const HOUR = 3_600_000;
let clock = Date.now() + 2000 * HOUR;
beforeEach(() => {
  clock += 10 * HOUR;
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(clock);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** `LIMITS` with every name the edge asks for (and its options) written down. */
function recording(): { env: AppEnv; asked: { name: string; hint: string | undefined }[] } {
  const asked: { name: string; hint: string | undefined }[] = [];
  const real = testEnv.LIMITS;
  const LIMITS = {
    getByName: (name: string, opts?: DurableObjectNamespaceGetDurableObjectOptions) => {
      asked.push({ name, hint: opts?.locationHint });
      return real.getByName(name, opts);
    },
  } as unknown as AppEnv['LIMITS'];
  return { env: { ...testEnv, LIMITS }, asked };
}

let seq = 0;
const freshTag = () => `s${++seq}x${Math.floor(clock / 1000)}`;

/** A code send to an e-mail on the seeded expo 2002, from a client address. */
async function send(env: AppEnv, ip: string, email: string): Promise<boolean> {
  const res = await app.request(
    `${BASE}/api/send-code`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'cf-connecting-ip': ip },
      body: JSON.stringify({ expoId: '2002', urlId: '22002', ty: 'visitor', variant: '', f: '', checkType: '2', email }),
    },
    env,
  );
  const body = (await res.json()) as { code: number };
  return res.status === 200 && body.code === 200;
}

/** The keys each existing limiter object holds hits of, by object id, among keys starting with `prefix`. */
async function keysByObject(prefix: string): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const id of await listDurableObjectIds(testEnv.LIMITS)) {
    const keys = await runInDurableObject(testEnv.LIMITS.get(id), (_: Limiter, state: DurableObjectState) =>
      state.storage.sql
        .exec<{ key: string }>("SELECT DISTINCT key FROM hits WHERE substr(key, 1, length(?)) = ?", prefix, prefix)
        .toArray()
        .map((r) => r.key),
    );
    if (keys.length > 0) out.set(id.toString(), keys);
  }
  return out;
}

const idOf = (name: string) => testEnv.LIMITS.idFromName(name).toString();

describe('many keys at once spread over many limiter objects', () => {
  it('200 visitors sending codes at once, each from its own address: all pass, their counts land in many objects, each key in its own', async () => {
    const { env, asked } = recording();
    const tag = freshTag();
    const n = 200;
    // 198.18.0.0/15 (benchmarking): a /24 of its own per test run.
    const net = `198.18.${seq}`;
    const ips = Array.from({ length: n }, (_, i) => `${net}.${i + 1}`);
    const results = await Promise.all(ips.map((ip, i) => send(env, ip, `${tag}-${i}@shard.test`)));
    expect(results.filter(Boolean)).toHaveLength(n);

    // The names the edge asked for: the address keys' objects, many of them.
    const ipObjects = new Set(ips.map((ip) => limiterName(`send:ip:${ip}`)));
    expect(ipObjects.size).toBeGreaterThanOrEqual(LIMIT_SHARDS - 2);
    const askedNames = new Set(asked.map((a) => a.name));
    for (const name of ipObjects) expect(askedNames).toContain(name);
    // …each created with the default location hint.
    expect(new Set(asked.map((a) => a.hint))).toEqual(new Set(['apac']));

    // The objects themselves: every address key lives in exactly the object its name picks.
    const held = await keysByObject(`send:ip:${net}.`);
    expect(held.size).toBe(ipObjects.size);
    const seen = new Map<string, string>();
    for (const [id, keys] of held) {
      for (const key of keys) {
        expect(seen.has(key), `${key} in two objects`).toBe(false);
        seen.set(key, id);
        expect(id, key).toBe(idOf(limiterName(key)));
      }
      // No object carries more than a fraction of the visitors (an even share is 200 / 16 = 12.5).
      expect(keys.length).toBeLessThan(n / 4);
    }
    expect(seen.size).toBe(n);
    expect(held.has(idOf('global'))).toBe(false);
  }, 120_000);

  it('200 clients hitting their own keys directly: each key counted once in its object, the objects many', async () => {
    const tag = freshTag();
    const keys = Array.from({ length: 200 }, (_, i) => `lookup:ip:${tag}:${i}`);
    const now = Date.now();
    const results = await Promise.all(keys.map((key) => hitLimits(testEnv, [{ key, limit: 1, windowMs: HOUR, reason: 'network' }], now)));
    expect(results.every((r) => r.ok)).toBe(true);
    const held = await keysByObject(`lookup:ip:${tag}:`);
    const buckets = new Set(keys.map((k) => shardBucket(k)));
    expect(held.size).toBe(buckets.size);
    expect(held.size).toBeGreaterThanOrEqual(LIMIT_SHARDS - 2);
    // A second hit of every key is refused: one object saw each key's first.
    const again = await Promise.all(keys.map((key) => hitLimits(testEnv, [{ key, limit: 1, windowMs: HOUR, reason: 'network' }], now)));
    expect(again.filter((r) => r.ok)).toHaveLength(0);
  }, 60_000);
});

describe('each key stays exact', () => {
  it('60 hits at once on one key with limit 7 admit exactly 7, whatever other keys ride along', async () => {
    const tag = freshTag();
    const key = `seat:expo:${tag}`;
    const now = Date.now();
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        hitLimits(
          testEnv,
          [
            { key: `seat:ip:${tag}:${i}`, limit: 30, windowMs: 60_000, reason: 'network' },
            { key, limit: 7, windowMs: 60_000, reason: 'network' },
          ],
          now,
        ),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(7);
    // The refused requests gave their per-address hits back: each address has its whole budget.
    const held = await runInDurableObject(testEnv.LIMITS.getByName(limiterName(key)), (_: Limiter, state: DurableObjectState) =>
      state.storage.sql.exec<{ n: number }>('SELECT count(*) AS n FROM hits WHERE key = ?', key).one().n,
    );
    expect(held).toBe(7);
    const perAddress = await Promise.all(
      Array.from({ length: 60 }, (_, i) => {
        const k = `seat:ip:${tag}:${i}`;
        return runInDurableObject(testEnv.LIMITS.getByName(limiterName(k)), (_: Limiter, state: DurableObjectState) =>
          state.storage.sql.exec<{ n: number }>('SELECT count(*) AS n FROM hits WHERE key = ?', k).one().n,
        );
      }),
    );
    expect(perAddress.reduce((a, b) => a + b, 0)).toBe(7);
  }, 60_000);

  it('40 sends at once from one address, to 40 contacts: exactly the cap go out (LIMIT_SENDS_PER_IP_MIN set to 5)', async () => {
    const tag = freshTag();
    const env = { ...testEnv, ...TIGHT_PER_ADDRESS };
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => send(env, '198.19.7.7', `${tag}-${i}@shard.test`)));
    expect(results.filter(Boolean)).toHaveLength(5);
  }, 60_000);
});

/** Two keys of one family in different objects. */
function twoObjects(family: string, tag: string): [string, string] {
  const a = `${family}:a:${tag}`;
  for (let i = 0; ; i++) {
    const b = `${family}:b:${tag}:${i}`;
    if (limiterName(b) !== limiterName(a)) return [a, b];
  }
}

describe('a request whose rules live in several objects is counted all or none', () => {
  const rule = (key: string, limit: number, more: Partial<LimitRule> = {}): LimitRule => ({ key, limit, windowMs: HOUR, reason: 'destination', ...more });

  it('a refusal by a later object gives back the hit an earlier one counted', async () => {
    const [a, b] = twoObjects('send', freshTag());
    const now = Date.now();
    expect((await hitLimits(testEnv, [rule(b, 1)], now)).ok).toBe(true);
    const r = await hitLimits(testEnv, [rule(a, 2), rule(b, 1)], now);
    expect(r).toMatchObject({ ok: false, key: b, friction: false });
    // a's two places are both still free.
    expect((await hitLimits(testEnv, [rule(a, 2)], now)).ok).toBe(true);
    expect((await hitLimits(testEnv, [rule(a, 2)], now)).ok).toBe(true);
    expect((await hitLimits(testEnv, [rule(a, 2)], now)).ok).toBe(false);
  });

  it('a hard refusal in an object not yet asked wins over a challenge from an earlier one', async () => {
    const [soft, hard] = twoObjects('send', freshTag());
    const now = Date.now();
    await hitLimits(testEnv, [rule(soft, 1, { ceiling: 2 })], now);
    await hitLimits(testEnv, [rule(hard, 1)], now - 1000);
    const r = await hitLimits(testEnv, [rule(soft, 1, { ceiling: 2 }), rule(hard, 1)], now);
    expect(r).toMatchObject({ ok: false, key: hard, friction: false, retryAfterMs: HOUR - 1000 });
    // Only the shared budget full: a challenge, and a challenged sender passes it.
    const [soft2, free] = twoObjects('send', freshTag());
    await hitLimits(testEnv, [rule(soft2, 1, { ceiling: 2 })], now);
    expect(await hitLimits(testEnv, [rule(soft2, 1, { ceiling: 2 }), rule(free, 5)], now)).toMatchObject({ ok: false, friction: true });
    expect((await hitLimits(testEnv, [rule(soft2, 1, { ceiling: 2 }), rule(free, 5)], now, { challenged: true })).ok).toBe(true);
    // … up to the budget's ceiling, a hard refusal that says so.
    expect(await hitLimits(testEnv, [rule(soft2, 1, { ceiling: 2 }), rule(free, 5)], now, { challenged: true })).toMatchObject({ ok: false, friction: false, ceiling: true, key: soft2 });
  });

  it('a budget an earlier object brought to half is still told when a later object refuses', async () => {
    const [budget, full] = twoObjects('send', freshTag());
    const now = Date.now();
    await hitLimits(testEnv, [rule(full, 1)], now);
    await hitLimits(testEnv, [rule(budget, 4, { ceiling: 8, alert: true })], now);
    const r = await hitLimits(testEnv, [rule(budget, 4, { ceiling: 8, alert: true }), rule(full, 1)], now);
    expect(r.ok).toBe(false);
    expect(r.alerts?.map((x) => x.key)).toEqual([budget]);
  });

  it('an object that cannot be reached: the error, after the earlier hits are given back', async () => {
    const [a, b] = twoObjects('lookup', freshTag());
    const real = testEnv.LIMITS;
    const broken = {
      getByName: (name: string, opts?: DurableObjectNamespaceGetDurableObjectOptions) => {
        if (name === limiterName(b)) throw new Error('Durable Object is overloaded');
        return real.getByName(name, opts);
      },
    } as unknown as AppEnv['LIMITS'];
    const now = Date.now();
    await expect(hitLimits({ ...testEnv, LIMITS: broken }, [rule(a, 1), rule(b, 1)], now)).rejects.toThrow('overloaded');
    expect((await hitLimits(testEnv, [rule(a, 1)], now)).ok).toBe(true);
  });
});

describe('LIMITS_LOCATION_HINT', () => {
  it('chooses where objects are created; none asks without a hint', async () => {
    const tag = freshTag();
    for (const [value, hint] of [['weur', 'weur'], ['none', undefined]] as const) {
      const { env, asked } = recording();
      expect((await hitLimits({ ...env, LIMITS_LOCATION_HINT: value }, [{ key: `share:ip:${tag}:${value}`, limit: 1, windowMs: HOUR, reason: 'network' }], Date.now())).ok).toBe(true);
      expect(asked.map((a) => a.hint)).toEqual([hint]);
    }
  });
});
