/**
 * Issue 19 item 3 in workerd: the registration a form just made is its contact's own, so the
 * `vc` cookie the register reply sets names its code (src/lib/lookup/contact-cookie.ts addOwnCode) and
 * its credential page shows that visitor's details; nobody else's cookie gains it.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../functions/app';
import type { AppEnv } from '../../functions/env';
import { CONTACT_COOKIE, readsCredential, signContact, verifyContact } from '../../src/lib/lookup/contact-cookie';
import { decodeId, encodeId } from '../../src/lib/util/ids';
import { idCheckChar } from '../../src/lib/form/id-number';

const testEnv = env as unknown as AppEnv;
const app = createApp();
const BASE = 'https://expo.example';
const SECRET = testEnv.SESSION_SECRET ?? '';
const body17 = '11010519900303' + String(Date.now() % 1000).padStart(3, '0');

describe('POST /api/register and the credential\'s owner', () => {
  it('the new code joins the verified contact\'s codes: its credential shows the details to this browser only', async () => {
    const contact = `owner-${crypto.randomUUID().slice(0, 8)}@demo.test`;
    const vc = await signContact({ expoId: 1308, contact, checkType: 2 }, SECRET);
    const form = {
      route: 'IEAEForm',
      path: `21308/${encodeId(1308)}/visitor`,
      idem: crypto.randomUUID().replace(/-/g, ''),
      f: '',
      uname: '主人测试',
      ucompany: 'Owner Co.',
      'ucardid.type': '1',
      ucardid: body17 + idCheckChar(body17),
      industry: 'Energy',
      'purpose.0': 'Sourcing',
      privacy: 'on',
    };
    const res = await app.request(
      `${BASE}/api/register`,
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `${CONTACT_COOKIE}=${vc}` }, body: new URLSearchParams(form), redirect: 'manual' },
      testEnv,
    );
    expect(res.status).toBe(303);
    const euCode = decodeId(new URL(res.headers.get('location') ?? '', BASE).pathname.split('/')[3] ?? '') ?? '';
    expect(euCode).not.toBe('');
    const set = res.headers.getSetCookie().find((c) => c.startsWith(`${CONTACT_COOKIE}=`)) ?? '';
    expect(set).toMatch(/HttpOnly/i);
    const after = await verifyContact(set.split(';')[0]?.slice(CONTACT_COOKIE.length + 1), SECRET);
    expect(readsCredential(after, { expoId: 1308, euCode })).toBe(true);
    // the cookie the visitor came with did not name it, and another contact's never does
    expect(readsCredential(await verifyContact(vc, SECRET), { expoId: 1308, euCode })).toBe(false);
    expect(readsCredential({ expoId: 1308, contact: 'someone@demo.test', checkType: 2, codes: ['IWHBZIMYEOZETLFI'] }, { expoId: 1308, euCode })).toBe(false);
  });
});
