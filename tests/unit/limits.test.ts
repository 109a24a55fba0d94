import { describe, expect, it, vi } from 'vitest';
import {
  clientKey,
  clientOfHeader,
  contactKey,
  parseNetworks,
  phoneDestination,
  seatRules,
  TRUSTED_FACTOR,
  type Client,
  DEFAULT_LIMITS,
  LIMIT_SPECS,
  limitMessage,
  lookupRules,
  parseLimits,
  registerRules,
  sendRules,
  UNKNOWN_CLIENT,
  wrongCodeKey,
  type Limits,
  type LimitVars,
} from '../../src/lib/security/limits';
import { MESSAGES } from '../../src/i18n/index';
import {
  bindingMatches,
  budgetAlert,
  challengeConfig,
  DEFAULT_WAIT_S,
  readBinding,
  readTicket,
  signBinding,
  signTicket,
  ticketFits,
  ticketWaitS,
  TURNSTILE_VERIFY_URL,
} from '../../src/lib/security/friction';
import { readFileSync } from 'node:fs';
import { RAISED_LIMITS } from '../../scripts/lib.mjs';

describe('defaults (README "Security" > "Abuse limits")', () => {
  it('are the documented ones', () => {
    expect(DEFAULT_LIMITS).toEqual({
      sendsPerIpMinute: 5,
      sendsPerIpHour: 20,
      sendsPerIp56Hour: 40,
      sendsPerIp48Hour: 100,
      sendsPerContactHour: 2,
      sendsPerBrowserHour: 1,
      sendsPerAreaHour: 100,
      sendsPerCountryHour: 300,
      sendsPerExpoHour: 1000,
      lookupsPerIpMinute: 30,
      lookupsPerIp56Minute: 60,
      lookupsPerIp48Minute: 120,
      wrongCodesPerIpHour: 20,
      seatLookupsPerIpMinute: 30,
      seatLookupsPerExpoMinute: 1200,
      registersPerContactHour: 20,
      registersPerIpHour: 60,
      ordersPerContactHour: 10,
      ordersPerIpHour: 30,
      discountTriesPerContactHour: 10,
      discountTriesPerIpHour: 30,
      shareSignaturesPerIpMinute: 30,
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
    // issue 19 item 7: `+tag` aliases and the trunk 0 are the same contact.
    [{ type: 'email' as const, email: 'a+x@example.com' }, 'a@example.com'],
    [{ type: 'email' as const, email: 'A+news+more@Example.com' }, 'a@example.com'],
    [{ type: 'email' as const, email: 'first.last+tag@gmail.com' }, 'firstlast@gmail.com'],
    [{ type: 'email' as const, email: '+only@example.com' }, '+only@example.com'],
    [{ type: 'phone' as const, areaCode: '+44', national: '07911 123456' }, '+447911123456'],
    [{ type: 'phone' as const, areaCode: '+44', national: '7911123456' }, '+447911123456'],
    [{ type: 'phone' as const, areaCode: '+4', national: '47911123456' }, '+447911123456'],
    [{ type: 'phone' as const, areaCode: '+447', national: '911123456' }, '+447911123456'],
    [{ type: 'phone' as const, areaCode: '+86', national: '013812345678' }, '+8613812345678'],
  ])('%j → %s', (contact, key) => {
    expect(contactKey(contact)).toBe(key);
  });

  it('a phone without a listed calling code keeps its typed digits (it is refused before any count)', () => {
    expect(contactKey({ type: 'phone', areaCode: '+999', national: '12345678' })).toBe('+99912345678');
  });
});

describe('phoneDestination (issue 19 item 7: the country of the whole number, libphonenumber-js)', () => {
  it.each([
    ['+44', '7911123456', '+44'],
    ['+4', '47911123456', '+44'],
    ['+447', '911123456', '+44'],
    ['+44', '07911123456', '+44'],
    ['+1', '2425551234', '+1242'], // the Bahamas: an entry of its own in the form's list
    ['+1', '2125551234', '+1'],
    ['+66', '812345678', '+66'],
    ['+86', '13812345678', '+86'],
    ['+852', '51234567', '+852'],
  ])('%s %s → %s', (areaCode, national, country) => {
    expect(phoneDestination(areaCode, national)?.country).toBe(country);
  });

  it.each([
    ['+999', '12345678'],
    ['+0', '12345678'],
    ['+44', '12'],
    ['', ''],
  ])('%s %s: no listed calling code → null', (areaCode, national) => {
    expect(phoneDestination(areaCode, national)).toBeNull();
  });
});

describe('clientOfHeader (issue 19 item 7: IPv6 /64, /56 and /48 each counted)', () => {
  it('an IPv6 address: its /64, /56 and /48', () => {
    expect(clientOfHeader('2001:db8:1:2ab:3:4:5:6')).toEqual({
      key: '2001:db8:1:2ab::/64',
      net56: '2001:db8:1:200::/56',
      net48: '2001:db8:1::/48',
      trusted: false,
    });
  });

  it('IPv4 and unreadable headers have no wider networks', () => {
    expect(clientOfHeader('203.0.113.7')).toEqual({ key: '203.0.113.7', net56: null, net48: null, trusted: false });
    expect(clientOfHeader('nope')).toEqual({ key: UNKNOWN_CLIENT, net56: null, net48: null, trusted: false });
  });

  it('two /64s of one /48 share the /48 (and a /56 when they share it)', () => {
    const a = clientOfHeader('2001:db8:7:1::1');
    const b = clientOfHeader('2001:db8:7:ff01::1');
    expect(a.key).not.toBe(b.key);
    expect(a.net56).not.toBe(b.net56);
    expect(a.net48).toBe(b.net48);
    expect(clientOfHeader('2001:db8:7:2::1').net56).toBe(a.net56);
  });
});

describe('trusted networks (TRUSTED_NETWORKS: the venue Wi-Fi)', () => {
  const nets = parseNetworks('198.51.100.0/24, 2001:db8:aa::/48 10.0.0.1/32');

  it('reads v4 and v6 CIDRs, separated by commas or blanks', () => {
    expect(nets).toHaveLength(3);
  });

  it.each([
    ['198.51.100.7', true],
    ['198.51.101.7', false],
    ['10.0.0.1', true],
    ['10.0.0.2', false],
    ['2001:db8:aa:5::1', true],
    ['2001:db8:ab::1', false],
    ['::ffff:198.51.100.9', true],
  ])('%s trusted: %s', (ip, trusted) => {
    expect(clientOfHeader(ip, nets).trusted).toBe(trusted);
  });

  it.each(['198.51.100.0', '198.51.100.0/33', '2001:db8::/129', 'wifi', '1.2.3.4/8/9', '::ffff:1.2.3.4x/24'])(
    'a bad entry (%s) is left out with a warning naming it',
    (bad) => {
      const warn = vi.fn();
      expect(parseNetworks(`${bad}, 192.0.2.0/24`, warn)).toHaveLength(1);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]?.[0]).toContain(bad);
    },
  );

  it('/0 trusts every address of its family', () => {
    expect(clientOfHeader('203.0.113.1', parseNetworks('0.0.0.0/0')).trusted).toBe(true);
    expect(clientOfHeader('2001:db8::1', parseNetworks('0.0.0.0/0')).trusted).toBe(false);
  });
});

describe('rules', () => {
  const phone = { type: 'phone' as const, areaCode: '66', national: '812345678' };
  const mail = { type: 'email' as const, email: 'A@b.test' };
  const v4: Client = clientOfHeader('203.0.113.7');
  const c: Client = { key: 'c', net56: null, net48: null, trusted: false };
  const H = 3_600_000;

  it('a phone send: per client (minute and hour, one key), contact (soft), expo + country (soft, alert), country (soft, alert), expo (soft, alert)', () => {
    expect(sendRules(DEFAULT_LIMITS, { client: v4, expoId: 1308, contact: phone, ownNonce: null })).toEqual([
      { key: 'send:ip:203.0.113.7', limit: 5, windowMs: 60_000 },
      { key: 'send:ip:203.0.113.7', limit: 20, windowMs: H },
      { key: 'send:contact:+66812345678', limit: 2, windowMs: H, soft: true },
      { key: 'send:area:1308:+66', limit: 100, windowMs: H, soft: true, alert: true },
      { key: 'send:country:+66', limit: 300, windowMs: H, soft: true, alert: true },
      { key: 'send:expo:1308', limit: 1000, windowMs: H, soft: true, alert: true },
    ]);
  });

  it('an IPv6 sender is counted per /64, /56 and /48, each a hard limit of its own', () => {
    const client = clientOfHeader('2001:db8:1:2::5');
    const ip = sendRules(DEFAULT_LIMITS, { client, expoId: 1, contact: mail, ownNonce: null }).filter((r) => r.key.startsWith('send:ip:'));
    expect(ip).toEqual([
      { key: 'send:ip:2001:db8:1:2::/64', limit: 5, windowMs: 60_000 },
      { key: 'send:ip:2001:db8:1:2::/64', limit: 20, windowMs: H },
      { key: 'send:ip:2001:db8:1:0::/56', limit: 40, windowMs: H },
      { key: 'send:ip:2001:db8:1::/48', limit: 100, windowMs: H },
    ]);
    const look = lookupRules(DEFAULT_LIMITS, { client, checksCode: false }).map((r) => `${r.key}/${r.limit}`);
    expect(look).toEqual(['lookup:ip:2001:db8:1:2::/64/30', 'lookup:ip:2001:db8:1:0::/56/60', 'lookup:ip:2001:db8:1::/48/120']);
  });

  it('+4, +44 and +447 are one country bucket (issue 19 item 7)', () => {
    const area = (areaCode: string, national: string) =>
      sendRules(DEFAULT_LIMITS, { client: c, expoId: 9, contact: { type: 'phone', areaCode, national }, ownNonce: null })
        .filter((r) => r.key.startsWith('send:area:') || r.key.startsWith('send:country:'))
        .map((r) => r.key);
    const want = ['send:area:9:+44', 'send:country:+44'];
    expect(area('+4', '47911123456')).toEqual(want);
    expect(area('+44', '7911123457')).toEqual(want);
    expect(area('+447', '911123458')).toEqual(want);
  });

  it('the browser a code went to counts its sends under its own nonce, not the strangers\' contact budget (issue 19 item 6)', () => {
    const keys = sendRules(DEFAULT_LIMITS, { client: c, expoId: 2, contact: mail, ownNonce: 'n1' }).map((r) => `${r.key}/${r.limit}${r.soft ? '/soft' : ''}`);
    expect(keys).toEqual(['send:ip:c/5', 'send:ip:c/20', 'send:own:n1/1', 'send:expo:2/1000/soft']);
  });

  it('a trusted network has its per-address limits raised; the shared budgets are not', () => {
    const trusted: Client = { ...v4, trusted: true };
    const rules = sendRules(DEFAULT_LIMITS, { client: trusted, expoId: 3, contact: mail, ownNonce: null });
    expect(rules.map((r) => r.limit)).toEqual([5 * TRUSTED_FACTOR, 20 * TRUSTED_FACTOR, 2, 1000]);
    expect(lookupRules(DEFAULT_LIMITS, { client: trusted, checksCode: true }).map((r) => r.limit)).toEqual([
      30 * TRUSTED_FACTOR,
      20 * TRUSTED_FACTOR,
    ]);
    expect(seatRules(DEFAULT_LIMITS, { client: trusted, expoId: 3 }).map((r) => r.limit)).toEqual([30 * TRUSTED_FACTOR, 1200]);
  });

  it('an e-mail send has no country count; contacts lose their +tag', () => {
    const keys = sendRules(DEFAULT_LIMITS, { client: clientOfHeader(null), expoId: 2002, contact: { type: 'email', email: 'A+z@b.test' }, ownNonce: null }).map((r) => r.key);
    expect(keys).toEqual(['send:ip:unknown', 'send:ip:unknown', 'send:contact:a@b.test', 'send:expo:2002']);
  });

  it('a limit of 0 has no rule', () => {
    const limits: Limits = { ...DEFAULT_LIMITS, sendsPerIpMinute: 0, sendsPerAreaHour: 0, sendsPerCountryHour: 0, wrongCodesPerIpHour: 0 };
    const keys = sendRules(limits, { client: c, expoId: 1, contact: phone, ownNonce: null }).map((r) => `${r.key}/${r.limit}`);
    expect(keys).toEqual(['send:ip:c/20', 'send:contact:+66812345678/2', 'send:expo:1/1000']);
    expect(lookupRules(limits, { client: c, checksCode: true })).toEqual([{ key: 'lookup:ip:c', limit: 30, windowMs: 60_000 }]);
  });

  it('a lookup with a code also takes a wrong-code slot; one without (bypass) does not', () => {
    expect(lookupRules(DEFAULT_LIMITS, { client: c, checksCode: true })).toEqual([
      { key: 'lookup:ip:c', limit: 30, windowMs: 60_000 },
      { key: wrongCodeKey('c'), limit: 20, windowMs: H },
    ]);
    expect(lookupRules(DEFAULT_LIMITS, { client: c, checksCode: false })).toHaveLength(1);
  });

  it('a registration is counted per verified contact (as a send counts it) and per client (issue 19 item 2)', () => {
    expect(registerRules(DEFAULT_LIMITS, { client: clientOfHeader('203.0.113.7'), contact: phone })).toEqual([
      { key: 'register:contact:+66812345678', limit: 20, windowMs: 3_600_000 },
      { key: 'register:ip:203.0.113.7', limit: 60, windowMs: 3_600_000 },
    ]);
    expect(registerRules(DEFAULT_LIMITS, { client: c, contact: mail }).map((r) => r.key)).toEqual([
      'register:contact:a@b.test',
      'register:ip:c',
    ]);
    // A trusted network (the venue's Wi-Fi) gets the raised per-address budget, the contact's stays.
    expect(registerRules(DEFAULT_LIMITS, { client: { ...c, trusted: true }, contact: mail }).map((r) => r.limit)).toEqual([20, 60 * TRUSTED_FACTOR]);
    expect(registerRules({ ...DEFAULT_LIMITS, registersPerContactHour: 0, registersPerIpHour: 0 }, { client: c, contact: mail })).toEqual([]);
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
      'limit.challengeWait',
    ] as const) {
      for (const messages of Object.values(MESSAGES)) expect(messages[key]).toContain('{{n}}');
    }
    for (const messages of Object.values(MESSAGES)) {
      for (const key of ['limit.busy', 'limit.challenge', 'limit.otherBrowser', 'limit.unknownCountry'] as const) {
        expect(messages[key], key).toBeTruthy();
        expect(messages[key]).not.toContain('{{');
      }
    }
  });
});

describe('friction (issue 19 items 5, 6): the binding cookie and the wait ticket', () => {
  const SECRET = 'unit-secret-0123456789abcdef';
  const T = 1_800_000_000_000;

  it('a binding reads back for its contact and expo only, until it expires (an hour)', async () => {
    const v = await signBinding({ c: 'a@b.test', e: 7, n: 'nonce1' }, SECRET, T);
    const b = await readBinding(v, SECRET, T + 1000);
    expect(b).toMatchObject({ c: 'a@b.test', e: 7, n: 'nonce1' });
    expect(bindingMatches(b, 'a@b.test', 7)).toBe(true);
    expect(bindingMatches(b, 'a@b.test', 8)).toBe(false);
    expect(bindingMatches(b, 'x@b.test', 7)).toBe(false);
    expect(bindingMatches(null, 'a@b.test', 7)).toBe(false);
    expect(await readBinding(v, SECRET, T + 3_600_000)).toBeNull();
  });

  it('a forged, re-signed or mixed-up value is no binding', async () => {
    const v = await signBinding({ c: 'a@b.test', e: 7, n: 'n' }, SECRET, T);
    expect(await readBinding(v, 'another-secret-0123456789', T)).toBeNull();
    const [body, sig] = v.split('.');
    const other = Buffer.from(JSON.stringify({ c: 'victim@b.test', e: 7, n: 'n', exp: 9e9 })).toString('base64url');
    expect(await readBinding(`${other}.${sig}`, SECRET, T)).toBeNull();
    expect(await readBinding(`${body}.${sig}.x`, SECRET, T)).toBeNull();
    expect(await readBinding('', SECRET, T)).toBeNull();
    // A wait ticket is never a binding, nor the reverse (the signature names its purpose).
    const t = await signTicket({ a: '1.2.3.4', c: 'a@b.test', e: 7, n: 'n' }, 0, SECRET, T);
    expect(await readBinding(t, SECRET, T)).toBeNull();
    expect(await readTicket(v, SECRET, T)).toBeNull();
  });

  it('a wait ticket fits its address, contact and expo only, and is redeemable after its wait', async () => {
    const v = await signTicket({ a: '1.2.3.4', c: 'a@b.test', e: 7, n: 'n' }, 20, SECRET, T);
    const t = await readTicket(v, SECRET, T);
    expect(ticketFits(t, { client: '1.2.3.4', contactKey: 'a@b.test', expoId: 7 })).toBe(true);
    expect(ticketFits(t, { client: '1.2.3.5', contactKey: 'a@b.test', expoId: 7 })).toBe(false);
    expect(ticketFits(t, { client: '1.2.3.4', contactKey: 'b@b.test', expoId: 7 })).toBe(false);
    expect(ticketFits(t, { client: '1.2.3.4', contactKey: 'a@b.test', expoId: 8 })).toBe(false);
    if (!t) throw new Error('no ticket');
    expect(ticketWaitS(t, T)).toBe(20);
    expect(ticketWaitS(t, T + 15_000)).toBe(5);
    expect(ticketWaitS(t, T + 20_000)).toBe(0);
    // Ten minutes to redeem it once it matured.
    expect(await readTicket(v, SECRET, T + 20_000 + 599_000)).not.toBeNull();
    expect(await readTicket(v, SECRET, T + 20_000 + 600_000)).toBeNull();
  });

  it('challengeConfig: Turnstile only with both key and secret; URLs and the wait overridable', () => {
    expect(challengeConfig({})).toMatchObject({ siteKey: null, secret: null, verifyUrl: TURNSTILE_VERIFY_URL, waitS: DEFAULT_WAIT_S });
    expect(challengeConfig({ TURNSTILE_SITE_KEY: 'k' }).siteKey).toBeNull();
    const cfg = challengeConfig({
      TURNSTILE_SITE_KEY: 'k',
      TURNSTILE_SECRET: 's',
      TURNSTILE_VERIFY_URL: 'http://127.0.0.1:8841/siteverify',
      CHALLENGE_WAIT_S: '5',
    });
    expect(cfg).toMatchObject({ siteKey: 'k', secret: 's', verifyUrl: 'http://127.0.0.1:8841/siteverify', waitS: 5 });
    for (const bad of ['0', '301', 'x', '-1', '1.5']) expect(challengeConfig({ CHALLENGE_WAIT_S: bad }).waitS).toBe(DEFAULT_WAIT_S);
    expect(challengeConfig({ TURNSTILE_VERIFY_URL: 'javascript:alert(1)' }).verifyUrl).toBe(TURNSTILE_VERIFY_URL);
  });

  it('the half-budget alert names the budget, its limit and window', () => {
    expect(budgetAlert({ key: 'send:expo:2002', limit: 1000, windowMs: 3_600_000 }, T)).toEqual({
      event: 'limits.halfBudget',
      key: 'send:expo:2002',
      limit: 1000,
      windowS: 3600,
      at: new Date(T).toISOString(),
    });
  });
});
