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
  wrongCodeKeys,
  credentialMissRules,
  decideSend,
  MAX_TICKET_WAIT_S,
  purchaseRules,
  shareRules,
  ticketAccepted,
  ticketWait,
  type LimitRule,
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
  it('no per-address limit refuses a crowd behind one address: 100 visitors in a minute, 1,500 in an hour (issue 29)', () => {
    // What one visitor does at most, on average, in a show morning: one send, a lookup or two
    // (a third type a wrong code once), a registration or an order for some, seat lookups, a share card.
    const perVisitor = { send: 1, lookup: 2, wrong: 0.35, register: 0.5, order: 0.3, discount: 0.2, seat: 1, share: 1, miss: 0.05 };
    const client = clientOfHeader('203.0.113.7');
    const mail = { type: 'email' as const, email: 'x@y.test' };
    const rules: [keyof typeof perVisitor, { reason: string; limit: number; windowMs: number }[]][] = [
      ['send', sendRules(DEFAULT_LIMITS, { client, expoId: 1, contact: mail, ownNonce: null, pass: null })],
      ['lookup', lookupRules(DEFAULT_LIMITS, { client, expoId: 1, contact: mail, checksCode: false, browser: 'n1' }).filter((r) => r.key.startsWith('lookup:'))],
      ['wrong', lookupRules(DEFAULT_LIMITS, { client, expoId: 1, contact: mail, checksCode: true, browser: 'n1' }).filter((r) => r.key.startsWith('wrong:ip:'))],
      ['register', registerRules(DEFAULT_LIMITS, { client, contact: mail })],
      ['order', purchaseRules(DEFAULT_LIMITS, { client, contact: 'x@y.test', kind: 'order', triesCode: false })],
      ['discount', purchaseRules(DEFAULT_LIMITS, { client, contact: 'x@y.test', kind: 'discount', triesCode: true })],
      ['seat', seatRules(DEFAULT_LIMITS, { client, expoId: 1 })],
      ['share', shareRules(DEFAULT_LIMITS, { client })],
      ['miss', credentialMissRules(DEFAULT_LIMITS, { client })],
    ];
    let checked = 0;
    for (const [kind, rs] of rules) {
      for (const r of rs.filter((x) => x.reason === 'network')) {
        const crowd = r.windowMs <= 60_000 ? 100 : 1500;
        expect(r.limit, `${kind} per ${r.windowMs / 1000} s`).toBeGreaterThanOrEqual(Math.ceil(crowd * perVisitor[kind]));
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(10);
  });

  it('every variable is in docs/limits.md with its default, and in AppEnv', () => {
    const readme = readFileSync('docs/limits.md', 'utf8');
    const env = readFileSync('functions/env.ts', 'utf8');
    for (const spec of Object.values(LIMIT_SPECS)) {
      expect(readme, spec.name).toMatch(new RegExp(`\\| \`${spec.name}\` \\| ${spec.fallback} `));
      expect(env, spec.name).toContain(`${spec.name}?: string;`);
    }
  });
});

it('the bench raises every limit (all its visitors are 127.0.0.1 and one contact), to values parseLimits accepts', () => {
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
      expect(limits.sendsPerIpHour).toBe(LIMIT_SPECS.sendsPerIpHour.fallback);
      expect(limits.sendsPerIpMinute).toBe(7);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]?.[0]).toContain(`LIMIT_SENDS_PER_IP_HOUR="${bad}"`);
      expect(warn.mock.calls[0]?.[0]).toContain(`default ${LIMIT_SPECS.sendsPerIpHour.fallback}`);
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
  const L = DEFAULT_LIMITS;
  const short = (r: LimitRule) => `${r.key}/${r.limit}${r.ceiling ? `<${r.ceiling}` : ''}${r.unverified ? '/unverified' : ''}`;

  it('a phone send: per address (hard), per contact from this address (hard), then the shared budgets of unverified sends, each with a ceiling of twice', () => {
    expect(sendRules(L, { client: v4, expoId: 1308, contact: phone, ownNonce: null, pass: null }).map(short)).toEqual([
      `send:ip:203.0.113.7/${L.sendsPerIpMinute}`,
      `send:ip:203.0.113.7/${L.sendsPerIpHour}`,
      `send:contact-ip:+66812345678:203.0.113.7/${L.sendsPerContactIpHour}/unverified`,
      `send:contact:+66812345678/${L.sendsPerContactHour}<${2 * L.sendsPerContactHour}/unverified`,
      `send:range:+66 8123/${L.sendsPerRangeHour}<${2 * L.sendsPerRangeHour}/unverified`,
      `send:area:1308:+66/${L.sendsPerAreaHour}<${2 * L.sendsPerAreaHour}/unverified`,
      `send:country:+66/${L.sendsPerCountryHour}<${2 * L.sendsPerCountryHour}/unverified`,
      `send:expo:1308/${L.sendsPerExpoHour}<${2 * L.sendsPerExpoHour}/unverified`,
    ]);
    const rules = sendRules(L, { client: v4, expoId: 1308, contact: phone, ownNonce: null, pass: null });
    expect(rules.filter((r) => r.reason === 'network').every((r) => r.key.startsWith('send:ip:'))).toBe(true);
    expect(rules.filter((r) => r.alert).map((r) => r.key)).toEqual(['send:range:+66 8123', 'send:area:1308:+66', 'send:country:+66', 'send:expo:1308']);
  });

  it('a sender who passed with a wait ticket is also counted under each destination budget\'s ticket share (a tenth, at least one), not the contact\'s', () => {
    const rules = sendRules(L, { client: c, expoId: 2, contact: phone, ownNonce: null, pass: 'ticket' });
    expect(rules.filter((r) => r.key.startsWith('ticketed:')).map(short)).toEqual([
      `ticketed:send:range:+66 8123/${L.sendsPerRangeHour / 10}`,
      `ticketed:send:area:2:+66/${L.sendsPerAreaHour / 10}`,
      `ticketed:send:country:+66/${L.sendsPerCountryHour / 10}`,
      `ticketed:send:expo:2/${L.sendsPerExpoHour / 10}`,
    ]);
    expect(sendRules({ ...L, sendsPerExpoHour: 5 }, { client: c, expoId: 2, contact: mail, ownNonce: null, pass: 'ticket' }).filter((r) => r.key.startsWith('ticketed:')).map(short)).toEqual(['ticketed:send:expo:2/1']);
    expect(sendRules(L, { client: c, expoId: 2, contact: mail, ownNonce: null, pass: 'turnstile' }).some((r) => r.key.startsWith('ticketed:'))).toBe(false);
  });

  it('an IPv6 sender is counted per /64, /56 and /48, each a hard limit of its own', () => {
    const client = clientOfHeader('2001:db8:1:2::5');
    const ip = sendRules(L, { client, expoId: 1, contact: mail, ownNonce: null, pass: null }).filter((r) => r.key.startsWith('send:ip:'));
    expect(ip.map((r) => r.key)).toEqual(['send:ip:2001:db8:1:2::/64', 'send:ip:2001:db8:1:2::/64', 'send:ip:2001:db8:1:0::/56', 'send:ip:2001:db8:1::/48']);
    const look = lookupRules(L, { client, expoId: 1, contact: mail, checksCode: true, browser: 'n1' }).map((r) => r.key);
    expect(look).toEqual(['lookup:ip:2001:db8:1:2::/64', 'lookup:ip:2001:db8:1:0::/56', 'lookup:ip:2001:db8:1::/48', ...wrongCodeKeys('2001:db8:1:2::/64', 'a@b.test', 'n1')]);
  });

  it('+4, +44 and +447 are one country bucket and one range (issue 19 item 7)', () => {
    const area = (areaCode: string, national: string) =>
      sendRules(L, { client: c, expoId: 9, contact: { type: 'phone', areaCode, national }, ownNonce: null, pass: null })
        .filter((r) => /^send:(area|country|range):/.test(r.key))
        .map((r) => r.key);
    const want = ['send:range:+44 7911', 'send:area:9:+44', 'send:country:+44'];
    expect(area('+4', '47911123456')).toEqual(want);
    expect(area('+44', '7911123457')).toEqual(want);
    expect(area('+447', '911123458')).toEqual(want);
  });

  it('the browser a code went to counts its sends under its own nonce, not the strangers\' contact budget (issue 19 item 6)', () => {
    const keys = sendRules(L, { client: c, expoId: 2, contact: mail, ownNonce: 'n1', pass: null }).map(short);
    expect(keys).toContain(`send:own:n1/${L.sendsPerBrowserHour}/unverified`);
    expect(keys.some((k) => k.startsWith('send:contact:'))).toBe(false);
    // one address's sends to a contact are capped whichever browser: a contact keeps sends for its own browser elsewhere.
    expect(keys).toContain(`send:contact-ip:a@b.test:c/${L.sendsPerContactIpHour}/unverified`);
  });

  it('a trusted network has its per-address limits raised; the contact and shared budgets are not', () => {
    const trusted: Client = { ...v4, trusted: true };
    const rules = sendRules(L, { client: trusted, expoId: 3, contact: mail, ownNonce: null, pass: null });
    expect(rules.map((r) => r.limit)).toEqual([L.sendsPerIpMinute * TRUSTED_FACTOR, L.sendsPerIpHour * TRUSTED_FACTOR, L.sendsPerContactIpHour, L.sendsPerContactHour, L.sendsPerExpoHour]);
    expect(seatRules(L, { client: trusted, expoId: 3 }).map((r) => r.limit)).toEqual([L.seatLookupsPerIpMinute * TRUSTED_FACTOR, L.seatLookupsPerExpoMinute]);
  });

  it('an e-mail send has no country count; contacts lose their +tag', () => {
    const keys = sendRules(L, { client: clientOfHeader(null), expoId: 2002, contact: { type: 'email', email: 'A+z@b.test' }, ownNonce: null, pass: null }).map((r) => r.key);
    expect(keys).toEqual(['send:ip:unknown', 'send:ip:unknown', 'send:contact-ip:a@b.test:unknown', 'send:contact:a@b.test', 'send:expo:2002']);
  });

  it('a limit of 0 has no rule', () => {
    const limits: Limits = { ...L, sendsPerIpMinute: 0, sendsPerAreaHour: 0, sendsPerCountryHour: 0, sendsPerRangeHour: 0, wrongCodesPerIpHour: 0, wrongCodesPerContactHour: 0 };
    const keys = sendRules(limits, { client: c, expoId: 1, contact: phone, ownNonce: null, pass: null }).map((r) => r.key);
    expect(keys).toEqual(['send:ip:c', 'send:contact-ip:+66812345678:c', 'send:contact:+66812345678', 'send:expo:1']);
    expect(lookupRules(limits, { client: c, expoId: 1, contact: phone, checksCode: true, browser: 'n1' }).map((r) => r.key)).toEqual(['lookup:ip:c']);
  });

  it('a lookup with a code takes a wrong-code slot of its address and of its contact in this browser; the bypass counts per e-mail and expo', () => {
    expect(lookupRules(L, { client: c, expoId: 1308, contact: mail, checksCode: true, browser: 'n1' }).map((r) => `${r.key}/${r.reason}`)).toEqual([
      'lookup:ip:c/network',
      'wrong:ip:c/network',
      'wrong:contact:a@b.test:n1/contact',
    ]);
    // another browser the contact's code went to (an attacker who had one sent to itself) has tries of its own
    expect(lookupRules(L, { client: c, expoId: 1308, contact: mail, checksCode: true, browser: 'n2' }).map((r) => r.key)).toContain('wrong:contact:a@b.test:n2');
    // a guess from a browser the code was not sent to keeps its address's slot, never the contact's
    expect(lookupRules(L, { client: c, expoId: 1308, contact: mail, checksCode: true, browser: null }).map((r) => r.key)).toEqual(['lookup:ip:c', 'wrong:ip:c']);
    expect(lookupRules(L, { client: c, expoId: 1308, contact: mail, checksCode: false, browser: 'n1' }).map(short)).toEqual([
      `lookup:ip:c/${L.lookupsPerIpMinute}`,
      `bypass:email:1308:a@b.test/${L.bypassLookupsPerEmailHour}`,
    ]);
  });

  it('a registration is counted per verified contact (as a send counts it) and per client (issue 19 item 2)', () => {
    expect(registerRules(L, { client: clientOfHeader('203.0.113.7'), contact: phone }).map((r) => `${r.key}/${r.reason}`)).toEqual([
      'register:contact:+66812345678/attempts',
      'register:ip:203.0.113.7/network',
    ]);
    expect(registerRules(L, { client: { ...c, trusted: true }, contact: mail }).map((r) => r.limit)).toEqual([L.registersPerContactHour, L.registersPerIpHour * TRUSTED_FACTOR]);
    expect(registerRules({ ...L, registersPerContactHour: 0, registersPerIpHour: 0 }, { client: c, contact: mail })).toEqual([]);
    expect(H).toBe(3_600_000);
  });
});

describe('decideSend: the one place a count becomes an answer', () => {
  const full = { ok: false as const, retryAfterMs: 5000, friction: true, reason: 'destination' as const };
  it.each([
    ['JSON caller, Turnstile configured', { json: true, turnstile: true }, 'turnstile'],
    ['JSON caller, no Turnstile', { json: true, turnstile: false }, 'ticket'],
    ['form post, Turnstile configured', { json: false, turnstile: true }, 'ticket'],
    ['form post, no Turnstile', { json: false, turnstile: false }, 'ticket'],
  ] as const)('a full budget asks %s for a %s', (_, who, via) => {
    expect(decideSend(full, { pass: null, ...who })).toEqual({ kind: 'challenge', via });
    expect(ticketAccepted(who)).toBe(via === 'ticket');
  });
  it('a sender who passed a challenge and is refused met a ceiling: refused, never asked again', () => {
    expect(decideSend({ ...full, friction: false }, { pass: 'ticket', json: false, turnstile: false })).toEqual({ kind: 'refused', reason: 'destination', retryAfterMs: 5000 });
  });
  it('a hard refusal, and an unreachable counter (fail closed, wait unknown)', () => {
    expect(decideSend({ ...full, friction: false, reason: 'network' }, { pass: null, json: true, turnstile: true })).toMatchObject({ kind: 'refused', reason: 'network' });
    expect(decideSend({ ok: 'unreachable' }, { pass: null, json: true, turnstile: true })).toEqual({ kind: 'refused', reason: 'network', retryAfterMs: null });
    expect(decideSend({ ok: true }, { pass: null, json: true, turnstile: true })).toEqual({ kind: 'ok' });
  });
  it('a ticket\'s wait doubles with each ticket the address or contact has taken in the hour, up to 5 minutes', () => {
    expect([0, 1, 2, 3, 4, 10, 99].map((n) => ticketWait(20, n))).toEqual([20, 40, 80, 160, MAX_TICKET_WAIT_S, MAX_TICKET_WAIT_S, MAX_TICKET_WAIT_S]);
  });
});

describe('limitMessage', () => {
  it.each([
    ['network', 1, 'limit.networkSeconds', 1],
    ['network', 42_100, 'limit.networkSeconds', 43],
    ['contact', 59_000, 'limit.contactSeconds', 59],
    ['contact', 59_001, 'limit.contactMinutes', 1],
    ['destination', 60_000, 'limit.destinationMinutes', 1],
    ['destination', 60_001, 'limit.destinationMinutes', 2],
    ['attempts', 3_356_000, 'limit.attemptsMinutes', 56],
    ['attempts', 30_000, 'limit.attemptsSeconds', 30],
  ] as const)('%s, %i ms → %s n=%i (rounded up: never too early)', (reason, ms, key, n) => {
    expect(limitMessage(reason, ms)).toEqual({ key, vars: { n } });
  });

  it('an unknown wait: the busy message', () => {
    expect(limitMessage('network', null).key).toBe('limit.busy');
    expect(limitMessage('contact', Number.NaN).key).toBe('limit.busy');
  });

  it('every message key is in the catalogues, with the wait where it has one', () => {
    const reasons = ['network', 'contact', 'destination', 'attempts'] as const;
    const keys = [...reasons.flatMap((r) => [limitMessage(r, 1000).key, limitMessage(r, 600_000).key]), 'limit.challengeWait'] as const;
    for (const key of keys) {
      for (const messages of Object.values(MESSAGES)) expect(messages[key as keyof typeof messages], key).toContain('{{n}}');
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
    // a binding carries its sends' budget hits, read back defensively (at most 12, the newest)
    const many = Array.from({ length: 15 }, (_, i): [string, number] => [`send:expo:${i}`, i]);
    const withHits = await readBinding(await signBinding({ c: 'a@b.test', e: 7, n: 'n', h: many }, SECRET, T), SECRET, T);
    expect(withHits?.h).toEqual(many.slice(-12));
    const odd = await readBinding(await signBinding({ c: 'a@b.test', e: 7, n: 'n', h: [['k', 1], ['x'] as never, [3, 4] as never] }, SECRET, T), SECRET, T);
    expect(odd?.h).toEqual([['k', 1]]);
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
