/**
 * A registration link's custom label in workerd (spec §3 euDefine, §7 getForm; docs/upstream.md
 * "Messaging app"): the reference's `/wx/getForm` in-process, and `POST /api/register`, which asks
 * it again and sends the label on only when the organiser knows it for the url; the reference's
 * addUserInfo stores only a label of its own table.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../functions/app';
import type { AppEnv } from '../../functions/env';
import { upstreamFor } from '../../functions/upstream';
import { CONTACT_COOKIE, signContact } from '../../src/lib/lookup/contact-cookie';
import { idCheckChar } from '../../src/lib/form/id-number';
import { decodeId, encodeId } from '../../src/lib/util/ids';

const testEnv = env as unknown as AppEnv;
const app = createApp();
const BASE = 'https://expo.example';
const SECRET = testEnv.SESSION_SECRET ?? '';
const VIP = { define: 'VIP', name: 'VIP 贵宾 VIP guest' };

let seq = 700;
const nextIdNumber = () => {
  const body = `11010519900101${String(seq++).padStart(3, '0')}`;
  return body + idCheckChar(body);
};
/** A complete IEAE form of url 21308 (mainland: ID document required). */
const form = (more: Record<string, string> = {}) => ({
  route: 'IEAEForm',
  path: `21308/${encodeId(1308)}/visitor`,
  idem: crypto.randomUUID().replace(/-/g, ''),
  f: '',
  uname: '标签测试',
  ucompany: 'Demo Co.',
  'ucardid.type': '1',
  ucardid: nextIdNumber(),
  industry: 'Energy',
  'purpose.0': 'Sourcing',
  privacy: 'on',
  ...more,
});

async function post(contact: string, body: Record<string, string> | string): Promise<Response> {
  const cookie = `${CONTACT_COOKIE}=${await signContact({ expoId: 1308, contact, checkType: 2 }, SECRET)}`;
  return app.request(
    `${BASE}/api/register`,
    { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, body: typeof body === 'string' ? body : new URLSearchParams(body), redirect: 'manual' },
    testEnv,
  );
}

/** The stored label of the registration a credential location names. */
async function storedDefine(res: Response): Promise<string | null | undefined> {
  const seg = new URL(res.headers.get('location') ?? '', BASE).pathname.split('/')[3] ?? '';
  const row = await testEnv.DB.prepare('SELECT eu_define FROM registrations WHERE eu_code = ?').bind(decodeId(seg) ?? '').first<{ eu_define: string | null }>();
  return row?.eu_define;
}

describe('GET /wx/getForm (the reference, in-process)', () => {
  const up = () => upstreamFor(testEnv);
  it("answers the url's own label with its name", async () => {
    expect(await up().getForm({ expoId: 1308, fId: 21308, define: 'VIP' })).toEqual(VIP);
  });
  it('another url, another expo, another spelling or an over-long label: none', async () => {
    expect(await up().getForm({ expoId: 1308, fId: 10542, define: 'VIP' })).toBeNull();
    expect(await up().getForm({ expoId: 1179, fId: 21308, define: 'VIP' })).toBeNull();
    expect(await up().getForm({ expoId: 1308, fId: 21308, define: 'vip' })).toBeNull();
    expect(await up().getForm({ expoId: 1308, fId: 21308, define: 'V'.repeat(5000) })).toBeNull();
  });
  it('40 at once: every answer the same', async () => {
    const all = await Promise.all(Array.from({ length: 40 }, () => up().getForm({ expoId: 1308, fId: 21308, define: 'VIP' })));
    expect(all.every((a) => a?.define === 'VIP')).toBe(true);
  });
});

describe('POST /api/register with a label (the edge asks getForm again)', () => {
  it('a label the organiser knows for the url is stored; the credential reads it', async () => {
    const res = await post('define-vip@demo.test', form({ define: 'VIP' }));
    expect(res.status).toBe(303);
    expect(await storedDefine(res)).toBe('VIP');
  });
  it('a posted label the organiser does not know is not stored (registered normally)', async () => {
    const res = await post('define-forged@demo.test', form({ define: 'Boss' }));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/IEAESuccess\//);
    expect(await storedDefine(res)).toBeNull();
  });
  it('a huge label: ignored under the body limit, 413 over it', async () => {
    const ok = await post('define-huge@demo.test', form({ define: 'V'.repeat(30_000) }));
    expect(ok.status).toBe(303);
    expect(await storedDefine(ok)).toBeNull();
    const big = await post('define-huge2@demo.test', form({ define: 'V'.repeat(100_000) }));
    expect(big.status).toBe(413);
  });
  it('40 posts at once: no fault, and every stored registration carries only the known label', async () => {
    const contact = 'define-many@demo.test';
    const same = form({ define: 'VIP' });
    const all = await Promise.all(Array.from({ length: 40 }, () => post(contact, same)));
    expect(all.every((r) => r.status < 500)).toBe(true);
    expect(all.some((r) => r.status === 303 && /Success\//.test(r.headers.get('location') ?? ''))).toBe(true);
    const { results } = await testEnv.DB.prepare('SELECT eu_define FROM registrations WHERE owner_email = ?').bind(contact).all<{ eu_define: string | null }>();
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r) => r.eu_define === 'VIP')).toBe(true);
  });
});

describe('addUserInfo in the reference: a forged euDefine', () => {
  it("is stored only when it is one of the url's labels", async () => {
    const up = upstreamFor(testEnv);
    const values = (email: string, euDefine: string) => ({ uname: 'Forged', email, checkType: 2, euDefine });
    const forged = await up.addUserInfo({ expoId: 1308, urlsId: 21308, values: values('define-ref1@demo.test', 'Boss') });
    const elsewhere = await up.addUserInfo({ expoId: 1308, urlsId: 10542, values: values('define-ref2@demo.test', 'VIP') });
    const known = await up.addUserInfo({ expoId: 1308, urlsId: 21308, values: values('define-ref3@demo.test', 'VIP') });
    const read = async (r: typeof forged) =>
      r.ok ? (await testEnv.DB.prepare('SELECT eu_define FROM registrations WHERE eu_code = ?').bind(r.data.euCode).first<{ eu_define: string | null }>())?.eu_define : 'refused';
    expect(await read(forged)).toBeNull();
    expect(await read(elsewhere)).toBeNull();
    expect(await read(known)).toBe('VIP');
  });
});
