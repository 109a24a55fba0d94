import { describe, expect, it, vi } from 'vitest';
import {
  clientKey,
  contactKey,
  DEFAULT_LIMITS,
  LIMIT_SPECS,
  limitMessage,
  lookupRules,
  parseLimits,
  sendRules,
  UNKNOWN_CLIENT,
  wrongCodeKey,
  type Limits,
  type LimitVars,
} from '../../src/lib/limits';
import { MESSAGES } from '../../src/i18n/index';
import { readFileSync } from 'node:fs';
import { RAISED_LIMITS } from '../../scripts/lib.mjs';

describe('defaults (README "Security" > "Abuse limits")', () => {
  it('are the documented ones', () => {
    expect(DEFAULT_LIMITS).toEqual({
      sendsPerIpMinute: 5,
      sendsPerIpHour: 20,
      sendsPerContactHour: 10,
      sendsPerAreaHour: 100,
      sendsPerExpoHour: 1000,
      lookupsPerIpMinute: 30,
      wrongCodesPerIpHour: 20,
      seatLookupsPerIpMinute: 30,
      seatLookupsPerExpoMinute: 1200,
      credentialMissesPerIpHour: 30,
    });
  });

  it('every variable is in the README table with its default, and in AppEnv', () => {
    const readme = readFileSync('README.md', 'utf8');
    const env = readFileSync('functions/env.ts', 'utf8');
    for (const spec of Object.values(LIMIT_SPECS)) {
      expect(readme, spec.name).toMatch(new RegExp(`\\| \`${spec.name}\` \\| ${spec.fallback} `));
      expect(env, spec.name).toContain(`${spec.name}?: string;`);
    }
  });
});

it('local runs (browser specs, bench) raise every limit, to values parseLimits accepts', () => {
  const warn = vi.fn();
  const raised = parseLimits(RAISED_LIMITS, warn);
  expect(Object.keys(RAISED_LIMITS).sort()).toEqual(
    Object.values(LIMIT_SPECS)
      .map((s) => s.name)
      .sort(),
  );
  expect(warn).not.toHaveBeenCalled();
  for (const n of Object.values(raised)) expect(n).toBeGreaterThanOrEqual(10_000);
});

describe('parseLimits', () => {
  it('unset or empty: the defaults, without a warning', () => {
    const warn = vi.fn();
    expect(parseLimits({}, warn)).toEqual(DEFAULT_LIMITS);
    expect(parseLimits({ LIMIT_SENDS_PER_IP_MIN: '', LIMIT_SENDS_PER_IP_HOUR: '  ' }, warn)).toEqual(DEFAULT_LIMITS);
    expect(warn).not.toHaveBeenCalled();
  });

  it('reads each variable into its limit', () => {
    const vars = Object.fromEntries(Object.values(LIMIT_SPECS).map((s, i) => [s.name, String(i + 2)]));
    const limits = parseLimits(vars);
    expect(Object.values(limits)).toEqual(Object.keys(LIMIT_SPECS).map((_, i) => i + 2));
  });

  it('accepts 0 (off), blanks around, and up to a million', () => {
    expect(parseLimits({ LIMIT_SENDS_PER_IP_MIN: '0' }).sendsPerIpMinute).toBe(0);
    expect(parseLimits({ LIMIT_LOOKUPS_PER_IP_MIN: ' 90 ' }).lookupsPerIpMinute).toBe(90);
    expect(parseLimits({ LIMIT_SENDS_PER_EXPO_HOUR: '1000000' }).sendsPerExpoHour).toBe(1_000_000);
    // wrangler.toml `[vars]` may hold a number rather than a string.
    expect(parseLimits({ LIMIT_SENDS_PER_IP_MIN: 8 } as unknown as LimitVars).sendsPerIpMinute).toBe(8);
  });

  it.each(['ten', '-1', '1.5', '1e3', '0x10', '1000001', '5 a minute', 'Infinity'])(
    'a bad value (%s) falls back to the default with a warning naming the variable',
    (bad) => {
      const warn = vi.fn();
      const limits = parseLimits({ LIMIT_SENDS_PER_IP_HOUR: bad, LIMIT_SENDS_PER_IP_MIN: '7' }, warn);
      expect(limits.sendsPerIpHour).toBe(20);
      expect(limits.sendsPerIpMinute).toBe(7);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]?.[0]).toContain(`LIMIT_SENDS_PER_IP_HOUR="${bad}"`);
      expect(warn.mock.calls[0]?.[0]).toContain('default 20');
      expect(warn.mock.calls[0]?.[0]).toContain('per hour');
    },
  );
});

describe('clientKey (CF-Connecting-IP)', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    [' 203.0.113.7 ', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff::', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::ffff:198.51.100.4', '198.51.100.4'],
    ['64:ff9b::198.51.100.4', '64:ff9b:0:0::/64'],
    ['1:2:3:4:5:6:1.2.3.4', '1:2:3:4::/64'],
  ])('%s → %s', (header, key) => {
    expect(clientKey(header)).toBe(key);
  });

  it.each([
    null,
    undefined,
    '',
    'unknown',
    '256.1.1.1',
    '1.2.3',
    '01.2.3.4',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    '12345::',
    'fe80::1%eth0',
    '::ffff:999.1.1.1',
  ])('missing or unreadable (%s): the shared bucket', (header) => {
    expect(clientKey(header)).toBe(UNKNOWN_CLIENT);
  });
});

describe('contactKey (the per-contact limit spans every expo)', () => {
  it.each([
    [{ type: 'email' as const, email: ' Visitor@Example.COM ' }, 'visitor@example.com'],
    [{ type: 'email' as const, email: 'first.last@gmail.com' }, 'firstlast@gmail.com'],
    [{ type: 'email' as const, email: 'First.Last@googlemail.com' }, 'firstlast@gmail.com'],
    [{ type: 'email' as const, email: 'first.last@example.com' }, 'first.last@example.com'],
    [{ type: 'phone' as const, areaCode: '+66', national: '812345678' }, '+66812345678'],
    [{ type: 'phone' as const, areaCode: '66', national: '81 234-5678' }, '+66812345678'],
    [{ type: 'phone' as const, areaCode: '+86', national: '13812345678' }, '+8613812345678'],
  ])('%j → %s', (contact, key) => {
    expect(contactKey(contact)).toBe(key);
  });
});

describe('rules', () => {
  const phone = { type: 'phone' as const, areaCode: '66', national: '812345678' };
  const mail = { type: 'email' as const, email: 'A@b.test' };

  it('a phone send is counted per client (minute and hour, one key), contact, expo + area code, expo', () => {
    expect(sendRules(DEFAULT_LIMITS, { client: '203.0.113.7', expoId: 1308, contact: phone })).toEqual([
      { key: 'send:ip:203.0.113.7', limit: 5, windowMs: 60_000 },
      { key: 'send:ip:203.0.113.7', limit: 20, windowMs: 3_600_000 },
      { key: 'send:contact:+66812345678', limit: 10, windowMs: 3_600_000 },
      { key: 'send:area:1308:+66', limit: 100, windowMs: 3_600_000 },
      { key: 'send:expo:1308', limit: 1000, windowMs: 3_600_000 },
    ]);
  });

  it('an e-mail send has no area-code count', () => {
    const keys = sendRules(DEFAULT_LIMITS, { client: 'unknown', expoId: 2002, contact: mail }).map((r) => r.key);
    expect(keys).toEqual(['send:ip:unknown', 'send:ip:unknown', 'send:contact:a@b.test', 'send:expo:2002']);
  });

  it('a limit of 0 has no rule', () => {
    const limits: Limits = { ...DEFAULT_LIMITS, sendsPerIpMinute: 0, sendsPerAreaHour: 0, wrongCodesPerIpHour: 0 };
    const keys = sendRules(limits, { client: 'c', expoId: 1, contact: phone }).map((r) => `${r.key}/${r.limit}`);
    expect(keys).toEqual(['send:ip:c/20', 'send:contact:+66812345678/10', 'send:expo:1/1000']);
    expect(lookupRules(limits, { client: 'c', checksCode: true })).toEqual([
      { key: 'lookup:ip:c', limit: 30, windowMs: 60_000 },
    ]);
  });

  it('a lookup with a code also takes a wrong-code slot; one without (bypass) does not', () => {
    expect(lookupRules(DEFAULT_LIMITS, { client: 'c', checksCode: true })).toEqual([
      { key: 'lookup:ip:c', limit: 30, windowMs: 60_000 },
      { key: wrongCodeKey('c'), limit: 20, windowMs: 3_600_000 },
    ]);
    expect(lookupRules(DEFAULT_LIMITS, { client: 'c', checksCode: false })).toHaveLength(1);
  });
});

describe('limitMessage', () => {
  it.each([
    ['send', 1, 'limit.sendSeconds', 1],
    ['send', 42_100, 'limit.sendSeconds', 43],
    ['send', 59_000, 'limit.sendSeconds', 59],
    ['send', 59_001, 'limit.sendMinutes', 1],
    ['send', 60_000, 'limit.sendMinutes', 1],
    ['send', 60_001, 'limit.sendMinutes', 2],
    ['lookup', 3_356_000, 'limit.lookupMinutes', 56],
    ['lookup', 3_600_000, 'limit.lookupMinutes', 60],
    ['lookup', 30_000, 'limit.lookupSeconds', 30],
  ] as const)('%s, %i ms → %s n=%i (rounded up: never too early)', (kind, ms, key, n) => {
    expect(limitMessage(kind, ms)).toEqual({ key, vars: { n } });
  });

  it('an unknown wait: the busy message', () => {
    expect(limitMessage('send', null).key).toBe('limit.busy');
    expect(limitMessage('lookup', Number.NaN).key).toBe('limit.busy');
  });

  it('every message key is in the catalogues, with the wait where it has one', () => {
    for (const key of [
      'limit.sendSeconds',
      'limit.sendMinutes',
      'limit.lookupSeconds',
      'limit.lookupMinutes',
    ] as const) {
      for (const messages of Object.values(MESSAGES)) expect(messages[key]).toContain('{{n}}');
    }
    for (const messages of Object.values(MESSAGES)) expect(messages['limit.busy']).not.toContain('{{');
  });
});
