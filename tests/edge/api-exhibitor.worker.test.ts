/**
 * The exhibitor registration (spec §7 exhiCustomerUser/addExhiUserInfor, `/subyexhi`;
 * docs/upstream.md "Exhibitor registration") in workerd: at the reference upstream (class 2,
 * owned by the proven contact, one per contact and company, an exhibitor url only) and through
 * the edge's /api/register (verified contact required, another contact's data, 40 at once,
 * a huge body, a cross-site post, HEAD and GET). Also the correction form (`/reForm`): only the
 * contact's own registration.
 */
import { describe, expect, it } from 'vitest';
import { createApp } from '../../functions/app';
import { CONTACT_COOKIE, signContact, type VerifiedContact } from '../../src/lib/lookup/contact-cookie';
import { decodeId, encodeId } from '../../src/lib/util/ids';
import type { RegisterReply } from '../../src/islands/form-types';
import { call, enc, testEnv } from './reference.helpers';

const app = createApp();
const BASE = 'https://expo.example';
const SECRET = testEnv.SESSION_SECRET ?? '';
const OCEAN = 2030;
const EXHIBITOR_URL = 42030;
const PAGE = { route: 'subyexhi', path: `${EXHIBITOR_URL}/${encodeId(OCEAN)}/exhibitor` };

const exhi = async (values: Record<string, unknown>, urlsId = EXHIBITOR_URL) =>
  call('/exhiCustomerUser/addExhiUserInfor', { expoId: OCEAN, body: { expoId: OCEAN, urlsId, data: await enc(JSON.stringify(values), OCEAN) } });

const row = (id: number) =>
  testEnv.DB.prepare('SELECT r.*, e.booth_no, e.owner FROM registrations r LEFT JOIN exhibitors e ON e.registration_id = r.id WHERE r.id = ?')
    .bind(id)
    .first<Record<string, unknown>>();

describe('reference: POST /custom/exhiCustomerUser/addExhiUserInfor', () => {
  it('stores a class 2 registration owned by the proven contact, with its booth', async () => {
    const r = await exhi({ ucompany: 'Ref Marine', uname: 'Ann', boothNo: 'C-3', email: 'ref-exhi@demo.test', checkType: 2, phone: '+8613800138555' });
    expect(r.code).toBe(200);
    const { euCode, id } = r.data as { euCode: string; id: number };
    expect(euCode).toMatch(/^[A-Z2-7]{16}$/);
    const saved = await row(id);
    expect(saved).toMatchObject({ eu_class: 2, ucompany: 'Ref Marine', uname: 'Ann', eu_define: 'C-3', booth_no: 'C-3', owner_email: 'ref-exhi@demo.test', owner_phone: null });
  });

  it('a repeat by the same contact and company updates the same registration', async () => {
    const first = await exhi({ ucompany: 'Same Co', uname: 'Bo', email: 'same-exhi@demo.test', checkType: 2 });
    const again = await exhi({ ucompany: ' same  co ', uname: 'Bo Li', boothNo: 'D-1', email: 'same-exhi@demo.test', checkType: 2 });
    expect(again.data).toEqual(first.data);
    expect(await row((first.data as { id: number }).id)).toMatchObject({ uname: 'Bo Li', booth_no: 'D-1' });
  });

  it("another contact naming the same company gets a registration of its own, never the first one's", async () => {
    const a = await exhi({ ucompany: 'Shared Name Ltd', uname: 'A', email: 'owner-a@demo.test', checkType: 2 });
    const b = await exhi({ ucompany: 'Shared Name Ltd', uname: 'B', email: 'owner-b@demo.test', checkType: 2 });
    expect(b.code).toBe(200);
    expect((b.data as { euCode: string }).euCode).not.toBe((a.data as { euCode: string }).euCode);
    expect(await row((a.data as { id: number }).id)).toMatchObject({ uname: 'A', owner_email: 'owner-a@demo.test' });
  });

  it('40 identical posts at once make one registration', async () => {
    const values = { ucompany: 'Burst Co', uname: 'C', email: 'burst-exhi@demo.test', checkType: 2 };
    const replies = await Promise.all(Array.from({ length: 40 }, () => exhi(values)));
    const codes = new Set(replies.map((r) => (r.data as { euCode?: string } | null)?.euCode));
    expect(replies.every((r) => r.code === 200)).toBe(true);
    expect(codes.size).toBe(1);
    const n = await testEnv.DB.prepare("SELECT count(*) AS n FROM exhibitors WHERE owner = 'email:burst-exhi@demo.test'").first<{ n: number }>();
    expect(n?.n).toBe(1);
  });

  it('refuses a visitor url, a missing company or contact person, a missing proven contact, and a repair-style euCode', async () => {
    expect((await exhi({ ucompany: 'X', uname: 'Y', email: 'v@demo.test', checkType: 2 }, 22030)).code).toBe(404);
    expect((await exhi({ uname: 'Y', email: 'v@demo.test', checkType: 2 })).code).toBe(400);
    expect((await exhi({ ucompany: 'X', email: 'v@demo.test', checkType: 2 })).code).toBe(400);
    expect((await exhi({ ucompany: 'X', uname: 'Y', phone: '+8613800138555', checkType: 2 })).code).toBe(400);
    expect((await exhi({ ucompany: 'X', uname: 'Y', email: 'v@demo.test', checkType: 2, euCode: 'OCEANONEVISITORA' })).code).toBe(400);
    const garbage = await call('/exhiCustomerUser/addExhiUserInfor', { expoId: OCEAN, body: { expoId: OCEAN, urlsId: EXHIBITOR_URL, data: 'not-base64' } });
    expect(garbage.code).toBe(400);
  });
});

// ---- Through the edge ----

type Jar = Map<string, string>;
const vc = (contact: string, more: Partial<VerifiedContact> = {}): VerifiedContact => ({ expoId: OCEAN, contact, checkType: 2, ...more });
async function jarFor(v: VerifiedContact | null): Promise<Jar> {
  const jar: Jar = new Map();
  if (v) jar.set(CONTACT_COOKIE, await signContact(v, SECRET));
  return jar;
}
async function send(jar: Jar, body: BodyInit, init: { json?: boolean; headers?: Record<string, string>; method?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = init.json
    ? { 'content-type': 'application/json', accept: 'application/json' }
    : { 'content-type': 'application/x-www-form-urlencoded' };
  if (jar.size) headers['cookie'] = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  return app.request(`${BASE}/api/register`, { method: init.method ?? 'POST', headers: { ...headers, ...init.headers }, body, redirect: 'manual' }, testEnv);
}
const exhibitorForm = (more: Record<string, string> = {}) => ({
  ...PAGE,
  idem: crypto.randomUUID().replace(/-/g, ''),
  f: '',
  ucompany: 'Edge Marine Ltd',
  boothNo: 'E-7',
  uname: 'Edge Person',
  email: 'typed-elsewhere@demo.test',
  'products.0': 'equipment',
  privacy: 'on',
  ...more,
});
const euCodeOf = (location: string) => decodeId(new URL(location, BASE).pathname.split('/')[3] ?? '') ?? '';
const byCode = (euCode: string) => testEnv.DB.prepare('SELECT * FROM registrations WHERE eu_code = ?').bind(euCode).first<Record<string, unknown>>();

describe('POST /api/register for /subyexhi (addExhiUserInfor through the edge)', () => {
  it('registers the verified contact as an exhibitor: 303 to the class 2 credential, whatever e-mail was typed', async () => {
    const res = await send(await jarFor(vc('edge-exhi@demo.test')), new URLSearchParams(exhibitorForm()));
    expect(res.status).toBe(303);
    const location = res.headers.get('location') ?? '';
    expect(location).toMatch(/^\/success\//);
    expect(await byCode(euCodeOf(location))).toMatchObject({ eu_class: 2, ucompany: 'Edge Marine Ltd', owner_email: 'edge-exhi@demo.test', email: 'edge-exhi@demo.test' });
  });

  it('without a verified contact: to the lookup with next, nothing stored', async () => {
    const res = await send(await jarFor(null), JSON.stringify(exhibitorForm({ ucompany: 'Nobody Co' })), { json: true });
    const body = (await res.json()) as RegisterReply;
    expect(body.code).toBe(401);
    expect(body.data).toMatchObject({ outcome: 'navigate', location: `/search/${PAGE.path}?next=${encodeURIComponent(`/subyexhi/${PAGE.path}`)}` });
    const n = await testEnv.DB.prepare("SELECT count(*) AS n FROM registrations WHERE ucompany = 'Nobody Co'").first<{ n: number }>();
    expect(n?.n).toBe(0);
  });

  it("a contact of another expo, or another contact, never gets or changes the first contact's exhibitor registration", async () => {
    const first = await send(await jarFor(vc('victim-exhi@demo.test')), new URLSearchParams(exhibitorForm({ ucompany: 'Victim Marine' })));
    const victimCode = euCodeOf(first.headers.get('location') ?? '');
    const other = await send(await jarFor(vc('mallory-exhi@demo.test')), new URLSearchParams(exhibitorForm({ ucompany: 'Victim Marine', uname: 'Mallory', email: 'victim-exhi@demo.test' })));
    expect(other.status).toBe(303);
    const malloryCode = euCodeOf(other.headers.get('location') ?? '');
    expect(malloryCode).not.toBe(victimCode);
    expect(await byCode(victimCode)).toMatchObject({ uname: 'Edge Person', owner_email: 'victim-exhi@demo.test' });
    expect(await byCode(malloryCode)).toMatchObject({ owner_email: 'mallory-exhi@demo.test' });
    const elsewhere = await send(await jarFor(vc('victim-exhi@demo.test', { expoId: 1308 })), JSON.stringify(exhibitorForm()), { json: true });
    expect(((await elsewhere.json()) as RegisterReply).code).toBe(401);
  });

  it('40 identical posts at once: one exhibitor registration (the rest answered or limited, none a second row)', async () => {
    const jar = await jarFor(vc('burst-edge@demo.test'));
    const form = exhibitorForm({ ucompany: 'Edge Burst Co' });
    const res = await Promise.all(Array.from({ length: 40 }, () => send(jar, JSON.stringify(form), { json: true })));
    const bodies = (await Promise.all(res.map((r) => r.json()))) as RegisterReply[];
    expect(bodies.every((b) => b.code === 200 || b.code === 600)).toBe(true);
    const n = await testEnv.DB.prepare("SELECT count(*) AS n FROM registrations WHERE owner_email = 'burst-edge@demo.test'").first<{ n: number }>();
    expect(n?.n).toBe(1);
  });

  it('a huge body is 413, a malformed one 400, with a short sentence', async () => {
    const jar = await jarFor(vc('big-exhi@demo.test'));
    const huge = await send(jar, new URLSearchParams(exhibitorForm({ products: 'x'.repeat(70 * 1024) })));
    expect(huge.status).toBe(413);
    expect((await huge.text()).length).toBeLessThan(400);
    const bad = await send(jar, '{"route":', { json: true });
    expect(bad.status).toBe(400);
  });

  it('a cross-site post is 403; GET and HEAD are 405', async () => {
    const jar = await jarFor(vc('cross-exhi@demo.test'));
    const cross = await send(jar, new URLSearchParams(exhibitorForm()), { headers: { origin: 'https://evil.example' } });
    expect(cross.status).toBe(403);
    for (const method of ['GET', 'HEAD']) {
      const res = await app.request(`${BASE}/api/register`, { method }, testEnv);
      expect(res.status, method).toBe(405);
    }
  });
});

describe('POST /api/register for /reForm: only the contact\'s own registration', () => {
  const OCEAN_FORM = { route: 'reForm', path: `22030/${encodeId(OCEAN)}/visitor` };
  const correction = (euCode: string, more: Record<string, string> = {}) => ({
    ...OCEAN_FORM,
    idem: crypto.randomUUID().replace(/-/g, ''),
    f: '',
    e: euCode,
    uname: 'One Ocean',
    ucompany: 'Corrected Co',
    'oceanSector.0': 'shipping',
    privacy: 'on',
    ...more,
  });

  it("updates the verified contact's own registration (a code its lookup found)", async () => {
    const jar = await jarFor(vc('one@demo.test', { codes: ['OCEANONEVISITORA'] }));
    const res = await send(jar, new URLSearchParams(correction('OCEANONEVISITORA')));
    expect(res.status).toBe(303);
    expect(euCodeOf(res.headers.get('location') ?? '')).toBe('OCEANONEVISITORA');
    expect(await byCode('OCEANONEVISITORA')).toMatchObject({ ucompany: 'Corrected Co' });
  });

  it("refuses another contact's code (not in its cookie), and the upstream refuses one forged into the cookie", async () => {
    const before = await byCode('OCEANSECONDFORMA');
    const mallory = await send(await jarFor(vc('mallory-re@demo.test')), JSON.stringify(correction('OCEANSECONDFORMA', { ucompany: 'Hijacked' })), { json: true });
    expect(((await mallory.json()) as RegisterReply).code).toBe(404);
    // even a cookie that claims the code (it cannot be signed without the secret, but say it were)
    const forged = await send(await jarFor(vc('mallory-re@demo.test', { codes: ['OCEANSECONDFORMA'] })), JSON.stringify(correction('OCEANSECONDFORMA', { ucompany: 'Hijacked' })), { json: true });
    expect(((await forged.json()) as RegisterReply).code).toBe(404);
    expect(await byCode('OCEANSECONDFORMA')).toEqual(before);
  });
});
