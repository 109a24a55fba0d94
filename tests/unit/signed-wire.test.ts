/**
 * Every value the edge signs keeps its wire format through the one signer (src/lib/util/signer.ts):
 * each is compared with the value written the way it was before (its own HMAC-SHA-256 code), so a
 * cookie or link in a visitor's browser from before a deploy still verifies after it.
 */
import { describe, expect, it } from 'vitest';
import { toBase64url } from '../../src/lib/util/base64url';
import { signContact, verifyContact } from '../../src/lib/lookup/contact-cookie';
import { readBinding, readTicket, signBinding, signTicket } from '../../src/lib/security/friction';
import { recalledResult, rememberResult } from '../../src/lib/form/idempotency';
import { checkPledgeTicket, pledgeTicket, readPledged, signPledged } from '../../src/lib/seat/pledge';
import { readSeatResult, seatResultPath } from '../../src/lib/seat/seats';

const secret = 'test-session-secret-0123456789abcdef';
const now = 1_700_000_000_000;
const nowS = now / 1000;
const enc = new TextEncoder();

async function hmac(keyText: string, text: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', enc.encode(keyText), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return toBase64url(new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(text))));
}
const json64 = (v: unknown) => toBase64url(enc.encode(JSON.stringify(v)));

describe('signed values keep their wire format', () => {
  it('verified-contact cookie: base64url(JSON).HMAC(secret, body)', async () => {
    const contact = { expoId: 1308, contact: 'a@b.co', checkType: 2 as const };
    const body = json64({ ...contact, exp: nowS + 600 });
    const old = `${body}.${await hmac(secret, body)}`;
    expect(await signContact(contact, secret, now)).toBe(old);
    expect(await verifyContact(old, secret, now)).toEqual(contact);
  });

  it('friction binding and wait ticket: HMAC(secret, kind.body)', async () => {
    const bind = json64({ c: 'e:a@b.co', e: 1308, n: 'nonce', exp: nowS + 3600 });
    const oldBind = `${bind}.${await hmac(secret, `bind.${bind}`)}`;
    expect(await signBinding({ c: 'e:a@b.co', e: 1308, n: 'nonce' }, secret, now)).toBe(oldBind);
    expect(await readBinding(oldBind, secret, now)).toEqual({ c: 'e:a@b.co', e: 1308, n: 'nonce', exp: nowS + 3600 });
    const wait = json64({ a: 'ip', c: 'e:a@b.co', e: 1308, n: 'nonce', nb: nowS + 20, exp: nowS + 620 });
    const oldWait = `${wait}.${await hmac(secret, `wait.${wait}`)}`;
    expect(await signTicket({ a: 'ip', c: 'e:a@b.co', e: 1308, n: 'nonce' }, 20, secret, now)).toBe(oldWait);
    expect(await readTicket(oldWait, secret, now)).not.toBeNull();
    expect(await readTicket(oldBind, secret, now)).toBeNull();
  });

  it('form idempotency cookie: HMAC(idem|secret, body)', async () => {
    const key = 'abcdefghijklmnopqrstuv';
    const body = json64({ k: key, l: '/credential/X', x: nowS + 600 });
    const old = `${body}.${await hmac(`idem|${secret}`, body)}`;
    expect(await rememberResult(key, '/credential/X', secret, now)).toBe(old);
    expect(await recalledResult(old, key, secret, now)).toBe('/credential/X');
  });

  it('pledge ticket and cookie: HMAC(secret, pledge-ticket:body) and HMAC(secret, pledged:body)', async () => {
    const oldTicket = `1197.${now}.${await hmac(secret, `pledge-ticket:1197.${now}`)}`;
    expect(await pledgeTicket(1197, now, secret)).toBe(oldTicket);
    expect(await checkPledgeTicket(oldTicket, 1197, now + 6000, secret)).toEqual({ kind: 'ok' });
    const body = toBase64url(enc.encode('1197-1308'));
    const oldCookie = `${body}.${await hmac(secret, `pledged:${body}`)}`;
    expect(await signPledged([1197, 1308], secret)).toBe(oldCookie);
    expect(await readPledged(oldCookie, secret)).toEqual([1197, 1308]);
  });

  it('seat result link: sig = HMAC(secret, JSON ["seat-result", …values])', async () => {
    const path = await seatResultPath({ expoId: 1235, fId: 7 }, { userName: 'Ann', companyName: 'Acme', seat: 'A1' }, secret);
    const sig = await hmac(secret, JSON.stringify(['seat-result', 'yejinji', 1235, 7, 'Ann', 'Acme', 'A1']));
    expect(new URL(path, 'https://x').searchParams.get('sig')).toBe(sig);
    const q = new URLSearchParams({ userName: 'Ann', companyName: 'Acme', seat: 'A1', expoId: '1235', fId: '7', sig });
    expect(await readSeatResult(q, 'yejinji', secret)).toEqual({ ok: true, result: { userName: 'Ann', companyName: 'Acme', seat: 'A1', expoId: 1235 } });
  });
});
