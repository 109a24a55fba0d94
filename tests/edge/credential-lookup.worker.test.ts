/**
 * Issue 19 items 3 and 13 in workerd, as an attacker would run them: the credential lookup behind
 * the credential page and the Apple pass (functions/credential-lookup.ts), with the real `LIMITS`
 * Durable Object, the real Cache API and the seeded reference upstream, whose
 * `queryCustomerCode` calls are counted here. Each test counts under its own client address.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { credentialLookupFor, lookUpCredential, type CredentialLookup } from '../../functions/credential-lookup';
import type { AppEnv } from '../../functions/env';
import { upstreamFor, type Upstream } from '../../functions/upstream';
import { UnknownCodeMemo, unknownCodeCache } from '../../functions/upstream/unknown-code-cache';
import { CredentialViews } from '../../functions/upstream/credential-views';
import { clientOfHeader, DEFAULT_LIMITS } from '../../src/lib/security/limits';
import { TIGHT_PER_ADDRESS } from './api-lookup.helpers';

const testEnv = env as unknown as AppEnv;
// Seed: expo 1308's used credential (functions/reference/SEED.md).
const KNOWN = { expoId: 1308, euCode: 'IWHBZIMYEOZETLFI' };
/** The cap set low (its default sits above a crowd behind one address): the mechanics with a few requests. */
const LIMIT = Number(TIGHT_PER_ADDRESS.LIMIT_CREDENTIAL_MISSES_PER_IP_HOUR);
const tightEnv = { ...testEnv, ...TIGHT_PER_ADDRESS };

/** The reference upstream with its credential reads counted. */
function counted(base: Upstream = upstreamFor(testEnv)) {
  const calls: string[] = [];
  const upstream: Pick<Upstream, 'queryCustomerCode'> = {
    queryCustomerCode: (p) => {
      calls.push(p.euCode);
      return base.queryCustomerCode(p);
    },
  };
  return { calls, upstream };
}

const requestFrom = (ip: string) => new Request('https://expo.example/', { headers: { 'cf-connecting-ip': ip } });
let n = 0;
/** A code nobody registered, new on each call (the unknown-code memo lives as long as the isolate). */
const guess = () => `GUESS${String(++n).padStart(4, '0')}${Math.random().toString(36).slice(2, 8).toUpperCase()}`;

describe('credential misses per address (LIMIT_CREDENTIAL_MISSES_PER_IP_HOUR)', () => {
  it(`40 guesses at once from one address: the upstream is asked at most ${LIMIT} times, the rest are refused without it`, async () => {
    const { calls, upstream } = counted();
    const look = credentialLookupFor(tightEnv, requestFrom('198.51.100.40'), upstream, undefined, new CredentialViews());
    const results = await Promise.all(Array.from({ length: 40 }, () => look({ expoId: 1308, euCode: guess() })));
    const kinds = results.map((r) => r.kind);
    expect(calls.length).toBeLessThanOrEqual(LIMIT);
    expect(kinds.filter((k) => k === 'unknown')).toHaveLength(calls.length);
    expect(kinds.filter((k) => k === 'limited')).toHaveLength(40 - calls.length);
    expect(calls.length).toBe(LIMIT);
    const limited = results.find((r): r is Extract<CredentialLookup, { kind: 'limited' }> => r.kind === 'limited');
    expect(limited?.retryAfterS).toBeGreaterThan(3000);
    // over the limit, even a real code from that address waits (the upstream is not asked)
    expect((await look(KNOWN)).kind).toBe('limited');
    expect(calls.length).toBe(LIMIT);
    // another address keeps its own budget
    const other = counted();
    expect(await credentialLookupFor(tightEnv, requestFrom('198.51.100.41'), other.upstream, undefined, new CredentialViews())(KNOWN)).toMatchObject({ kind: 'found', record: { euCode: KNOWN.euCode } });
  });

  it('known codes give their slot back: 60 views of real credentials from one address are never refused', async () => {
    const { calls, upstream } = counted();
    // views not shared (TTL 0, issue 24's sharing tested in credential-views.worker.test.ts): every view reaches the limiter
    const look = credentialLookupFor(tightEnv, requestFrom('198.51.100.42'), upstream, undefined, new CredentialViews({ ttlMs: 0 }));
    for (let i = 0; i < 60; i++) expect((await look(KNOWN)).kind).toBe('found');
    expect(calls).toHaveLength(60);
    // and the budget is whole for misses afterwards
    const misses = [];
    for (let i = 0; i < LIMIT; i++) misses.push((await look({ expoId: 1308, euCode: guess() })).kind);
    expect(misses.every((k) => k === 'unknown')).toBe(true);
  });

  it('an upstream fault is not a miss: 40 failed views leave the budget whole', async () => {
    const failing: Pick<Upstream, 'queryCustomerCode'> = { queryCustomerCode: () => Promise.reject(new Error('upstream down')) };
    const look = credentialLookupFor(tightEnv, requestFrom('198.51.100.43'), failing, undefined, new CredentialViews());
    for (let i = 0; i < 40; i++) expect((await look({ expoId: 1308, euCode: guess() })).kind).toBe('failed');
    const { upstream } = counted();
    expect((await credentialLookupFor(tightEnv, requestFrom('198.51.100.43'), upstream, undefined, new CredentialViews())(KNOWN)).kind).toBe('found');
  });

  it('when the counter cannot be reached the visitor at the gate still gets the credential (logged)', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { upstream } = counted();
    const broken = { ...testEnv, LIMITS: { getByName: () => ({ hit: () => Promise.reject(new Error('overloaded')), release: () => Promise.resolve() }) } } as unknown as AppEnv;
    expect((await credentialLookupFor(broken, requestFrom('198.51.100.44'), upstream, undefined, new CredentialViews())(KNOWN)).kind).toBe('found');
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });
});

describe('unknown codes are remembered briefly (issue 19 item 13)', () => {
  it('a dead link opened 20 times costs one upstream call and one miss', async () => {
    const { calls, upstream } = counted();
    const dead = { expoId: 1308, euCode: guess() };
    const look = credentialLookupFor(tightEnv, requestFrom('198.51.100.50'), upstream, undefined, new CredentialViews());
    for (let i = 0; i < 20; i++) expect((await look(dead)).kind).toBe('unknown');
    expect(calls).toEqual([dead.euCode]);
    // another isolate (no memo) still finds it in the Cache API: a fresh lookup object, same answer, no call
    const again = counted();
    expect((await credentialLookupFor(tightEnv, requestFrom('198.51.100.51'), again.upstream, undefined, new CredentialViews())(dead)).kind).toBe('unknown');
    expect(again.calls).toEqual([]);
  });

  it('with UNKNOWN_CODE_CACHE_TTL_S=0 every view asks the upstream', async () => {
    const { calls, upstream } = counted();
    const dead = { expoId: 1308, euCode: guess() };
    const look = credentialLookupFor({ ...testEnv, UNKNOWN_CODE_CACHE_TTL_S: '0' } as AppEnv, requestFrom('198.51.100.52'), upstream, undefined, new CredentialViews());
    for (let i = 0; i < 5; i++) expect((await look(dead)).kind).toBe('unknown');
    expect(calls).toHaveLength(5);
  });

  it('a code registered after its link was opened shows once the TTL has passed, and not a moment later', async () => {
    let now = 1_000_000;
    let registered = false;
    const calls: string[] = [];
    const upstream: Pick<Upstream, 'queryCustomerCode'> = {
      queryCustomerCode: async (p) => {
        calls.push(p.euCode);
        return registered ? upstreamFor(testEnv).queryCustomerCode(KNOWN) : { ok: false, kind: 'refused', code: 404, msg: 'no registration' };
      },
    };
    const unknown = unknownCodeCache({ cache: null, ttlS: 60, scope: 'test', memo: new UnknownCodeMemo(), now: () => now });
    const deps = { upstream, counter: null, limits: DEFAULT_LIMITS, client: clientOfHeader(null), unknown, now: () => now };
    const code = { expoId: 1308, euCode: 'JUSTREGISTERED01' };
    expect((await lookUpCredential(deps, code)).kind).toBe('unknown');
    registered = true;
    now += 59_999;
    expect((await lookUpCredential(deps, code)).kind).toBe('unknown');
    expect(calls).toHaveLength(1);
    now += 1;
    expect((await lookUpCredential(deps, code)).kind).toBe('found');
    expect(calls).toHaveLength(2);
  });

  it('a fault is never remembered as unknown', async () => {
    let fail = true;
    const { upstream: real } = counted();
    const upstream: Pick<Upstream, 'queryCustomerCode'> = { queryCustomerCode: (p) => (fail ? Promise.reject(new Error('timeout')) : real.queryCustomerCode(p)) };
    const look = credentialLookupFor(tightEnv, requestFrom('198.51.100.53'), upstream, undefined, new CredentialViews());
    expect((await look(KNOWN)).kind).toBe('failed');
    fail = false;
    expect((await look(KNOWN)).kind).toBe('found');
  });
});
