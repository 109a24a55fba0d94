/**
 * Sharding the abuse limits' counter (issue 24, "One global limiter"): which object a key lives
 * in, how a request's rules are grouped per object, which refusal wins, where objects are
 * created (src/lib/security/limits-shard.ts). The objects themselves: tests/edge/limits-shard.worker.test.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_LOCATION_HINT,
  groupRules,
  LIMIT_SHARDS,
  limiterName,
  limitFamily,
  LOCATION_HINTS,
  parseLocationHint,
  shardBucket,
  worstRefusal,
  type ShardRefusal,
} from '../../src/lib/security/limits-shard';
import {
  clientOfHeader,
  credentialMissRules,
  DEFAULT_LIMITS,
  lookupRules,
  purchaseRules,
  registerRules,
  seatRules,
  sendRules,
  shareRules,
  type LimitRule,
} from '../../src/lib/security/limits';

const v4 = clientOfHeader('203.0.113.7');
const v6 = clientOfHeader('2001:db8:1:2:3:4:5:6');
const mail = { type: 'email' as const, email: 'a@b.test' };
const phone = { type: 'phone' as const, areaCode: '66', national: '812345678' };

/** Every key a request of each kind is counted under, with its family. */
const familyOfRules: [string, LimitRule[]][] = [
  ['send', sendRules(DEFAULT_LIMITS, { client: v6, expoId: 2002, contact: phone, ownNonce: null, pass: null })],
  ['send', sendRules(DEFAULT_LIMITS, { client: v4, expoId: 2002, contact: mail, ownNonce: 'n1', pass: null })],
  ['lookup', lookupRules(DEFAULT_LIMITS, { client: v6, expoId: 2002, contact: mail, checksCode: false, browser: 'n1' }).slice(0, -1)],
  ['seat', seatRules(DEFAULT_LIMITS, { client: v4, expoId: 2002 })],
  ['share', shareRules(DEFAULT_LIMITS, { client: v4 })],
  ['register', registerRules(DEFAULT_LIMITS, { client: v4, contact: mail })],
  ['credential-miss', credentialMissRules(DEFAULT_LIMITS, { client: v6 })],
];

describe('the family of a key: its kind, the first segment', () => {
  it.each(familyOfRules)('%s rules', (family, rules) => {
    expect(rules.length).toBeGreaterThan(0);
    for (const r of rules) expect(limitFamily(r.key), r.key).toBe(family);
  });

  it('wrong codes, orders and discount tries are families of their own', () => {
    expect(lookupRules(DEFAULT_LIMITS, { client: v4, expoId: 2002, contact: mail, checksCode: true, browser: 'n1' }).map((r) => limitFamily(r.key))).toEqual(['lookup', 'wrong', 'wrong']);
    expect(lookupRules(DEFAULT_LIMITS, { client: v4, expoId: 1308, contact: mail, checksCode: false, browser: 'n1' }).map((r) => limitFamily(r.key))).toEqual(['lookup', 'bypass']);
    expect(sendRules(DEFAULT_LIMITS, { client: v4, expoId: 2002, contact: mail, ownNonce: null, pass: 'ticket' }).map((r) => limitFamily(r.key))).toContain('ticketed');
    const purchase = purchaseRules(DEFAULT_LIMITS, { client: v4, contact: '+66812345678', kind: 'order', triesCode: true });
    expect(purchase.map((r) => limitFamily(r.key))).toEqual(['order', 'order', 'discount', 'discount']);
    expect(limitFamily('ticket:203.0.113.7')).toBe('ticket');
  });

  it('a key without a tame first segment is family "other" (an object name never carries what a visitor typed)', () => {
    expect(limitFamily('')).toBe('other');
    expect(limitFamily('no-colon-here')).toBe('no-colon-here');
    expect(limitFamily('Send:ip:1')).toBe('other');
    expect(limitFamily('se nd:ip:1')).toBe('other');
    expect(limitFamily(`${'x'.repeat(40)}:1`)).toBe('other');
  });
});

describe('the bucket of a key', () => {
  it('is FNV-1a modulo LIMIT_SHARDS: pinned, since a changed hash moves every count', () => {
    // FNV-1a 32: "" → 0x811c9dc5, "a" → 0xe40c292c, "foobar" → 0xbf9cf968 (the published test vectors).
    expect(shardBucket('', 2 ** 31)).toBe(0x811c9dc5 % 2 ** 31);
    expect(shardBucket('a', 2 ** 31)).toBe(0xe40c292c % 2 ** 31);
    expect(shardBucket('foobar', 2 ** 31)).toBe(0xbf9cf968 % 2 ** 31);
    expect(LIMIT_SHARDS).toBe(16);
    expect(shardBucket('foobar')).toBe(0xbf9cf968 % 16);
  });

  it('is in range, and the same for the same key', () => {
    for (let n = 0; n < 500; n++) {
      const key = `lookup:ip:10.0.${n >> 8}.${n & 255}`;
      const b = shardBucket(key);
      expect(b).toBeGreaterThanOrEqual(0);
      expect(b).toBeLessThan(LIMIT_SHARDS);
      expect(shardBucket(key)).toBe(b);
    }
    expect(shardBucket('x', 0)).toBe(0);
  });

  it('spreads many clients evenly: every bucket used, none with more than twice its share', () => {
    const per = new Array<number>(LIMIT_SHARDS).fill(0);
    const n = 4096;
    for (let i = 0; i < n; i++) per[shardBucket(`send:ip:198.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)]! += 1;
    for (const count of per) {
      expect(count).toBeGreaterThan(n / LIMIT_SHARDS / 2);
      expect(count).toBeLessThan((n / LIMIT_SHARDS) * 2);
    }
  });

  it('names the object family:bucket', () => {
    expect(limiterName('seat:expo:2002')).toBe(`seat:${shardBucket('seat:expo:2002')}`);
    expect(limiterName('seat:expo:2002', 1)).toBe('seat:0');
  });
});

describe('grouping a request\'s rules by object', () => {
  const rule = (key: string, extra: Partial<LimitRule> = {}): LimitRule => ({ key, limit: 5, windowMs: 60_000, reason: 'network', ...extra });

  it('keeps every rule once, each in the object of its key, in the order of each object\'s first rule', () => {
    const rules = sendRules(DEFAULT_LIMITS, { client: v6, expoId: 2002, contact: phone, ownNonce: null, pass: null });
    const groups = groupRules(rules);
    expect(groups.flatMap((g) => g.rules).sort((a, b) => a.key.localeCompare(b.key) || a.windowMs - b.windowMs)).toEqual(
      [...rules].sort((a, b) => a.key.localeCompare(b.key) || a.windowMs - b.windowMs),
    );
    for (const g of groups) for (const r of g.rules) expect(limiterName(r.key)).toBe(g.name);
    expect(new Set(groups.map((g) => g.name)).size).toBe(groups.length);
    const firstIndex = groups.map((g) => rules.findIndex((r) => limiterName(r.key) === g.name));
    expect(firstIndex).toEqual([...firstIndex].sort((a, b) => a - b));
    // The address's own object is asked first: a flood from it stops there.
    expect(groups[0]!.name).toBe(limiterName(rules[0]!.key));
  });

  it('the per-minute and per-hour counts of one key go in one call', () => {
    const groups = groupRules([rule('send:ip:1', { windowMs: 60_000 }), rule('send:ip:1', { windowMs: 3_600_000 })]);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.rules.map((r) => r.windowMs)).toEqual([60_000, 3_600_000]);
  });

  it('two keys of one bucket share a call; keys of other buckets or families do not', () => {
    const base = 'send:ip:0';
    let twin = '';
    for (let i = 1; !twin; i++) if (shardBucket(`send:ip:${i}`) === shardBucket(base)) twin = `send:ip:${i}`;
    const other = `lookup:${base.slice('send:'.length)}`;
    const groups = groupRules([rule(base), rule(other), rule(twin)]);
    expect(groups.map((g) => [g.name, g.rules.map((r) => r.key)])).toEqual([
      [limiterName(base), [base, twin]],
      [limiterName(other), [other]],
    ]);
  });

  it('no rules, no objects', () => {
    expect(groupRules([])).toEqual([]);
  });
});

describe('which refusal a request gets when several objects refuse', () => {
  const r = (key: string, retryAfterMs: number, friction: boolean): ShardRefusal => ({ key, retryAfterMs, friction, reason: 'destination' });

  it('a hard refusal before a challenge, however short its wait', () => {
    expect(worstRefusal([r('send:expo:1', 3_000_000, true), r('seat:expo:1', 1_000, false)])).toEqual(r('seat:expo:1', 1_000, false));
  });

  it('the longest wait among refusals of one kind', () => {
    expect(worstRefusal([r('a', 5, false), r('b', 50, false), r('c', 500, true)])).toEqual(r('b', 50, false));
    expect(worstRefusal([r('a', 5, true), r('b', 50, true)])).toEqual(r('b', 50, true));
  });

  it('none', () => {
    expect(worstRefusal([])).toBeNull();
  });
});

describe('where new limiter objects are created (LIMITS_LOCATION_HINT)', () => {
  it('Asia-Pacific unless set: near most visitors', () => {
    expect(DEFAULT_LOCATION_HINT).toBe('apac');
    expect(parseLocationHint(undefined)).toBe('apac');
    expect(parseLocationHint('  ')).toBe('apac');
  });

  it('a hint of Cloudflare\'s list, or none', () => {
    for (const hint of LOCATION_HINTS) expect(parseLocationHint(hint)).toBe(hint);
    expect(parseLocationHint(' WEUR ')).toBe('weur');
    expect(parseLocationHint('none')).toBeNull();
  });

  it('anything else: the default, and a warning naming the variable', () => {
    const warn = vi.fn();
    expect(parseLocationHint('mars', warn)).toBe('apac');
    expect(warn).toHaveBeenCalledOnce();
    expect(String(warn.mock.calls[0]![0])).toMatch(/LIMITS_LOCATION_HINT="mars".*apac/);
  });
});

describe('docs/limits.md says how the counts are spread', () => {
  const configuration = readFileSync('docs/configuration.md', 'utf8');
  it('the shard count and the location hint variable', () => {
    expect(readFileSync('docs/limits.md', 'utf8')).toContain(`lookup:<0..${LIMIT_SHARDS - 1}>`);
    expect(configuration).toMatch(/\| `LIMITS_LOCATION_HINT` \| var \| `apac` \|/);
  });
});
