/**
 * Issue 19 items 1 and 2 ("Identity"), as the attacker runs them: the whole app in-process (edge
 * API + reference upstream on D1), every contact proven the way a browser proves it (send-code,
 * the outbox, lookup), every registration posted as the form posts it.
 *
 * 1. A typed contact is data, never an identity: a contact typed into someone else's form does
 *    not make their registration the typer's (lookup, upload, update prompt, update).
 * 2. `/api/register` answers a collision with another contact's registration exactly as it
 *    answers no collision (reply and the statements the upstream runs), an ID number typed by
 *    someone else never blocks its owner, and registrations are limited per verified contact
 *    and per address.
 *
 * docs/upstream.md "Who owns a registration" is the rule; docs/security.md "Identity" the figures.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppEnv } from '../../functions/env';
import { CONTACT_COOKIE, signContact, type VerifiedContact } from '../../src/lib/lookup/contact-cookie';
import { decodeFlash, FLASH_COOKIE } from '../../src/lib/page/flash';
import { decodeId, encodeId } from '../../src/lib/util/ids';
import { idCheckChar } from '../../src/lib/form/id-number';
import type { RegisterReply } from '../../src/islands/form-types';
import type { HealthReply } from '../../src/lib/actions/replies';
import { JPEG_1X1 } from '../unit/image-fixtures';
import { BIND_COOKIE } from '../../src/lib/security/friction';
import {
  app,
  BASE,
  fastEnv,
  Jar,
  LIFTED_LIMITS,
  lookupJson,
  outboxCode,
  outboxKey,
  page,
  SECRET,
  sendJson,
  testEnv,
  TIGHT_PER_ADDRESS,
  vcOf,
  type Typed,
} from './api-lookup.helpers';

afterEach(() => {
  vi.restoreAllMocks();
});

/** This run's own contacts and addresses: the limits' counter may outlive one run. */
const RUN = Math.floor(Math.random() * 0xffff).toString(16);
let seq = 0;
const freshIp = () => `2001:db8:${RUN}:${(++seq).toString(16)}::1`;
const freshEmail = (who: string) => `${who}-${RUN}-${++seq}@demo.test`;
/** A Thai mobile number (+66 8x) no seed contact uses. */
const freshThaiMobile = () => `8${String(Math.floor(Math.random() * 1e4)).padStart(4, '0')}${String(++seq).padStart(4, '0')}`;

/** The hidden fields and the credential path's euCode (`/{Variant}Success/{u}/{e}/{x}/{fId}`). */
const euCodeOf = (location: string) => decodeId(new URL(location, BASE).pathname.split('/')[3] ?? '') ?? '';

interface Who {
  jar: Jar;
  env: AppEnv;
  ip: string;
}
const person = (env: AppEnv = fastEnv): Who => ({ jar: new Jar(), env, ip: freshIp() });

/** Proves a contact on a lookup page as a browser does (send-code, the code from the outbox, lookup). */
async function prove(who: Who, p: ReturnType<typeof page>, typed: Typed) {
  // A code is bound to the browser it was sent to (issue 19 item 6): the lookup carries that
  // binding; the send's own jar keeps the 60 s resend wait out of this person's next proof.
  const sendJar = new Jar();
  const sent = await sendJson({ ...p, ...typed }, { jar: sendJar, env: who.env });
  who.jar.adopt(sendJar, BIND_COOKIE);
  expect(sent.reply.code, JSON.stringify(sent.reply)).toBe(200);
  const code = await outboxCode(outboxKey(typed));
  const { res, reply } = await lookupJson({ ...p, ...typed, code }, { jar: who.jar, env: who.env });
  expect(res.status).toBe(200);
  return { reply, vc: await vcOf(res) };
}

/** POSTs a registration form as the island (JSON) or a browser without JavaScript (form) does. */
async function register(who: Who, body: Record<string, string>, json = true, env = who.env): Promise<Response> {
  const headers: Record<string, string> = json
    ? { 'content-type': 'application/json', accept: 'application/json' }
    : { 'content-type': 'application/x-www-form-urlencoded' };
  headers['cf-connecting-ip'] = who.ip;
  const cookie = who.jar.header();
  if (cookie) headers['cookie'] = cookie;
  const res = await app.request(
    `${BASE}/api/register`,
    { method: 'POST', headers, body: json ? JSON.stringify(body) : new URLSearchParams(body), redirect: 'manual' },
    env,
  );
  who.jar.store(res);
  return res;
}

async function registered(who: Who, body: Record<string, string>): Promise<string> {
  const reply = (await (await register(who, body)).json()) as RegisterReply;
  expect(reply.code, JSON.stringify(reply)).toBe(200);
  expect(reply.data?.outcome).toBe('navigate');
  return euCodeOf(reply.data?.outcome === 'navigate' ? reply.data.location : '');
}

const row = (euCode: string) =>
  testEnv.DB.prepare('SELECT * FROM registrations WHERE eu_code = ?').bind(euCode).first<Record<string, unknown>>();

// Expo 2012: a generic lookup with the health upload (seed/0004_seats.sql); its form asks for
// name, company and e-mail. The page offers e-mail only; the attacker posts a phone lookup by hand.
const HEALTH = page(2012, 22012, '');
const healthForm = (more: Record<string, string>) => ({ route: 'form', path: `22012/${encodeId(2012)}/visitor`, idem: '', f: '', ...more });
// A whole 1×1 JPEG: uploads are read whole since issue 19 item 4 (src/lib/util/image-clean.ts).
const JPEG = JPEG_1X1;

async function upload(who: Who, euCode: string): Promise<Response> {
  const form = new FormData();
  for (const [k, v] of Object.entries({ expoId: '2012', urlId: '22012', euCode, kind: '1', back: '/' })) form.set(k, v);
  form.set('file', new Blob([JPEG], { type: 'image/jpeg' }), 'h.jpg');
  return app.request(`${BASE}/api/health`, { method: 'POST', headers: { accept: 'application/json', cookie: who.jar.header() }, body: form }, who.env);
}
const healthGet = (who: Who, path: string, method = 'GET') =>
  app.request(`${BASE}${path}`, { method, headers: { accept: 'application/json', cookie: who.jar.header() } }, who.env);
const uploadsOf = async (euCode: string) =>
  (await testEnv.DB.prepare('SELECT count(*) AS n FROM health_uploads WHERE eu_code = ?').bind(euCode).first<{ n: number }>())?.n ?? 0;

describe('issue 19 item 1: an e-mail typed into the form is not an identity', () => {
  it("a phone-verified attacker types the victim's e-mail: the victim's lookup finds nothing of theirs, no upload crosses", async () => {
    const attacker = person();
    const victim = person();
    const phoneA: Typed = { checkType: '1', areaCode: '+66', phone: freshThaiMobile() };
    const victimEmail: Typed = { checkType: '2', email: freshEmail('victim') };

    // The attacker proves phone A and registers with the victim's e-mail typed into the form.
    await prove(attacker, HEALTH, phoneA);
    const attackers = await registered(attacker, healthForm({ uname: 'Mallory', ucompany: 'Evil Ltd.', email: victimEmail.email }));
    expect(await row(attackers)).toMatchObject({ email: victimEmail.email });

    // The victim proves the e-mail: no registration, so the registration form; the attacker's
    // code is nowhere in the answer or the signed cookie.
    const { reply, vc } = await prove(victim, HEALTH, victimEmail);
    expect(reply.data).toMatchObject({ outcome: 'navigate', location: `/form/22012/${encodeId(2012)}/visitor?found=0` });
    expect(JSON.stringify(reply)).not.toContain(encodeId(attackers));
    expect(vc?.codes ?? []).not.toContain(attackers);

    // The victim cannot upload to, list or read the attacker's row.
    expect((await upload(victim, attackers)).status).toBe(401);
    expect((await healthGet(victim, `/api/health/list?expoId=2012&euCode=${attackers}`)).status).toBe(401);
    expect(await uploadsOf(attackers)).toBe(0);

    // The victim registers: a new row the victim's e-mail owns, and uploads to it.
    const victims = await registered(victim, healthForm({ uname: 'Victoria', ucompany: 'Real Co.', email: victimEmail.email }));
    expect(victims).not.toBe(attackers);
    expect(await row(victims)).toMatchObject({ uname: 'Victoria', owner_email: victimEmail.email, owner_phone: null });
    // A fresh lookup (as the credential page's owner check needs) now lists the victim's own row.
    const again = await prove(person(), HEALTH, victimEmail);
    expect(again.vc?.codes).toEqual([victims]);
    victim.jar = new Jar({ [CONTACT_COOKIE]: encodeURIComponent(await signContact(again.vc as VerifiedContact, SECRET)) });
    const up = (await (await upload(victim, victims)).json()) as HealthReply;
    expect(up.code).toBe(200);
    const id = String(up.data?.id);

    // The attacker looks up by phone A again: only their own row, and the victim's upload is out of reach.
    const back = await prove(attacker, HEALTH, phoneA);
    expect(back.vc?.codes).toEqual([attackers]);
    const q = `expoId=2012&euCode=${victims}`;
    expect((await healthGet(attacker, `/api/health/list?${q}`)).status).toBe(401);
    expect((await healthGet(attacker, `/api/health/image?${q}&id=${id}`)).status).toBe(401);
    expect((await healthGet(attacker, `/api/health/item?${q}&id=${id}`, 'DELETE')).status).toBe(401);
    expect(await uploadsOf(victims)).toBe(1);
    expect(await uploadsOf(attackers)).toBe(0);
    // Who owns what (migration 0005): each row its proven contact, the typed e-mail nobody.
    expect(await row(attackers)).toMatchObject({ owner_phone: `+66${phoneA.phone}`, owner_email: null });
  }, 30_000);
});

// Expo 1261 (New Thai, §2.2): phone and e-mail lookups; its form asks for e-mail (required) and phone.
const THAI = page(1261, 21261, 'ThaiNew');
const thaiForm = (more: Record<string, string>) => ({
  route: 'ThaiNewForm',
  path: `21261/${encodeId(1261)}/visitor`,
  pageLang: 'en',
  idem: crypto.randomUUID().replace(/-/g, ''),
  f: '',
  ucompany: 'Co.',
  industry: 'Energy',
  'purpose.0': 'Sourcing',
  visitDate: '20/05/2026',
  privacy: 'on',
  ...more,
});

describe("issue 19 item 1: a phone typed into the form is not an identity", () => {
  it("an e-mail-verified attacker types the victim's phone: the victim gets no update prompt and a row of their own", async () => {
    const attacker = person();
    const victim = person();
    const emailA: Typed = { checkType: '2', email: freshEmail('mallory') };
    const national = freshThaiMobile();
    const victimPhone: Typed = { checkType: '1', areaCode: '+66', phone: national };

    await prove(attacker, THAI, emailA);
    const attackers = await registered(
      attacker,
      thaiForm({ uname: 'Mallory', email: emailA.email, phone: national, 'phone.areaCode': '+66' }),
    );
    const planted = await row(attackers);
    expect(planted).toMatchObject({ phone: `+66${national}` });

    // The victim proves the phone: nothing of the attacker's, so the registration form.
    const { reply, vc } = await prove(victim, THAI, victimPhone);
    expect(reply.data).toMatchObject({ outcome: 'navigate', location: `/ThaiNewForm/21261/${encodeId(1261)}/visitor?found=0` });
    expect(vc?.codes ?? []).not.toContain(attackers);

    // The victim registers (the phone locked to the proven one): no 20001 "update?" prompt, a new row.
    const form = thaiForm({ uname: 'Victoria', email: freshEmail('victoria-typed') });
    const first = (await (await register(victim, form)).json()) as RegisterReply;
    expect(first.code).toBe(200);
    expect(first.data?.outcome).toBe('navigate');
    const victims = euCodeOf(first.data?.outcome === 'navigate' ? first.data.location : '');
    expect(victims).not.toBe(attackers);
    expect(await row(victims)).toMatchObject({ uname: 'Victoria', phone: `+66${national}` });

    // Even a hand-made "update" never writes the victim's name into the attacker's row.
    const forced = (await (await register(victim, { ...form, uname: 'Victoria Forced', update: '1', idem: 'x'.repeat(24) })).json()) as RegisterReply;
    expect(forced.code).toBe(200);
    expect(await row(attackers)).toEqual(planted);

    // The attacker's own lookup never shows the victim's row.
    const back = await prove(attacker, THAI, emailA);
    expect(back.vc?.codes).toEqual([attackers]);
    // Who owns what (migration 0005): each row its proven contact, the typed phone nobody.
    expect(await row(attackers)).toMatchObject({ owner_email: emailA.email, owner_phone: null });
    expect(await row(victims)).toMatchObject({ owner_phone: `+66${national}`, owner_email: null });
  }, 30_000);
});

// Expo 1308 (IEAE): an ID document is required. Seed: one@demo.test holds DEMO-ID-1308-01.
const IEAE = { route: 'IEAEForm', path: `21308/${encodeId(1308)}/visitor` };
let idSeq = 500;
const nextIdNumber = () => {
  const body = `11010519900101${String(idSeq++).padStart(3, '0')}`;
  return body + idCheckChar(body);
};
const ieaeForm = (more: Record<string, string> = {}) => ({
  ...IEAE,
  idem: crypto.randomUUID().replace(/-/g, ''),
  f: '',
  uname: '测试',
  ucompany: 'Demo Co.',
  'ucardid.type': '1',
  ucardid: nextIdNumber(),
  industry: 'Energy',
  'purpose.0': 'Sourcing',
  privacy: 'on',
  ...more,
});
/** A browser holding a freshly proven contact of expo 1308 (signed as /api/lookup signs it). */
async function provenOn1308(contact: string, env: AppEnv = fastEnv, ip = freshIp()): Promise<Who> {
  const vc: VerifiedContact = { expoId: 1308, contact, checkType: 2 };
  return { jar: new Jar({ [CONTACT_COOKIE]: encodeURIComponent(await signContact(vc, SECRET)) }), env, ip };
}

/** The D1 binding with a count of the statements the reference prepares (the timing class of a reply). */
function countingDb(): { db: D1Database; count: () => number } {
  let n = 0;
  const real = testEnv.DB;
  const db = new Proxy(real, {
    get(target, prop) {
      if (prop === 'prepare') {
        return (sql: string) => {
          n++;
          return target.prepare(sql);
        };
      }
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { db, count: () => n };
}

describe('issue 19 item 2: the registration oracle and ID squatting', () => {
  it('an ID number registered with another contact answers exactly like an unused one (reply, status, statements run)', async () => {
    const probe = async (ucardid: string, cardType: string) => {
      const counter = countingDb();
      const env: AppEnv = { ...fastEnv, DB: counter.db };
      const who = await provenOn1308(freshEmail('prober'), env);
      const res = await register(who, ieaeForm({ 'ucardid.type': cardType, ucardid, uname: 'Probe' }));
      const reply = (await res.json()) as RegisterReply;
      const location = reply.data?.outcome === 'navigate' ? reply.data.location : '';
      // Only the new registration's own code differs between the two answers.
      const shape = JSON.stringify(reply).replace(location, '<credential>');
      return { status: res.status, shape, statements: counter.count(), euCode: euCodeOf(location) };
    };
    const victim = await row('IWHBZIMYEOZETLFI');
    await probe(`WARM-UP-${RUN}`, '2'); // the form config is cached after the first call
    const taken = await probe('DEMO-ID-1308-01', '2'); // one@demo.test's ID number (passport)
    const unused = await probe(`UNUSED-${RUN}`, '2');
    expect(taken.status).toBe(200);
    expect({ ...taken, euCode: '' }, JSON.stringify([taken, unused])).toEqual({ ...unused, euCode: '' });
    expect(taken.euCode).not.toBe('IWHBZIMYEOZETLFI');
    expect(await row('IWHBZIMYEOZETLFI')).toEqual(victim);
  });

  it("someone else's registration of your ID number never blocks you (ID-required expo), and theirs stays theirs", async () => {
    const id = nextIdNumber();
    const squatter = await provenOn1308(freshEmail('squatter'));
    const squatted = await registered(squatter, ieaeForm({ ucardid: id, uname: 'Squatter' }));
    const owner = await provenOn1308(freshEmail('owner'));
    const res = await register(owner, ieaeForm({ ucardid: id, uname: '真正的人' }), false);
    expect(res.status).toBe(303);
    const own = euCodeOf(res.headers.get('location') ?? '');
    expect(own).not.toBe(squatted);
    expect(await row(own)).toMatchObject({ uname: '真正的人', ucardid: id });
    expect(await row(squatted)).toMatchObject({ uname: 'Squatter', ucardid: id });
    // The owner's own registration still answers the 20001 update prompt (spec §5).
    // (Another name: an identical repeat within a minute answers the first registration again.)
    const again = (await (await register(owner, ieaeForm({ ucardid: id, uname: '真正的人二' }))).json()) as RegisterReply;
    expect(again.code).toBe(20001);
    expect(again.data?.outcome).toBe('update');
  });

  it('limits registrations per verified contact: 20 an hour reach the upstream, the 21st is refused with the wait', async () => {
    const email = freshEmail('flood');
    let refused: Response | null = null;
    for (let i = 0; i < 21; i++) {
      const who = await provenOn1308(email, testEnv); // default limits, a new address each time
      const res = await register(who, ieaeForm({ uname: `Flood ${i}` }));
      if (i < 20) expect(res.status, `registration ${i}`).toBe(200);
      else refused = res;
    }
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(3000);
    const body = (await refused?.json()) as RegisterReply;
    expect(body).toMatchObject({ code: 600, data: null });
    expect(body.msg).toMatch(/\d+/);
    const n = await testEnv.DB.prepare('SELECT count(*) AS n FROM registrations WHERE owner_email = ?').bind(email).first<{ n: number }>();
    expect(n?.n).toBe(20);
  }, 60_000);

  it('limits registrations per address: 60 an hour from one address (the cap set to 60), whatever the contacts', async () => {
    const ip = freshIp();
    const env: AppEnv = { ...testEnv, ...TIGHT_PER_ADDRESS };
    // 60 in batches of 10 at once (a NAT's visitors), then one more.
    const statuses: number[] = [];
    for (let batch = 0; batch < 6; batch++) {
      const replies = await Promise.all(
        Array.from({ length: 10 }, async (_, i) =>
          register(await provenOn1308(freshEmail('nat'), env, ip), ieaeForm({ uname: `Nat ${batch}-${i}` })),
        ),
      );
      statuses.push(...replies.map((r) => r.status));
    }
    expect(statuses).toEqual(Array(60).fill(200));
    expect((await register(await provenOn1308(freshEmail('nat'), env, ip), ieaeForm())).status).toBe(429);
    // Another address is not affected.
    expect((await register(await provenOn1308(freshEmail('nat'), testEnv), ieaeForm())).status).toBe(200);
  }, 60_000);

  it('40 registrations of one contact at once: exactly the limit reaches the upstream', async () => {
    const env: AppEnv = { ...testEnv, ...LIFTED_LIMITS, LIMIT_REGISTERS_PER_CONTACT_HOUR: '5' };
    const email = freshEmail('burst');
    const replies = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => register(await provenOn1308(email, env), ieaeForm({ uname: `Burst ${i}` }))),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(35);
    const n = await testEnv.DB.prepare('SELECT count(*) AS n FROM registrations WHERE owner_email = ?').bind(email).first<{ n: number }>();
    expect(n?.n).toBe(5);
  }, 30_000);

  it('over the limit without JavaScript: 303 back to the form with every typed value and the wait', async () => {
    const env: AppEnv = { ...testEnv, ...LIFTED_LIMITS, LIMIT_REGISTERS_PER_CONTACT_HOUR: '1' };
    const email = freshEmail('nojs');
    expect((await register(await provenOn1308(email, env), ieaeForm(), false)).status).toBe(303);
    const who = await provenOn1308(email, env);
    const form = ieaeForm({ uname: '保留我', ucompany: '保留公司' });
    const res = await register(who, form, false);
    const back = `/IEAEForm/21308/${encodeId(1308)}/visitor`;
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(back);
    const flash = decodeFlash(who.jar.get(FLASH_COOKIE), back);
    expect(flash?.notice).toMatchObject({ tone: 'error', key: 'limit.attemptsMinutes' });
    expect(flash?.values).toMatchObject({ uname: '保留我', ucompany: '保留公司', ucardid: form.ucardid });
  });

  it('cross-site posts, huge and malformed bodies and HEAD are refused before they count', async () => {
    const env: AppEnv = { ...testEnv, ...LIFTED_LIMITS, LIMIT_REGISTERS_PER_CONTACT_HOUR: '1' };
    const email = freshEmail('victim-budget');
    const who = await provenOn1308(email, env);
    const headers = { 'content-type': 'application/x-www-form-urlencoded', cookie: who.jar.header(), 'cf-connecting-ip': who.ip };
    const cross = await Promise.all(
      Array.from({ length: 40 }, () =>
        app.request(`${BASE}/api/register`, { method: 'POST', headers: { ...headers, origin: 'https://evil.example' }, body: new URLSearchParams(ieaeForm()), redirect: 'manual' }, env),
      ),
    );
    expect(cross.map((r) => r.status)).toEqual(Array(40).fill(403));
    const huge = await app.request(`${BASE}/api/register`, { method: 'POST', headers, body: `uname=${'x'.repeat(1_000_000)}`, redirect: 'manual' }, env);
    expect(huge.status).toBe(413);
    const broken = await app.request(`${BASE}/api/register`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' }, body: '{"route": ', redirect: 'manual' }, env);
    expect(broken.status).toBeLessThan(500);
    const head = await app.request(`${BASE}/api/register`, { method: 'HEAD', headers }, env);
    expect(head.status).toBeGreaterThanOrEqual(400);
    expect(head.status).toBeLessThan(500);
    // The contact's one registration of the hour is still there for the real visitor.
    expect((await register(who, ieaeForm())).status).toBe(200);
  });
});
