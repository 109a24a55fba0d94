/**
 * POST /api/register and /api/camera in workerd, against the reference upstream on D1
 * (issue: registration forms; spec §2.3, §4 20003, §5). The verified-contact cookie is signed
 * here as /api/lookup would sign it after a code.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../functions/app';
import type { AppEnv } from '../../functions/env';
import { upstreamFor } from '../../functions/upstream';
import { CONTACT_COOKIE, signContact, type VerifiedContact } from '../../src/lib/lookup/contact-cookie';
import { decodeFlash, FLASH_COOKIE } from '../../src/lib/page/flash';
import { IDEM_COOKIE } from '../../src/lib/form/idempotency';
import { postedFromData } from '../../src/lib/form/prefill';
import { parseFormDefinition } from '../../src/lib/form/schema';
import { decodeId, encodeId } from '../../src/lib/util/ids';
import { idCheckChar } from '../../src/lib/form/id-number';
import type { RegisterReply } from '../../src/islands/form-types';

const testEnv = env as unknown as AppEnv;
const app = createApp();
const BASE = 'https://expo.example';
const SECRET = testEnv.SESSION_SECRET ?? '';

/** Cookies of one browser: name → value. */
type Jar = Map<string, string>;

function store(jar: Jar, res: Response): void {
  for (const raw of res.headers.getSetCookie()) {
    const [pair = ''] = raw.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (value === '' || /max-age=0/i.test(raw)) jar.delete(name);
    else jar.set(name, value);
  }
}

async function jarFor(vc: VerifiedContact | null): Promise<Jar> {
  const jar: Jar = new Map();
  if (vc) jar.set(CONTACT_COOKIE, await signContact(vc, SECRET));
  return jar;
}

async function post(jar: Jar, body: Record<string, string>, json = false, path = '/api/register'): Promise<Response> {
  const headers: Record<string, string> = json
    ? { 'content-type': 'application/json', accept: 'application/json' }
    : { 'content-type': 'application/x-www-form-urlencoded' };
  if (jar.size) headers['cookie'] = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await app.request(
    `${BASE}${path}`,
    { method: 'POST', headers, body: json ? JSON.stringify(body) : new URLSearchParams(body), redirect: 'manual' },
    testEnv,
  );
  store(jar, res);
  return res;
}

const IEAE = { route: 'IEAEForm', path: `21308/${encodeId(1308)}/visitor` };
const idNumber = (body17: string) => body17 + idCheckChar(body17);
let seq = 100;
/** A legal, unused mainland ID number (each registration needs its own: the ID number is matched for 20001). */
const nextIdNumber = () => idNumber(`11010519900101${String(seq++).padStart(3, '0')}`);
/** A complete IEAE form (mainland: ID document required). */
const ieaeForm = (more: Record<string, string> = {}) => ({
  ...IEAE,
  idem: crypto.randomUUID().replace(/-/g, ''),
  f: '',
  uname: '测试一',
  ucompany: 'Demo Co.',
  'ucardid.type': '1',
  ucardid: nextIdNumber(),
  industry: 'Energy',
  'purpose.0': 'Sourcing',
  privacy: 'on',
  ...more,
});
const vcEmail = (expoId: number, contact: string, more: Partial<VerifiedContact> = {}): VerifiedContact => ({
  expoId,
  contact,
  checkType: 2,
  ...more,
});

/** The euCode of a credential path (`/{Variant}Success/{u}/{e}/{x}/{fId}/?f=`). */
function euCodeOf(location: string): string {
  const seg = new URL(location, BASE).pathname.split('/')[3] ?? '';
  return decodeId(seg) ?? '';
}

async function row(euCode: string) {
  return testEnv.DB.prepare('SELECT * FROM registrations WHERE eu_code = ?')
    .bind(euCode)
    .first<Record<string, unknown>>();
}

describe('POST /api/register: verified contact required', () => {
  it('without a verified contact sends a form post to the lookup page, JSON to navigate there', async () => {
    // …with the form as `next`, so the new code leads back to it (issue 14).
    const back = `/IEAESearch/21308/${encodeId(1308)}/visitor?next=${encodeURIComponent(`/IEAEForm/21308/${encodeId(1308)}/visitor`)}`;
    const res = await post(await jarFor(null), ieaeForm());
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(back);
    const json = (await (
      await post(await jarFor(vcEmail(1108, 'none@demo.test')), ieaeForm(), true)
    ).json()) as RegisterReply;
    expect(json.code).toBe(401);
    expect(json.data).toEqual({ outcome: 'navigate', location: back, replace: false });
  });

  it('refuses a page that does not exist', async () => {
    const res = await post(await jarFor(vcEmail(1308, 'none@demo.test')), { ...ieaeForm(), route: 'NopeForm' });
    expect(res.status).toBe(400);
    const other = await post(await jarFor(vcEmail(1308, 'none@demo.test')), { ...ieaeForm(), route: 'JakartaForm' });
    expect(other.status).toBe(400);
  });
});

describe('POST /api/register: nobody changes a registration of another contact (issue 9 holes 1, 9, 10; issue 19 item 2)', () => {
  const victim = 'IWHBZIMYEOZETLFI'; // one@demo.test's, ID number DEMO-ID-1308-01

  it.each([
    ['a form post', false],
    ['JSON', true],
  ])("%s with their ID number and update=1 registers the visitor's own; theirs is untouched and not named", async (name, json) => {
    const before = await row(victim);
    const mallory = `mallory-${json ? 'json' : 'form'}@demo.test`;
    const jar = await jarFor(vcEmail(1308, mallory));
    const form = ieaeForm({ 'ucardid.type': '2', ucardid: 'DEMO-ID-1308-01', uname: 'Mallory', update: '1' });
    const res = await post(jar, form, json);
    let location: string;
    if (json) {
      const reply = (await res.json()) as RegisterReply;
      expect(reply.code).toBe(200);
      expect(reply.data?.outcome, name).toBe('navigate');
      location = reply.data?.outcome === 'navigate' ? reply.data.location : '';
    } else {
      expect(res.status).toBe(303);
      location = res.headers.get('location') ?? '';
    }
    const own = euCodeOf(location);
    expect(own).not.toBe(victim);
    expect(location).not.toContain(encodeId(victim));
    expect(await row(victim)).toEqual(before);
    expect(await row(own)).toMatchObject({ uname: 'Mallory', ucardid: 'DEMO-ID-1308-01', owner_email: mallory });
  });

  it('without update=1: no 20001 prompt either (nothing said about their registration)', async () => {
    const jar = await jarFor(vcEmail(1308, 'mallory-prompt@demo.test'));
    const reply = (await (
      await post(jar, ieaeForm({ 'ucardid.type': '2', ucardid: 'DEMO-ID-1308-01', uname: 'Mallory' }), true)
    ).json()) as RegisterReply;
    expect(reply.code).toBe(200);
    expect(reply.data?.outcome).toBe('navigate');
  });

  it('a bypass cookie (spec §2.2, no code proven) never registers', async () => {
    const jar = await jarFor(vcEmail(1308, 'exhibitor@demo.test', { bypass: true }));
    const before = await testEnv.DB.prepare('SELECT count(*) AS n FROM registrations').first<{ n: number }>();
    const res = await post(jar, ieaeForm({ uname: 'Bypass' }), true);
    const reply = (await res.json()) as RegisterReply;
    expect(reply.code).toBe(401);
    expect(reply.data).toMatchObject({ outcome: 'navigate' });
    expect(await testEnv.DB.prepare('SELECT count(*) AS n FROM registrations').first<{ n: number }>()).toEqual(before);
  });
});

describe('POST /api/register: success', () => {
  it('a form post goes straight to the credential page; the contact is the verified one whatever was posted', async () => {
    const jar = await jarFor(vcEmail(1308, 'none@demo.test'));
    const res = await post(jar, ieaeForm({ email: 'someone-else@demo.test', uname: '锁定测试' }));
    expect(res.status).toBe(303);
    const location = res.headers.get('location') ?? '';
    expect(location).toMatch(/^\/IEAESuccess\/[^/]+\/[^/]+\/MTMwOA\/21308\/\?f=$/);
    const saved = await row(euCodeOf(location));
    expect(saved).toMatchObject({
      uname: '锁定测试',
      email: 'none@demo.test',
      ucompany: 'Demo Co.',
      expo_id: 1308,
      urls_id: 21308,
    });
    const credential = await upstreamFor(testEnv).queryCustomerCode({ expoId: 1308, euCode: euCodeOf(location) });
    expect(credential.ok && credential.data.uname).toBe('锁定测试');
  });

  it('JSON (the island) gets navigate with replace', async () => {
    const jar = await jarFor({ expoId: 1179, contact: '+66812340000', checkType: 1, areaCode: '+66' });
    const body = {
      route: 'BangkokForm',
      path: `21179/${encodeId(1179)}/visitor`,
      idem: 'k'.repeat(24),
      uname: 'Somchai',
      ucompany: 'Demo',
      industry: 'Food',
      'purpose.1': 'Networking',
      privacy: 'on',
      phone: '899999999',
      'phone.areaCode': '+66',
    };
    const reply = (await (await post(jar, body, true)).json()) as RegisterReply;
    expect(reply.code).toBe(200);
    expect(reply.data).toMatchObject({ outcome: 'navigate', replace: true });
    const loc = reply.data?.outcome === 'navigate' ? reply.data.location : '';
    expect(loc).toMatch(/^\/BangkokSuccess\//);
    expect(await row(euCodeOf(loc))).toMatchObject({ phone: '+66812340000' });
  });

  it('a retry of the same form view never registers twice (edge cookie, and the reference repeat rule)', async () => {
    const jar = await jarFor(vcEmail(1308, 'none@demo.test'));
    const form = ieaeForm({ uname: '重试测试' });
    const first = await post(jar, form);
    expect(jar.has(IDEM_COOKIE)).toBe(true);
    const again = await post(jar, form);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    // A concurrent double post (no cookie yet): the reference answers the first reply again.
    const bare = await post(await jarFor(vcEmail(1308, 'none@demo.test')), form);
    expect(bare.headers.get('location')).toBe(first.headers.get('location'));
    const count = await testEnv.DB.prepare("SELECT count(*) AS n FROM registrations WHERE uname = '重试测试'").first<{
      n: number;
    }>();
    expect(count?.n).toBe(1);
  });
});

describe('POST /api/register: refusals keep every value', () => {
  it('a validation error answers 303 back with the values and the failing field (no-JS)', async () => {
    const jar = await jarFor(vcEmail(1308, 'none@demo.test'));
    const res = await post(
      jar,
      ieaeForm({ uname: ' ', ucompany: 'Kept Co.', 'purpose.__other': '__other', 'purpose.other': 'kept text' }),
    );
    expect(res.status).toBe(303);
    const back = `/IEAEForm/21308/${encodeId(1308)}/visitor`;
    expect(res.headers.get('location')).toBe(back);
    const flash = decodeFlash(jar.get(FLASH_COOKIE), back);
    expect(flash?.error).toEqual({ field: 'uname', key: 'form.supplement', text: null });
    expect(flash?.values).toMatchObject({ ucompany: 'Kept Co.', 'purpose.other': 'kept text', industry: 'Energy' });
  });

  it('JSON gets the field, the input to focus and the message', async () => {
    const jar = await jarFor(vcEmail(1308, 'none@demo.test'));
    const reply = (await (await post(jar, ieaeForm({ ucardid: '110105194912310021' }), true)).json()) as RegisterReply;
    expect(reply.data).toEqual({ outcome: 'invalid', field: 'ucardid', name: 'ucardid', message: '证件号码不合法' });
    const privacy = (await (await post(jar, ieaeForm({ privacy: '' }), true)).json()) as RegisterReply;
    expect(privacy.data).toMatchObject({ outcome: 'invalid', field: 'privacy' });
  });

  it('20001 shows the update prompt; "update" resubmits and updates the existing registration', async () => {
    const jar = await jarFor(vcEmail(1308, 'one@demo.test'));
    const form = ieaeForm({ 'ucardid.type': '2', ucardid: 'DEMO-ID-1308-01', uname: '张一新' });
    const res = await post(jar, form);
    expect(res.status).toBe(303);
    const flash = decodeFlash(jar.get(FLASH_COOKIE), `/IEAEForm/21308/${encodeId(1308)}/visitor`);
    expect(flash?.notice).toMatchObject({ key: 'form.updatePrompt' });
    expect(flash?.values['uname']).toBe('张一新');
    const reply = (await (await post(jar, form, true)).json()) as RegisterReply;
    expect(reply.code).toBe(20001);
    expect(reply.data).toMatchObject({ outcome: 'update', noUpdate: `/IEAESearch/21308/${encodeId(1308)}/visitor` });
    const updated = await post(jar, { ...form, update: '1' });
    expect(updated.status).toBe(303);
    expect(euCodeOf(updated.headers.get('location') ?? '')).toBe('IWHBZIMYEOZETLFI');
    expect(await row('IWHBZIMYEOZETLFI')).toMatchObject({ uname: '张一新' });
  });

  it('another refusal shows the server message', async () => {
    // Expo 1108's e-mail-only form through a url the reference does not know.
    const jar = await jarFor(vcEmail(1108, 'none@demo.test'));
    const reply = (await (
      await post(
        jar,
        { route: 'IndonesianForm', path: `29999/${encodeId(1108)}/visitor`, idem: 'z'.repeat(24), uname: 'X' },
        true,
      )
    ).json()) as RegisterReply;
    expect(reply.data?.outcome).toBe('refused');
    expect(reply.msg).toContain('29999');
  });
});

describe('second, supplement and repair forms', () => {
  it('the Jakarta second form loads its saved values and completes the second form', async () => {
    const up = upstreamFor(testEnv);
    const [config, saved] = await Promise.all([
      up.getCustomerId({ expoId: 1178, fId: 31178 }),
      up.queryFromUserExpoId({ expoId: 1178, userId: 100042, urlsId: 31178 }),
    ]);
    const fields = parseFormDefinition(config.ok ? config.data.customerForm : null).fields;
    expect(postedFromData(fields, saved.ok ? saved.data : {})).toEqual({
      industry: 'Energy',
      purpose: 'Sourcing',
      'visitDays.0': 'day1',
    });

    const jar = await jarFor(vcEmail(1178, 'second@demo.test', { secondForm: { userId: 100042, urlsId: 31178 } }));
    const res = await post(jar, {
      route: 'JakartaSecondForm',
      path: `21178/${encodeId(1178)}/visitor`,
      idem: 's'.repeat(24),
      industry: 'Food',
      purpose: '__other',
      'purpose.other': 'Press',
      'visitDays.1': 'day2',
      privacy: 'on',
    });
    expect(res.status).toBe(303);
    const location = res.headers.get('location') ?? '';
    expect(location).toMatch(/^\/JakartaSuccess\//);
    expect(euCodeOf(location)).toBe('SW3YFTRJV5OY5PTJ');
    const second = await testEnv.DB.prepare(
      'SELECT completed, saved_values FROM second_forms WHERE user_id = 100042',
    ).first<{ completed: number; saved_values: string }>();
    expect(second?.completed).toBe(1);
    expect(JSON.parse(second?.saved_values ?? '{}')).toMatchObject({
      industry: 'Food',
      purpose: 'Press',
      visitDays: ['day2'],
    });
  });

  it('a second form needs the second-form reference of the verified contact', async () => {
    const res = await post(await jarFor(vcEmail(1179, 'second@demo.test')), {
      route: 'BangkokSecondForm',
      path: `21179/${encodeId(1179)}/visitor`,
      idem: 'b'.repeat(24),
      industry: 'Food',
      purpose: 'Sourcing',
      privacy: 'on',
    });
    expect(res.headers.get('location')).toBe(`/BangkokSearch/21179/${encodeId(1179)}/visitor`);
  });

  it('the Jakarta supplement completes the existing registration (its activity set)', async () => {
    const jar = await jarFor(vcEmail(1178, 'supplement@demo.test'));
    const res = await post(jar, {
      route: 'JakartaSupplement',
      path: `21178/${encodeId(1178)}/visitor`,
      idem: 'p'.repeat(24),
      uname: 'Rina Supplement',
      ucompany: 'Demo Co.',
      industry: 'Energy',
      'purpose.2': 'Learning',
      privacy: 'on',
    });
    expect(res.status).toBe(303);
    expect(euCodeOf(res.headers.get('location') ?? '')).toBe('EFYX25JFC5L26WYL');
    expect(await row('EFYX25JFC5L26WYL')).toMatchObject({ activity_id: 11781 });
  });

  it('the repair form completes the named registration of the same contact only', async () => {
    const form = {
      route: 'repairForm',
      path: `20785/${encodeId(785)}/visitor`,
      idem: 'r'.repeat(24),
      e: 'ISTVCKXJWIH77RCS',
      uname: '缺资料',
      ucompany: '补全公司',
      ucompanyTitle: '经理',
      'ucardid.type': '1',
      ucardid: idNumber('11010519800101001'),
    };
    const other = await post(await jarFor(vcEmail(785, 'none@demo.test')), form, true);
    expect(((await other.json()) as RegisterReply).data?.outcome).toBe('refused');
    const res = await post(await jarFor(vcEmail(785, 'repair@demo.test')), form);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/success\//);
    expect(euCodeOf(res.headers.get('location') ?? '')).toBe('ISTVCKXJWIH77RCS');
    expect(await row('ISTVCKXJWIH77RCS')).toMatchObject({ ucompany: '补全公司', ucompany_title: '经理' });
  });
});

describe('POST /api/camera', () => {
  const jpeg = '/9j/4AAQSkZJRgABAQAAAQABAAD' + 'A'.repeat(40);
  it('answers no fields and home.cameraTip when nothing is recognised (no OCR_URL)', async () => {
    const jar = await jarFor(vcEmail(2002, 'none@demo.test'));
    const reply = (await (
      await post(jar, { route: 'form', path: `22002/${encodeId(2002)}/visitor`, image: jpeg }, true, '/api/camera')
    ).json()) as { code: number; msg: string; data: { fields: object } };
    expect(reply).toMatchObject({ code: 200, data: { fields: {} } });
    expect(reply.msg).toBeTruthy();
  });
  it('takes images only, and only from a verified contact', async () => {
    const jar = await jarFor(vcEmail(2002, 'none@demo.test'));
    const pdf = (await (
      await post(
        jar,
        { route: 'form', path: `22002/${encodeId(2002)}/visitor`, image: 'JVBERi0xLjQK' + 'A'.repeat(20) },
        true,
        '/api/camera',
      )
    ).json()) as { code: number };
    expect(pdf.code).toBe(400);
    const anon = await post(
      await jarFor(null),
      { route: 'form', path: `22002/${encodeId(2002)}/visitor`, image: jpeg },
      true,
      '/api/camera',
    );
    expect(anon.status).toBe(401);
  });
});
