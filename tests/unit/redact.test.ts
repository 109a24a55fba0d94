/**
 * What a log line may say of a path, a URL or a limiter key (issue 30 item 2): src/lib/ops/redact.ts
 * redactPath keeps our route's first segment, our query names, an http(s) URL's scheme and host,
 * and nothing a visitor brought (codes, gate keys, contacts); src/lib/security/limits.ts
 * limitKeyForLog keeps a shared budget's key and only the kind of any other.
 */
import { describe, expect, it } from 'vitest';
import { REDACTED, redactPath } from '../../src/lib/ops/redact';
import { isRouteName, qrImagePath, passPath, routePath, type SuccessParams } from '../../src/lib/core/routes';
import { variantByExpoId } from '../../src/lib/core/variants';
import { encodeId } from '../../src/lib/util/ids';
import { limitKeyForLog, sendRules, DEFAULT_LIMITS, clientOfHeader } from '../../src/lib/security/limits';
import { budgetAlert } from '../../src/lib/security/friction';

const CODE = 'IWHBZIMYEOZETLFI';
const CREDENTIAL: SuccessParams = { urlId: 21308, euCode: CODE, expoId: 1308, fId: 21308 };
const CONTACT = 'one@demo.test';
const KEY = 'Zq3kP9vX2mT7rW4yB8nC1dF6gH0jL5sA-UeIoQ_xYtR';
/** What no redacted text may hold. */
const SECRETS = [CODE, encodeId(CODE), CONTACT, encodeURIComponent(CONTACT), KEY, '13800138000'];

const holdsSecret = (text: string) => SECRETS.filter((s) => text.includes(s));

describe('redactPath', () => {
  const success = routePath({ screen: 'credential', variant: variantByExpoId(1308), params: CREDENTIAL });

  it('keeps the route of a credential page, and none of its ids or its query values', () => {
    expect(redactPath(`${success}?f=${encodeURIComponent(CONTACT)}`)).toBe('/IEAESuccess/*/*/*/*/?f=*');
    expect(redactPath(qrImagePath(CREDENTIAL, { save: true }))).toBe('/qr/*/*/*/*?save=*');
    expect(redactPath(passPath(CREDENTIAL))).toBe('/pass/*/*/*/*');
    expect(redactPath(routePath({ screen: 'bus', which: 'busInfo', params: { ...CREDENTIAL, euUserId: 7 } }))).toBe('/busInfo/*/*/*/*/*');
  });

  it('keeps a gate link\'s route and parameter name, never the key', () => {
    expect(redactPath(`/gate/${encodeId(1308)}?key=${KEY}`)).toBe('/gate/*?key=*');
    expect(redactPath(`/gate/${encodeId(1308)}/scans.csv`)).toBe('/gate/*/*');
  });

  it('writes an absolute http(s) URL with its scheme and host, never its user, password, path or query', () => {
    expect(redactPath(`https://expo.example${success}?f=x`)).toBe('https://expo.example/IEAESuccess/*/*/*/*/?f=*');
    expect(redactPath(`https://${encodeURIComponent(CONTACT)}:pw@cashier.example:8443/pay/${CODE}?to=${CONTACT}#${CODE}`)).toBe(
      'https://cashier.example:8443/*/*?to=*#*',
    );
  });

  it('writes another scheme by its name only', () => {
    expect(redactPath(`mailto:${CONTACT}`)).toBe(`mailto:${REDACTED}`);
    expect(redactPath(`javascript:alert("${CODE}")`)).toBe('javascript:*');
    expect(redactPath('data:text/html,<h1>x')).toBe('data:*');
  });

  it('replaces a first segment that is not one of our routes: a code, a contact, a number', () => {
    expect(redactPath(`/${CODE}`)).toBe('/*');
    expect(redactPath(`/${CONTACT}/x`)).toBe('/*/*');
    expect(redactPath('/13800138000')).toBe('/*');
    expect(redactPath('/21308/MTMwOA/visitor')).toBe('/*/*/*'); // a home: its first segment is an id
    expect(redactPath(`//evil.example/IEAESuccess/${CODE}`)).toBe('//*/*/*');
    expect(redactPath(CONTACT)).toBe('*');
  });

  it('keeps our own mounts and route names, percent-decoded', () => {
    expect(redactPath('/api/lookup')).toBe('/api/*');
    expect(redactPath('/healthz')).toBe('/healthz');
    expect(redactPath('/%49EAESearch/21308/MTMwOA/visitor')).toBe('/IEAESearch/*/*/*');
    expect(redactPath('/%E0%A4%A/x')).toBe('/*/*'); // does not decode
  });

  it('keeps only query names shaped like ours; a contact, a code or a number as a name is replaced', () => {
    expect(redactPath(`/orderDetails/21216/MTIxNg/visitor?orderNo=T1&pay=paid`)).toBe('/orderDetails/*/*/*?orderNo=*&pay=*');
    expect(redactPath(`/x?${CONTACT}&${CODE}=1&13800138000&f`)).toBe('/*?*&*=*&*&f');
    expect(redactPath('/search?a+b=1')).toBe('/search?*=*');
  });

  it('stays short whatever comes in', () => {
    const long = redactPath(`/api/${'a/'.repeat(5000)}?${'x=1&'.repeat(5000)}`);
    expect(long).toBe(`/api${'/*'.repeat(15)}/**?${'x=*&'.repeat(16)}**`);
    expect(redactPath('')).toBe('');
    expect(redactPath('   ')).toBe('');
  });

  it('never writes a code, a key or a contact, whatever their place', () => {
    const inputs = [
      `${success}?f=${CONTACT}`,
      `/${CODE}?${CODE}=${CODE}`,
      `/gate/${KEY}?key=${KEY}#${KEY}`,
      `https://expo.example/dev/outbox.json?to=${encodeURIComponent(CONTACT)}&expoId=1308`,
      `https://${CONTACT}@host.example/${CODE}`,
      `/api/health/list?expoId=2012&euCode=${CODE}`,
      `/seat/21128/MTEyOA/visitor?phone=13800138000`,
    ];
    for (const input of inputs) expect(holdsSecret(redactPath(input)), input).toEqual([]);
  });
});

describe('isRouteName', () => {
  it('names the page routes of the table, generic and per variant, and nothing else', () => {
    for (const name of ['search', 'success', 'IEAESuccess', 'IEAESearch', 'gate', 'bus', 'busInfo', 'ticketSuccess', 'CMEF']) expect(isRouteName(name), name).toBe(true);
    for (const name of [CODE, CONTACT, '21308', '', 'toString', '__proto__', 'constructor']) expect(isRouteName(name), name).toBe(false);
  });
});

describe('limitKeyForLog', () => {
  it('keeps a shared budget whole: range, area, country, expo (ticketed too)', () => {
    for (const key of ['send:range:+44 7911', 'send:area:2002:+44', 'send:country:+44', 'send:expo:2002', 'seat:expo:1128', 'ticketed:send:range:+44 7911']) {
      expect(limitKeyForLog(key)).toBe(key);
    }
  });

  it('writes any other key by its kind: never the contact, the address or the browser', () => {
    expect(limitKeyForLog(`send:contact:${CONTACT}`)).toBe('send:contact:*');
    expect(limitKeyForLog(`send:contact-ip:${CONTACT}:198.51.100.7`)).toBe('send:contact-ip:*');
    expect(limitKeyForLog(`bypass:email:10542:${CONTACT}`)).toBe('bypass:email:*');
    expect(limitKeyForLog('send:ip:198.51.100.7')).toBe('send:ip:*');
    expect(limitKeyForLog(`wrong:contact:+8613800138000:nonce`)).toBe('wrong:contact:*');
    expect(limitKeyForLog(`ticketed:send:contact:${CONTACT}`)).toBe('ticketed:send:contact:*');
  });

  it('holds no contact for any rule of a code send', () => {
    const client = clientOfHeader('198.51.100.7');
    for (const contact of [{ type: 'email' as const, email: CONTACT }, { type: 'phone' as const, areaCode: '+86', national: '13800138000' }]) {
      for (const pass of [null, 'ticket', 'turnstile'] as const) {
        const rules = sendRules(DEFAULT_LIMITS, { client, expoId: 1308, contact, ownNonce: null, pass });
        const written = rules.map((r) => limitKeyForLog(r.key)).join(' ');
        expect(holdsSecret(written)).toEqual([]);
        expect(written).not.toContain('198.51.100.7');
      }
    }
  });

  it('the half-budget alert writes its key so', () => {
    expect(budgetAlert({ key: `send:contact:${CONTACT}`, limit: 2, windowMs: 3_600_000 }, 0).key).toBe('send:contact:*');
  });
});
