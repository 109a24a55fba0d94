/**
 * The haisi family's four calls (spec §7 queryHaiPhone, addHaiUserInfo, addHaiUserInfoNew,
 * addHaiExpoUserNew; our reading: docs/upstream.md "Haisi") at the reference upstream on D1,
 * and through the edge (POST /api/lookup and /api/register from the `/haisi…` pages), with the
 * attacker's tries: another contact's registration, 40 posts at once, huge and malformed
 * bodies, cross-site posts, HEAD and GET.
 */
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../functions/env';
import { CONTACT_COOKIE, signContact, type VerifiedContact } from '../../src/lib/lookup/contact-cookie';
import { decodeId, encodeId } from '../../src/lib/util/ids';
import type { RegisterReply } from '../../src/islands/form-types';
import { app, BASE, fastEnv, Jar, LIFTED_LIMITS, lookupJson, page, postForm, postJson, sendAndRead, SECRET, spyUpstream, testEnv } from './api-lookup.helpers';
import { call, dec, enc, outboxCode, send } from './reference.helpers';

const EXPO = 2616;
const URL_ID = 22616;
const EID = encodeId(EXPO);
const IDS = `${URL_ID}/${EID}/visitor`;
/** haisi@demo.test's registration (seed/0006_haisi.sql). */
const SEEDED = 'XJMUUSP2GJGNYZW3';
let n = 0;
const fresh = (tag: string) => `haisi-${tag.toLowerCase()}-${Date.now()}-${n++}@demo.test`;

const row = (euCode: string) => testEnv.DB.prepare('SELECT * FROM registrations WHERE eu_code = ?').bind(euCode).first<Record<string, unknown>>();
const rowsOf = (email: string) => testEnv.DB.prepare('SELECT * FROM registrations WHERE owner_email = ? AND expo_id = ?').bind(email, EXPO).all<Record<string, unknown>>();

/** A Hai registration call at the reference, `data` encrypted with the expo's key. */
async function addHai(path: string, values: Record<string, unknown>, expoId = EXPO, urlsId = URL_ID) {
  return call(`/CustomerUserInfo/${path}`, { expoId, body: { expoId, urlsId, data: await enc(JSON.stringify(values), expoId) } });
}

/** queryHaiPhone at the reference with a code sent to the contact. */
async function queryHai(email: string, expoId = EXPO, more: Record<string, string> = {}) {
  expect((await send('getemailCode', expoId, email)).code).toBe(200);
  const captcha = await outboxCode(email);
  const query = { expoId: await enc(expoId, expoId), email: await enc(email, expoId), captcha: await enc(captcha, expoId), ...more };
  return call('/CustomerUserInfo/queryHaiPhone', { expoId, query, env: fastEnv });
}

describe('reference: queryHaiPhone', () => {
  it('finds the registrations the proven contact owns, encrypted like queryUserExpoId', async () => {
    const r = await queryHai('haisi@demo.test');
    expect(r.code).toBe(200);
    const records = (await dec(r.data, EXPO)) as { euCode: string; uname: string }[];
    expect(records.map((x) => x.euCode)).toEqual([SEEDED]);
  });

  it('a fresh contact finds nothing; a wrong code is refused', async () => {
    const email = fresh('q');
    const r = await queryHai(email);
    expect(r.code).toBe(200);
    expect(await dec(r.data, EXPO)).toEqual([]);
    const wrong = await call('/CustomerUserInfo/queryHaiPhone', {
      expoId: EXPO,
      query: { expoId: await enc(EXPO, EXPO), email: await enc('haisi@demo.test', EXPO), captcha: await enc('000000', EXPO) },
    });
    expect(wrong.code).toBe(401);
  });

  it('a phone is looked up the same way (the one call takes either contact)', async () => {
    expect((await send('getCaptcha', EXPO, '13800002616')).code).toBe(200);
    const captcha = await outboxCode('+8613800002616');
    const query = { expoId: await enc(EXPO, EXPO), phone: await enc('+8613800002616', EXPO), captcha: await enc(captcha, EXPO) };
    const r = await call('/CustomerUserInfo/queryHaiPhone', { expoId: EXPO, query, env: fastEnv });
    expect(r.code, JSON.stringify(r)).toBe(200);
    expect(await dec(r.data, EXPO)).toEqual([]);
  });

  it('answers only for a haisi expo, and only with exactly one contact', async () => {
    const other = await call('/CustomerUserInfo/queryHaiPhone', { expoId: 1308, query: { expoId: await enc(1308, 1308), email: await enc('one@demo.test', 1308), captcha: await enc('1', 1308) } });
    expect(other.code).toBe(404);
    const both = await call('/CustomerUserInfo/queryHaiPhone', {
      expoId: EXPO,
      query: { expoId: await enc(EXPO, EXPO), email: await enc('haisi@demo.test', EXPO), phone: await enc('+8613800000000', EXPO), captcha: await enc('1', EXPO) },
    });
    expect(both.code).toBe(400);
  });
});

describe('reference: addHaiUserInfo, addHaiUserInfoNew, addHaiExpoUserNew', () => {
  const form = (email: string, more: Record<string, unknown> = {}) => ({ uname: '海丝测试', ucompany: '测试公司', email, checkType: 2, privacy: ['1'], ...more });

  it('addHaiUserInfo and addHaiUserInfoNew register for the proven contact, tagged with the call', async () => {
    for (const path of ['addHaiUserInfo', 'addHaiUserInfoNew']) {
      const email = fresh(path);
      const r = await addHai(path, form(email));
      expect(r.code, JSON.stringify(r)).toBe(200);
      const { euCode } = r.data as { euCode: string };
      expect(await row(euCode)).toMatchObject({ expo_id: EXPO, owner_email: email, hai_call: path });
    }
  });

  it('a registration call refuses an update, the update call refuses a new registration', async () => {
    expect((await addHai('addHaiUserInfo', form(fresh('u'), { update: true }))).code).toBe(400);
    expect((await addHai('addHaiUserInfoNew', form(fresh('u'), { update: true }))).code).toBe(400);
    expect((await addHai('addHaiExpoUserNew', form(fresh('u')))).code).toBe(400);
    expect((await addHai('addHaiUserInfo', form(fresh('u'), { euCode: SEEDED }))).code).toBe(400);
  });

  it('addHaiExpoUserNew updates the proven contact’s own registration', async () => {
    const email = fresh('own');
    const first = await addHai('addHaiUserInfo', form(email, { ucardid: 'HAI-OWN-1' }));
    const { euCode } = first.data as { euCode: string };
    expect((await addHai('addHaiUserInfo', form(email, { ucardid: 'HAI-OWN-1', uname: '第二次' }))).code).toBe(20001);
    const upd = await addHai('addHaiExpoUserNew', form(email, { ucardid: 'HAI-OWN-1', uname: '已更新', update: true }));
    expect(upd.code).toBe(200);
    expect((upd.data as { euCode: string }).euCode).toBe(euCode);
    expect(await row(euCode)).toMatchObject({ uname: '已更新' });
  });

  it('another contact’s registration is never changed: an "update" by someone else makes their own', async () => {
    const before = await row(SEEDED);
    const attacker = fresh('attacker');
    const r = await addHai('addHaiExpoUserNew', form(attacker, { uname: '攻击者', update: true }));
    expect(r.code).toBe(200);
    expect((r.data as { euCode: string }).euCode).not.toBe(SEEDED);
    expect(await row(SEEDED)).toEqual(before);
  });

  it('answers only for a haisi expo', async () => {
    for (const path of ['addHaiUserInfo', 'addHaiUserInfoNew', 'addHaiExpoUserNew']) {
      expect((await addHai(path, form(fresh('x')), 1308, 21308)).code).toBe(404);
    }
  });
});

// ---- Through the edge ----

const HAISI = page(EXPO, URL_ID, 'haisi');
const HAISI_EN = page(EXPO, URL_ID, 'haisiEn');

async function provenJar(email: string): Promise<Jar> {
  const vc: VerifiedContact = { expoId: EXPO, contact: email, checkType: 2 };
  return new Jar({ [CONTACT_COOKIE]: encodeURIComponent(await signContact(vc, SECRET)) });
}
const formPost = (route: 'haisiForm' | 'haisiFormEn', more: Record<string, string> = {}) => ({
  route,
  path: IDS,
  idem: crypto.randomUUID().replace(/-/g, ''),
  f: '',
  uname: '海丝访客',
  ucompany: '海丝公司',
  privacy: 'on',
  ...more,
});
const euCodeOf = (location: string) => decodeId(new URL(location, BASE).pathname.split('/')[3] ?? '') ?? '';

describe('edge: the haisi lookup asks queryHaiPhone and stays in the family', () => {
  it.each([
    [HAISI, 'haisiSuccess'],
    [HAISI_EN, 'haisiSuccessEn'],
  ])('the seeded registration leads to its %s credential', async (p, success) => {
    const jar = new Jar();
    const typed = { checkType: '2' as const, email: 'haisi@demo.test' };
    const code = await sendAndRead(p, typed, jar);
    const spy = spyUpstream();
    const { reply } = await lookupJson({ ...p, ...typed, code }, { jar, env: fastEnv });
    expect(spy.paths()).toContain('/custom/CustomerUserInfo/queryHaiPhone');
    expect(spy.paths()).not.toContain('/custom/customFrom/queryEmailUserExpoId');
    expect(reply.data).toMatchObject({ outcome: 'navigate', replace: true });
    const location = reply.data?.outcome === 'navigate' ? reply.data.location : '';
    expect(location.startsWith(`/${success}/`)).toBe(true);
    expect(euCodeOf(location)).toBe(SEEDED);
  });

  it('a fresh contact goes to the family’s form (no JavaScript: 303)', async () => {
    const jar = new Jar();
    const typed = { checkType: '2' as const, email: fresh('lookup') };
    const code = await sendAndRead(HAISI_EN, typed, jar);
    const res = await postForm('/api/lookup', { ...HAISI_EN, ...typed, code }, { jar, env: fastEnv });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/haisiFormEn/${IDS}?found=0`);
  });
});

describe('edge: registering from the haisi forms', () => {
  it.each([
    ['haisiForm', 'addHaiUserInfo', 'haisiSuccess'],
    ['haisiFormEn', 'addHaiUserInfoNew', 'haisiSuccessEn'],
  ] as const)('%s posts %s and goes to %s', async (route, callName, success) => {
    const email = fresh(route);
    const spy = spyUpstream();
    const res = await postJson('/api/register', formPost(route), { jar: await provenJar(email), env: fastEnv });
    const reply = (await res.json()) as RegisterReply;
    expect(reply.code, JSON.stringify(reply)).toBe(200);
    expect(spy.paths()).toContain(`/custom/CustomerUserInfo/${callName}`);
    expect(spy.paths()).not.toContain('/custom/CustomerUserInfo/addUserInfo');
    const location = reply.data?.outcome === 'navigate' ? reply.data.location : '';
    expect(location.startsWith(`/${success}/`)).toBe(true);
    expect(await row(euCodeOf(location))).toMatchObject({ owner_email: email, hai_call: callName, email });
  });

  it('without a verified contact nothing reaches the upstream: the form goes to the family’s lookup', async () => {
    const spy = spyUpstream();
    const res = await postForm('/api/register', formPost('haisiFormEn'), { env: fastEnv });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/haisiSearchEn/${IDS}?next=${encodeURIComponent(`/haisiFormEn/${IDS}`)}`);
    expect(spy.paths().filter((p) => p.includes('addHai'))).toEqual([]);
  });

  it('another contact’s row: an attacker posting the victim’s e-mail and "update" changes nothing of it', async () => {
    const before = await row(SEEDED);
    const attacker = fresh('attacker-edge');
    const spy = spyUpstream();
    const res = await postJson('/api/register', formPost('haisiForm', { email: 'haisi@demo.test', update: '1', uname: '冒名' }), { jar: await provenJar(attacker), env: fastEnv });
    const reply = (await res.json()) as RegisterReply;
    expect(reply.code).toBe(200);
    expect(spy.paths()).toContain('/custom/CustomerUserInfo/addHaiExpoUserNew');
    expect(await row(SEEDED)).toEqual(before);
    const mine = (await rowsOf(attacker)).results;
    expect(mine).toHaveLength(1);
    // the verified contact is what is sent, whatever was typed
    expect(mine[0]).toMatchObject({ owner_email: attacker, email: attacker });
  });

  it('40 posts of one contact at once: exactly the per-contact limit reaches the upstream', async () => {
    const env: AppEnv = { ...testEnv, ...LIFTED_LIMITS, LIMIT_REGISTERS_PER_CONTACT_HOUR: '3' };
    const email = fresh('burst');
    const jar = await provenJar(email);
    const replies = await Promise.all(Array.from({ length: 40 }, (_, i) => postJson('/api/register', formPost('haisiFormEn', { uname: `Burst ${i}` }), { jar, env })));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(37);
    expect((await rowsOf(email)).results).toHaveLength(3);
  }, 30_000);

  it('a huge body answers 413 and a malformed one 400, with a sentence; nothing registered', async () => {
    const email = fresh('huge');
    const jar = await provenJar(email);
    const huge = await app.request(
      `${BASE}/api/register`,
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() }, body: new URLSearchParams(formPost('haisiForm', { pad: 'x'.repeat(200 * 1024) })) },
      fastEnv,
    );
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { msg: string }).msg).toMatch(/too large/);
    const broken = await app.request(`${BASE}/api/register`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: jar.header() }, body: '{"route":' }, fastEnv);
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { msg: string }).msg.length).toBeGreaterThan(5);
    expect((await rowsOf(email)).results).toHaveLength(0);
  });

  it('a cross-site post is refused (403) before anything is read or set', async () => {
    const email = fresh('cross');
    const jar = await provenJar(email);
    for (const headers of [{ origin: 'https://evil.example' }, { referer: 'https://evil.example/x' }, { origin: 'null' }]) {
      const res = await app.request(
        `${BASE}/api/register`,
        { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header(), ...headers }, body: new URLSearchParams(formPost('haisiForm')), redirect: 'manual' },
        fastEnv,
      );
      expect(res.status).toBe(403);
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    expect((await rowsOf(email)).results).toHaveLength(0);
  });

  it('GET and HEAD on the register route do not register', async () => {
    for (const method of ['GET', 'HEAD']) {
      const res = await app.request(`${BASE}/api/register`, { method }, fastEnv);
      expect([404, 405]).toContain(res.status);
    }
  });
});
