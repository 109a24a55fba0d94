/**
 * Issue 14 in workerd, against the reference upstream on D1: the registration form's own
 * window for the verified contact, what a post after it gets (the lookup with `next`, the
 * contact filled in, every value kept in the `draft` cookie), the lookup's way back to the form,
 * every failing field of a no-JS post at once, and the date read in the page language.
 * Cookies are signed here with the test SESSION_SECRET, as /api/lookup and the form page would.
 */
import { describe, expect, it } from 'vitest';
import {
  fastEnv,
  flashOf,
  Jar,
  lookupJson,
  page,
  postForm,
  postJson,
  SECRET,
  sendAndRead,
  setCookie,
  testEnv,
} from './api-lookup.helpers';
import {
  CONTACT_COOKIE,
  CONTACT_COOKIE_MAX_AGE_S,
  FORM_WINDOW_S,
  openFormWindow,
  signContact,
  type VerifiedContact,
} from '../../src/lib/lookup/contact-cookie';
import { decodeFlash, DRAFT_COOKIE } from '../../src/lib/page/flash';
import { encodeId } from '../../src/lib/util/ids';
import type { RegisterReply } from '../../src/islands/form-types';

const EXPO = 1261;
const PATH = `21261/${encodeId(EXPO)}/visitor`;
const FORM = `/ThaiNewForm/${PATH}`;
const LOOKUP = `/ThaiNewSearch/${PATH}`;
const AGAIN = `${LOOKUP}?next=${encodeURIComponent(FORM)}`;
let n = 0;
const uniq = (what: string) => `window-${what}-${Date.now().toString(36)}-${n++}@demo.test`;

/** A complete new-Thai form (no ID document; a date), as a page in `pageLang` posts it. */
const thaiForm = (more: Record<string, string> = {}) => ({
  route: 'ThaiNewForm',
  path: PATH,
  pageLang: 'en',
  idem: crypto.randomUUID().replace(/-/g, ''),
  f: '',
  uname: 'Window Li',
  ucompany: 'Window Co.',
  industry: 'Energy',
  'purpose.0': 'Sourcing',
  visitDate: '20/05/2026',
  privacy: 'on',
  ...more,
});

const vcOf = (contact: string, more: Partial<VerifiedContact> = {}): VerifiedContact => ({ expoId: EXPO, contact, checkType: 2, ...more });

/** A jar holding a verified contact proved `agoMs` ago (and, with `formAtMs`, a form rendered that long ago). */
async function jarProved(vc: VerifiedContact, agoMs: number, formAtMs?: number): Promise<Jar> {
  const jar = new Jar();
  let value = await signContact(vc, SECRET, Date.now() - agoMs);
  if (formAtMs !== undefined) {
    const opened = await openFormWindow(value, SECRET, Date.now() - formAtMs);
    if (!opened) throw new Error('the form window did not open');
    value = opened.value;
  }
  jar.store(new Response(null, { headers: { 'set-cookie': `${CONTACT_COOKIE}=${value}; Path=/` } }));
  return jar;
}

const registered = (reply: RegisterReply) =>
  reply.data?.outcome === 'navigate' && /^\/ThaiNewSuccess\//.test(reply.data.location);

describe('the form window (issue 14)', () => {
  it('a form rendered 8 minutes after the proof still registers at minute 25 (the read window is long over)', async () => {
    const email = uniq('late');
    const jar = await jarProved(vcOf(email), 25 * 60_000, 17 * 60_000);
    const res = await postJson('/api/register', thaiForm(), { jar });
    const reply = (await res.json()) as RegisterReply;
    expect(registered(reply), JSON.stringify(reply)).toBe(true);
  });

  it('without a form render the proof holds 10 minutes, as before', async () => {
    const jar = await jarProved(vcOf(uniq('no-form')), CONTACT_COOKIE_MAX_AGE_S * 1000 + 1000);
    const res = await postJson('/api/register', thaiForm(), { jar });
    const reply = (await res.json()) as RegisterReply;
    expect(reply.code).toBe(401);
    expect(reply.data).toMatchObject({ outcome: 'navigate', location: AGAIN });
  });

  it('past the form window a post is sent back, and nothing is registered', async () => {
    const email = uniq('past');
    // proved 40 minutes ago, the form rendered 9 minutes after: its window closed a minute ago
    const jar = await jarProved(vcOf(email), 40 * 60_000, (FORM_WINDOW_S + 60) * 1000);
    const res = await postJson('/api/register', thaiForm(), { jar });
    expect(((await res.json()) as RegisterReply).code).toBe(401);
    const row = await testEnv.DB.prepare('SELECT count(*) AS n FROM registrations WHERE email = ?').bind(email).first<{ n: number }>();
    expect(row?.n ?? 0).toBe(0);
  });
});

describe('a post after the window: says so, fills the contact in, keeps every value (issue 14)', () => {
  it('no JS: 303 to the lookup with next, the expired notice and the e-mail; the values in the form page\'s draft', async () => {
    const email = uniq('nojs');
    const jar = await jarProved(vcOf(email), 3 * 3600_000);
    const res = await postForm('/api/register', thaiForm({ uname: '过期 李' }), { jar });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(AGAIN);
    const flash = flashOf(res, AGAIN);
    expect(flash?.notice).toMatchObject({ key: 'form.expired', tone: 'info' });
    expect(flash?.values).toEqual({ checkType: '2', email });
    const draft = setCookie(res, DRAFT_COOKIE);
    expect(draft?.attrs['path']).toBe(FORM);
    expect(Number(draft?.attrs['max-age'])).toBe(30 * 60);
    expect(draft?.raw).toMatch(/HttpOnly/i);
    const kept = decodeFlash(decodeURIComponent(draft?.value ?? ''), FORM);
    expect(kept?.values).toMatchObject({ uname: '过期 李', ucompany: 'Window Co.', visitDate: '20/05/2026', privacy: 'on' });
  });

  it('JSON: 401 with the same way back, the flash and the draft', async () => {
    const email = uniq('js');
    const jar = await jarProved(vcOf(email), 3 * 3600_000);
    const res = await postJson('/api/register', thaiForm(), { jar });
    const reply = (await res.json()) as RegisterReply;
    expect(reply.code).toBe(401);
    expect(reply.data).toEqual({ outcome: 'navigate', location: AGAIN, replace: false });
    expect(reply.msg).toMatch(/expired/);
    expect(flashOf(res, AGAIN)?.values).toEqual({ checkType: '2', email });
    expect(setCookie(res, DRAFT_COOKIE)).toBeDefined();
  });

  it('a phone contact comes back as its area code and national number', async () => {
    const jar = await jarProved(vcOf('+66812345678', { checkType: 1, areaCode: '+66' }), 3 * 3600_000);
    const res = await postForm('/api/register', thaiForm(), { jar });
    expect(flashOf(res, AGAIN)?.values).toEqual({ checkType: '1', areaCode: '+66', phone: '812345678' });
  });

  it.each([
    ['no cookie', async () => new Jar()],
    ['a cookie signed with another secret', async () => {
      const jar = new Jar();
      const forged = await signContact(vcOf('victim@demo.test'), 'another-secret-of-32-characters!', Date.now() - 3 * 3600_000);
      jar.store(new Response(null, { headers: { 'set-cookie': `${CONTACT_COOKIE}=${forged}; Path=/` } }));
      return jar;
    }],
    ['another expo\'s expired cookie', async () => jarProved({ expoId: 1308, contact: 'other@demo.test', checkType: 2 }, 3 * 3600_000)],
    ['an expired bypass cookie', async () => jarProved(vcOf('bypass@demo.test', { bypass: true }), 3 * 3600_000)],
  ])('%s: asked to verify (with next), no contact filled in', async (_what, make) => {
    const res = await postForm('/api/register', thaiForm(), { jar: await make() });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(AGAIN);
    const flash = flashOf(res, AGAIN);
    expect(flash?.notice?.key).toBe('form.verifyFirst');
    expect(flash?.values).toEqual({});
  });

  it('a registration clears the draft', async () => {
    const jar = await jarProved(vcOf(uniq('clears')), 60_000);
    const res = await postForm('/api/register', thaiForm(), { jar });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/ThaiNewSuccess\//);
    const draft = setCookie(res, DRAFT_COOKIE);
    expect(draft?.value).toBe('');
    expect(draft?.attrs['path']).toBe(FORM);
  });
});

describe('the lookup returns to the form (next, issue 14)', () => {
  const base = page(EXPO, 21261, 'ThaiNew', { back: AGAIN });

  it('a new code leads back to the form page named by next', async () => {
    const email = uniq('next');
    const jar = new Jar();
    const code = await sendAndRead(base, { checkType: '2', email }, jar);
    const { reply } = await lookupJson({ ...base, checkType: '2', email, code, next: FORM }, { jar, env: fastEnv });
    expect(reply.data).toMatchObject({ outcome: 'navigate', location: FORM });
  });

  it.each([
    ['another expo\'s form', `/IEAEForm/21308/${encodeId(1308)}/visitor`],
    ['another site', 'https://evil.example/ThaiNewForm/21261/MTI2MQ/visitor'],
    ['a protocol-relative path', `//evil.example${FORM}`],
    ['a second form (the lookup finds it itself)', `/BangkokSecondForm/21179/${encodeId(1179)}/visitor`],
    ['a form path with another query', `${FORM}?x=1`],
  ])('%s is ignored: the lookup\'s own outcome', async (_what, next) => {
    const email = uniq('evil');
    const jar = new Jar();
    const code = await sendAndRead(base, { checkType: '2', email }, jar);
    const { reply } = await lookupJson({ ...base, checkType: '2', email, code, next }, { jar, env: fastEnv });
    // none of these contacts is registered: the lookup's own answer is the expo's form, marked
    // "nothing found" (and never the posted `next`'s query)
    expect(reply.data).toMatchObject({ outcome: 'navigate', location: `${FORM}?found=0` });
  });
});

describe('a no-JS refusal names every failing field (issue 14)', () => {
  it('in form order, each with its own message; every value kept', async () => {
    const jar = await jarProved(vcOf(uniq('all')), 60_000);
    const body = thaiForm({ uname: '', ucompany: ' ', 'phone.areaCode': '+66', phone: '12', visitDate: '05/20/2026', privacy: '' });
    delete (body as Record<string, string>)['purpose.0'];
    const res = await postForm('/api/register', body, { jar });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(FORM);
    const flash = flashOf(res, FORM);
    expect(flash?.errors).toEqual([
      { field: 'uname', key: 'form.supplement', text: null },
      { field: 'ucompany', key: 'form.supplement', text: null },
      { field: 'phone', key: 'form.phoneIncorrect', text: null },
      { field: 'purpose.0', key: 'form.supplement', text: null },
      { field: 'visitDate', key: 'form.dateFormat', text: null },
      { field: 'privacy', key: 'form.privacy', text: null },
    ]);
    expect(flash?.error).toEqual({ field: 'uname', key: 'form.supplement', text: null });
    expect(flash?.values).toMatchObject({ phone: '12', visitDate: '05/20/2026', industry: 'Energy' });
  });
});

describe('the date in the page language (issue 14)', () => {
  it.each([
    ['en', '20/05/2026'],
    ['thai', '20/05/2569'],
    ['zh', '2026年5月20日'],
    ['tw', '2026-05-20'],
  ])('%s: %s is stored as 2026-05-20', async (pageLang, visitDate) => {
    const email = uniq(`date-${pageLang}`);
    const jar = await jarProved(vcOf(email), 60_000);
    const res = await postJson('/api/register', thaiForm({ pageLang, visitDate }), { jar });
    expect(registered((await res.json()) as RegisterReply)).toBe(true);
    const row = await testEnv.DB.prepare("SELECT json_extract(form_values, '$.visitDate') AS d FROM registrations WHERE email = ?")
      .bind(email)
      .first<{ d: string }>();
    expect(row?.d).toBe('2026-05-20');
  });
});

describe('issue 30: without JavaScript, a refused form survives a reload', () => {
  it('a no-JS refusal keeps every typed value in the form page\'s draft too (the flash is shown once); JSON keeps none there (the island has its own copy)', async () => {
    const jar = await jarProved(vcOf(uniq('reload')), 60_000);
    const res = await postForm('/api/register', thaiForm({ uname: '', ucompany: 'Reload Co.', visitDate: '05/20/2026' }), { jar });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(FORM);
    const draft = setCookie(res, DRAFT_COOKIE);
    expect(draft?.attrs['path']).toBe(FORM);
    expect(Number(draft?.attrs['max-age'])).toBe(30 * 60);
    expect(draft?.raw).toMatch(/HttpOnly/i);
    const kept = decodeFlash(decodeURIComponent(draft?.value ?? ''), FORM);
    expect(kept?.values).toMatchObject({ ucompany: 'Reload Co.', visitDate: '05/20/2026', industry: 'Energy', 'purpose.0': 'Sourcing', privacy: 'on' });
    // the page's own fields are not values
    expect(kept?.values).not.toHaveProperty('idem');
    expect(kept?.values).not.toHaveProperty('route');
    const json = await postJson('/api/register', thaiForm({ uname: '' }), { jar });
    expect(((await json.json()) as RegisterReply).data).toMatchObject({ outcome: 'invalid', field: 'uname' });
    expect(setCookie(json, DRAFT_COOKIE)).toBeUndefined();
  });
});
