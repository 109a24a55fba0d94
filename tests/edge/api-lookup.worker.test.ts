/**
 * `POST /api/send-code` and `POST /api/lookup` in workerd (spec §2.1, §2.2, §4, §5, §8):
 * as JSON (the island) and as no-JS form posts (303 + flash cookie), against the in-process
 * reference upstream on D1 with real codes from the development outbox.
 *
 * Storage is isolated per test (vitest-pool-workers), so every test starts from the seed;
 * every test uses its own cookie jar, so the edge's `sent` cookie never leaks between tests.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeId, encodeId } from '../../src/lib/util/ids';
import { SENT_COOKIE } from '../../src/lib/lookup/resend';
import { FLASH_COOKIE } from '../../src/lib/page/flash';
import { CONTACT_COOKIE } from '../../src/lib/lookup/contact-cookie';
import type { LookupOutcome } from '../../src/islands/lookup-types';
import { MESSAGES } from '../../src/i18n';
import {
  backOf,
  fastEnv,
  flashOf,
  Jar,
  lookupJson,
  outboxCode,
  outboxCount,
  page,
  postForm,
  postJson,
  sendAndRead,
  sendJson,
  setCookie,
  spyUpstream,
  testEnv,
  vcOf,
  type Page,
  type Typed,
} from './api-lookup.helpers';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Catalogue texts (src/i18n/zh.json, en.json) the tests expect verbatim. */
const ZH = {
  selectCountry: '请选择国家/地区',
  phonePlach: '请输入手机号',
  codeError: '手机号格式不正确',
  emailPlach: '请输入邮箱',
  emailError: '邮箱格式不正确',
  codePlach: '请输入验证码',
  codeDigits: '验证码只能为数字',
  otherError: '获取相关数据失败',
} as const;
const EN = {
  selectCountry: MESSAGES.en['search.selectCountry'],
  emailError: MESSAGES.en['search.emailError'],
} as const;

const IEAE = page(1308, 21308, 'IEAE');
const IEAE_10542 = page(1308, 10542, 'IEAE');
const JAKARTA = page(1178, 21178, 'Jakarta');
const BANGKOK = page(1179, 21179, 'Bangkok');
const ASIA = page(1312, 21312, 'Asia');
const INDONESIAN = page(1108, 21108, 'Indonesian');
const GENERIC_2002 = page(2002, 22002, '');

const email = (e: string): Typed => ({ checkType: '2', email: e });
const phone = (areaCode: string, national: string): Typed => ({ checkType: '1', areaCode, phone: national });

/** The values a no-JS page refills: every typed field, '' when not posted. */
function kept(fields: Record<string, string>): Record<string, string> {
  const { checkType = '', areaCode = '', phone: p = '', email: e = '', code = '' } = fields;
  return { checkType, areaCode, phone: p, email: e, code };
}

/** A credential path (spec §2.1) built independently of successPath. */
function credential(variant: string, urlId: number, euCode: string, expoId: number, f: string): string {
  return `/${variant}Success/${encodeId(urlId)}/${encodeId(euCode)}/${encodeId(expoId)}/${urlId}/?f=${encodeURIComponent(f)}`;
}

/** Sends a code (limits lifted), then looks up with it as JSON. */
async function lookupWithCode(p: Page, typed: Typed, jar = new Jar()) {
  const code = await sendAndRead(p, typed, jar);
  return lookupJson({ ...p, ...typed, code }, { jar, env: fastEnv });
}

/** Sends a code (limits lifted), then looks up with it as a form post. */
async function formLookupWithCode(p: Page, typed: Typed, jar = new Jar()) {
  const code = await sendAndRead(p, typed, jar);
  return postForm('/api/lookup', { ...p, ...typed, code }, { jar, env: fastEnv });
}

function navigate(data: LookupOutcome | null) {
  expect(data?.outcome).toBe('navigate');
  return data as Extract<LookupOutcome, { outcome: 'navigate' }>;
}

describe('bad hidden fields: a broken page answers 400 with a short sentence, never the schema (issue 14 item 6)', () => {
  const cases: [string, Record<string, string>][] = [
    ['missing expoId', { urlId: '21308', ty: 'visitor', variant: 'IEAE' }],
    ['non-decimal urlId', { expoId: '1308', urlId: '21308abc', ty: 'visitor', variant: 'IEAE' }],
    ['unknown variant', { expoId: '1308', urlId: '21308', ty: 'visitor', variant: 'Nope' }],
  ];
  for (const path of ['/api/send-code', '/api/lookup']) {
    for (const [what, hidden] of cases) {
      it(`${path}, ${what}: JSON in the request's language, and a page for a form post`, async () => {
        const up = spyUpstream();
        const fields = { ...hidden, checkType: '2', email: 'one@demo.test', code: '123456' };
        const json = await postJson(path, fields);
        expect(json.status).toBe(400);
        expect(await json.json()).toEqual({ code: 400, msg: MESSAGES.zh['api.badPage'], data: null });
        expect(json.headers.getSetCookie()).toEqual([]);
        // the page language when the form says it (pageLang), as every answer of the lookup
        const thai = await postJson(path, { ...fields, pageLang: 'thai' });
        expect(((await thai.json()) as { msg: string }).msg).toBe(MESSAGES.thai['api.badPage']);
        const form = await postForm(path, { ...fields, pageLang: 'en' });
        expect(form.status).toBe(400);
        expect(form.headers.get('content-type')).toMatch(/^text\/html/);
        const html = await form.text();
        expect(html).toContain(MESSAGES.en['api.badPage']);
        expect(html).not.toMatch(/expoId|urlId|variant|decimal|Nope/);
        expect(form.headers.getSetCookie()).toEqual([]);
        expect(up.paths()).toEqual([]);
      });
    }
  }
});

describe('validation (spec §5)', () => {
  type Case = [string, Record<string, string>, 'areaCode' | 'phone' | 'email' | 'code', keyof typeof ZH];
  const contactCases: Case[] = [
    ['missing area code', { checkType: '1', areaCode: '', phone: '812345678' }, 'areaCode', 'selectCountry'],
    ['missing phone', { checkType: '1', areaCode: '+66', phone: '   ' }, 'phone', 'phonePlach'],
    [
      '+86 bad number (second digit 0)',
      { checkType: '1', areaCode: '+86', phone: '10012345678' },
      'phone',
      'codeError',
    ],
    ['+86 bad number (10 digits)', { checkType: '1', areaCode: '+86', phone: '1381234567' }, 'phone', 'codeError'],
    ['bad e-mail', { checkType: '2', email: 'someone@demo' }, 'email', 'emailError'],
    ['missing e-mail', { checkType: '2', email: '' }, 'email', 'emailPlach'],
  ];
  const codeCases: Case[] = [
    ['missing code', { checkType: '2', email: 'one@demo.test', code: ' ' }, 'code', 'codePlach'],
    ['non-digit code', { checkType: '2', email: 'one@demo.test', code: '12a4' }, 'code', 'codeDigits'],
    ['missing code, phone mode', { checkType: '1', areaCode: '+86', phone: '13800138000' }, 'code', 'codePlach'],
  ];

  describe('POST /api/lookup as JSON', () => {
    it.each([...contactCases.map((c): Case => [c[0], { ...c[1], code: '123456' }, c[2], c[3]]), ...codeCases])(
      '%s → field and catalogue message (zh)',
      async (_what, typed, field, key) => {
        const up = spyUpstream();
        const { res, reply } = await lookupJson({ ...IEAE, ...typed });
        expect(res.status).toBe(200);
        expect(reply).toEqual({ code: 400, msg: ZH[key], data: { outcome: 'invalid', field, message: ZH[key] } });
        expect(up.paths()).toEqual([]);
        expect(res.headers.getSetCookie()).toEqual([]);
      },
    );
  });

  describe('POST /api/lookup as a form post', () => {
    it.each([...contactCases.map((c): Case => [c[0], { ...c[1], code: '123456' }, c[2], c[3]]), ...codeCases])(
      '%s → 303 back, the field and key in the flash, every typed value kept',
      async (_what, typed, field, key) => {
        const up = spyUpstream();
        const res = await postForm('/api/lookup', { ...IEAE, ...typed });
        expect(res.status).toBe(303);
        const back = backOf(IEAE);
        expect(back).toBe('/IEAESearch/21308/MTMwOA/visitor');
        expect(res.headers.get('location')).toBe(back);
        const flash = flashOf(res, back);
        expect(flash).toEqual({
          path: back,
          values: kept(typed),
          error: { field, key: `search.${key}`, text: null },
          notice: null,
        });
        expect(up.paths()).toEqual([]);
        const cookie = setCookie(res, FLASH_COOKIE);
        expect(cookie?.attrs).toMatchObject({ path: '/', 'max-age': '120', samesite: 'Lax' });
        expect(cookie?.attrs).toHaveProperty('httponly');
        expect(cookie?.attrs).toHaveProperty('secure');
      },
    );

    it('comes back to the same-origin `back` field (with its query), never another site', async () => {
      const back = '/IEAESearch/21308/MTMwOA/visitor?f=xyz';
      const res = await postForm('/api/lookup', { ...IEAE, back, checkType: '2', email: 'bad' });
      expect(res.headers.get('location')).toBe(back);
      expect(flashOf(res, back)?.error).toEqual({ field: 'email', key: 'search.emailError', text: null });
      const evil = await postForm('/api/lookup', {
        ...IEAE,
        back: 'https://evil.example/x',
        checkType: '2',
        email: 'bad',
      });
      expect(evil.headers.get('location')).toBe(backOf(IEAE));
    });
  });

  describe('POST /api/send-code', () => {
    it.each(contactCases)('%s → JSON field and message', async (_what, typed, field, key) => {
      const up = spyUpstream();
      const { res, reply } = await sendJson({ ...ASIA, ...typed });
      expect(res.status).toBe(200);
      expect(reply).toEqual({ code: 400, msg: ZH[key], data: { field, message: ZH[key] } });
      expect(up.paths()).toEqual([]);
      expect(setCookie(res, SENT_COOKIE)).toBeUndefined();
    });

    it.each(contactCases)('%s → form post 303 back with the flash', async (_what, typed, field, key) => {
      const up = spyUpstream();
      const res = await postForm('/api/send-code', { ...ASIA, ...typed, code: '99' });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/AsiaSearch/21312/MTMxMg/visitor');
      expect(flashOf(res, '/AsiaSearch/21312/MTMxMg/visitor')).toEqual({
        path: '/AsiaSearch/21312/MTMxMg/visitor',
        values: kept({ ...typed, code: '99' }),
        error: { field, key: `search.${key}`, text: null },
        notice: null,
      });
      expect(up.paths()).toEqual([]);
    });
  });

  describe('overlong typed values are validation errors, not a 500 (spec §5; validation.ts EMAIL_MAX)', () => {
    // 260 characters: longer than the 254 an address may have, so the e-mail format check fails.
    const longEmail = `${'a'.repeat(250)}@demo.test`;
    // 40 digits after +86: not 11 digits, so the +86 rule fails.
    const longPhone = '1'.repeat(40);

    it('lookup JSON: a 260-character e-mail → field email, emailError', async () => {
      const { res, reply } = await lookupJson({ ...IEAE, checkType: '2', email: longEmail, code: '123456' });
      expect(res.status).toBe(200);
      expect(reply).toEqual({
        code: 400,
        msg: ZH.emailError,
        data: { outcome: 'invalid', field: 'email', message: ZH.emailError },
      });
    });

    it('lookup form post: a 260-character e-mail → 303 back, emailError, the value kept', async () => {
      const fields = { ...IEAE, checkType: '2', email: longEmail, code: '123456' };
      const res = await postForm('/api/lookup', fields);
      expect(res.status).toBe(303);
      expect(flashOf(res, backOf(IEAE))).toEqual({
        path: backOf(IEAE),
        values: kept(fields),
        error: { field: 'email', key: 'search.emailError', text: null },
        notice: null,
      });
    });

    it('send-code JSON: a 260-character e-mail → field email, emailError', async () => {
      const { res, reply } = await sendJson({ ...ASIA, checkType: '2', email: longEmail });
      expect(res.status).toBe(200);
      expect(reply).toEqual({ code: 400, msg: ZH.emailError, data: { field: 'email', message: ZH.emailError } });
    });

    it('lookup JSON: a 40-digit +86 phone → field phone, codeError', async () => {
      const { res, reply } = await lookupJson({
        ...IEAE,
        checkType: '1',
        areaCode: '+86',
        phone: longPhone,
        code: '123456',
      });
      expect(res.status).toBe(200);
      expect(reply).toEqual({
        code: 400,
        msg: ZH.codeError,
        data: { outcome: 'invalid', field: 'phone', message: ZH.codeError },
      });
    });
  });

  it('in English with the _h5_lang=en cookie (JSON send-code, JSON lookup; the form flash keeps the key)', async () => {
    const jar = new Jar({ _h5_lang: 'en' });
    const sent = await sendJson({ ...ASIA, checkType: '1', areaCode: '', phone: '812345678' }, { jar });
    expect(sent.reply).toEqual({
      code: 400,
      msg: EN.selectCountry,
      data: { field: 'areaCode', message: EN.selectCountry },
    });
    const looked = await lookupJson({ ...ASIA, checkType: '2', email: 'x@y', code: '1' }, { jar });
    expect(looked.reply).toEqual({
      code: 400,
      msg: EN.emailError,
      data: { outcome: 'invalid', field: 'email', message: EN.emailError },
    });
    const form = await postForm('/api/lookup', { ...ASIA, checkType: '2', email: 'x@y', code: '1' }, { jar });
    expect(flashOf(form, backOf(ASIA))?.error).toEqual({ field: 'email', key: 'search.emailError', text: null });
  });
});

describe('POST /api/send-code: sending (spec §4)', () => {
  it('e-mail, JSON: 200 with resendIn 60, the `sent` cookie, a code in the outbox (zh sender)', async () => {
    const up = spyUpstream();
    const jar = new Jar();
    const before = Math.floor(Date.now() / 1000);
    const { res, reply } = await sendJson(
      { ...ASIA, checkType: '2', email: ' Send-ZH@Demo.test ' },
      { jar, env: fastEnv },
    );
    expect(res.status).toBe(200);
    expect(reply).toEqual({ code: 200, msg: 'success', data: { resendIn: 60 } });
    const sent = setCookie(res, SENT_COOKIE);
    expect(sent).toBeDefined();
    expect(Number(sent?.value)).toBeGreaterThanOrEqual(before);
    expect(Number(sent?.value)).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(sent?.attrs).toMatchObject({ path: '/', 'max-age': '60', samesite: 'Lax' });
    expect(sent?.attrs).toHaveProperty('httponly');
    expect(sent?.attrs).toHaveProperty('secure');
    expect(await outboxCode('send-zh@demo.test')).toMatch(/^\d{6}$/);
    expect(await outboxCount('send-zh@demo.test')).toBe(1);
    expect(up.paths()).toContain('/custom/sms/getemailCode');
  });

  it('e-mail in English goes to the English sender', async () => {
    const up = spyUpstream();
    const { reply } = await sendJson(
      { ...ASIA, checkType: '2', email: 'one@demo.test' },
      { jar: new Jar({ _h5_lang: 'en' }), env: fastEnv },
    );
    expect(reply.code).toBe(200);
    expect(up.paths()).toContain('/custom/sms/getemailCodeEn');
  });

  it('+86 phone, JSON: the bare national number to getCaptcha; the outbox holds it under E.164', async () => {
    const up = spyUpstream();
    const { res, reply } = await sendJson(
      { ...IEAE, checkType: '1', areaCode: '+86', phone: '13800138000' },
      { jar: new Jar(), env: fastEnv },
    );
    expect(res.status).toBe(200);
    expect(reply).toEqual({ code: 200, msg: 'success', data: { resendIn: 60 } });
    expect(setCookie(res, SENT_COOKIE)).toBeDefined();
    expect(up.paths()).toContain('/custom/sms/getCaptcha');
    expect(await outboxCode('+8613800138000')).toMatch(/^\d{6}$/);
  });

  it('+66 phone, form post: 303 back with the info notice and every value kept', async () => {
    const up = spyUpstream();
    const jar = new Jar();
    const fields = { ...BANGKOK, checkType: '1', areaCode: '+66', phone: '800000003', email: '', code: '' };
    const res = await postForm('/api/send-code', fields, { jar, env: fastEnv });
    expect(res.status).toBe(303);
    const back = '/BangkokSearch/21179/MTE3OQ/visitor';
    expect(res.headers.get('location')).toBe(back);
    expect(flashOf(res, back)).toEqual({
      path: back,
      values: kept(fields),
      error: null,
      notice: { tone: 'info', key: 'search.codeSentTo', vars: { contact: '+66 800000003' }, text: null },
    });
    expect(jar.has(SENT_COOKIE)).toBe(true);
    expect(up.paths()).toContain('/custom/sms/getSmsGJEnCode');
    expect(await outboxCode('+66800000003')).toMatch(/^\d{6}$/);
  });

  it('e-mail, form post: the info notice names the e-mail', async () => {
    const res = await postForm(
      '/api/send-code',
      { ...ASIA, checkType: '2', email: 'one@demo.test' },
      { jar: new Jar(), env: fastEnv },
    );
    expect(res.status).toBe(303);
    expect(flashOf(res, backOf(ASIA))?.notice).toEqual({
      tone: 'info',
      key: 'search.codeSentTo',
      vars: { contact: 'one@demo.test' },
      text: null,
    });
  });

  it('a second send within 60 s is refused by the edge (JSON 600, search.waitResend) without reaching the upstream', async () => {
    const jar = new Jar();
    const first = await sendJson({ ...ASIA, checkType: '2', email: 'edge-wait@demo.test' }, { jar, env: fastEnv });
    expect(first.reply.code).toBe(200);
    const up = spyUpstream();
    // fastEnv: the reference itself would accept this send; only the edge's cookie refuses it.
    const second = await sendJson({ ...ASIA, checkType: '2', email: 'edge-wait@demo.test' }, { jar, env: fastEnv });
    expect(second.res.status).toBe(200);
    expect(second.reply.code).toBe(600);
    expect(second.reply.data).toBeNull();
    expect(second.reply.msg).toMatch(/^请在 (59|60) 秒后再获取新的验证码$/);
    expect(up.paths()).toEqual([]);
    expect(await outboxCount('edge-wait@demo.test')).toBe(1);
    expect(setCookie(second.res, SENT_COOKIE)).toBeUndefined();
  });

  it('a second send within 60 s by form post: 303 back with the waitResend notice, no upstream call', async () => {
    const jar = new Jar();
    const fields = { ...ASIA, checkType: '2', email: 'edge-wait-form@demo.test' };
    expect((await postForm('/api/send-code', fields, { jar, env: fastEnv })).status).toBe(303);
    const up = spyUpstream();
    const res = await postForm('/api/send-code', fields, { jar, env: fastEnv });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(backOf(ASIA));
    const flash = flashOf(res, backOf(ASIA));
    expect(flash?.values).toEqual(kept(fields));
    expect(flash?.notice).toMatchObject({ tone: 'error', key: 'search.waitResend', text: null });
    expect([59, 60]).toContain(flash?.notice?.vars['n']);
    expect(up.paths()).toEqual([]);
    expect(await outboxCount('edge-wait-form@demo.test')).toBe(1);
  });

  it("the reference's own 600 refusal (60 s per expo and contact) is shown in the page language with its wait (issue 14 item 1)", async () => {
    const fields = { ...ASIA, checkType: '2', email: 'refused@demo.test' };
    // The edge's per-contact budget raised (its own test is tests/edge/limits.worker.test.ts).
    const env = { ...testEnv, LIMIT_SENDS_PER_CONTACT_HOUR: '100' };
    const first = await sendJson(fields, { jar: new Jar(), env });
    expect(first.reply.code).toBe(200);
    // A fresh browser (no `sent` cookie): the edge lets it through, the reference refuses.
    const second = await sendJson(fields, { jar: new Jar(), env });
    expect(second.res.status).toBe(200);
    expect(second.reply.code).toBe(600);
    expect(second.reply.msg).toMatch(/^请在 (59|60) 秒后再获取新的验证码$/);
    expect(second.reply.data).toBeNull();
    expect(setCookie(second.res, SENT_COOKIE)).toBeUndefined();

    const form = await postForm('/api/send-code', fields, { jar: new Jar(), env });
    expect(form.status).toBe(303);
    const flash = flashOf(form, backOf(ASIA));
    expect(flash?.notice).toMatchObject({ tone: 'error', key: 'search.waitResend', text: null });
    expect(flash?.notice?.vars['n']).toBeGreaterThan(50);
    expect(flash?.values).toEqual(kept(fields));
    expect(setCookie(form, SENT_COOKIE)).toBeUndefined();
    expect(await outboxCount('refused@demo.test')).toBe(1);
  });

  it('the bypass site (1308 / 10542, e-mail) sends no code: JSON 400 search.otherError', async () => {
    const up = spyUpstream();
    const { reply } = await sendJson(
      { ...IEAE_10542, checkType: '2', email: 'exhibitor@demo.test' },
      { jar: new Jar() },
    );
    expect(reply).toEqual({ code: 400, msg: ZH.otherError, data: null });
    expect(up.paths()).toEqual([]);
  });
});

describe('POST /api/lookup: outcomes (spec §4) with real codes', () => {
  it('zero records (IEAE) → the variant form, JSON and form post; vc cookie set', async () => {
    const { res, reply } = await lookupWithCode(IEAE, email('none@demo.test'));
    expect(res.status).toBe(200);
    expect(reply.code).toBe(200);
    expect(reply.msg).toBeNull();
    expect(reply.data).toEqual({
      outcome: 'navigate',
      location: '/IEAEForm/21308/MTMwOA/visitor?found=0',
      replace: false,
      session: { expoId: '1308', checkType: '2', fId: '21308', email: 'none@demo.test' },
      removeSession: ['phone', 'areatext'],
    });
    expect(await vcOf(res)).toEqual({ expoId: 1308, contact: 'none@demo.test', checkType: 2 });

    const form = await formLookupWithCode(IEAE, email('none@demo.test'));
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe('/IEAEForm/21308/MTMwOA/visitor?found=0');
    expect(await vcOf(form)).toEqual({ expoId: 1308, contact: 'none@demo.test', checkType: 2 });
    // the flash is cleared on the way on
    expect(setCookie(form, FLASH_COOKIE)?.attrs['max-age']).toBe('0');
  });

  it('zero records on a generic screen → /form/…', async () => {
    const { reply } = await lookupWithCode(GENERIC_2002, email('none@demo.test'));
    expect(navigate(reply.data)).toMatchObject({ location: '/form/22002/MjAwMg/visitor?found=0', replace: false });
    const form = await formLookupWithCode(GENERIC_2002, email('none@demo.test'));
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe('/form/22002/MjAwMg/visitor?found=0');
  });

  it('one record → the credential path with encoded ids, f carried over, replace:true', async () => {
    const p = { ...IEAE, f: 'a b&c' };
    const { reply } = await lookupWithCode(p, email('one@demo.test'));
    const nav = navigate(reply.data);
    expect(nav.replace).toBe(true);
    expect(nav.location).toBe(credential('IEAE', 21308, 'IWHBZIMYEOZETLFI', 1308, 'a b&c'));
    const url = new URL(nav.location, 'https://expo.example');
    const [, route, u, e, x, fId] = url.pathname.split('/');
    expect(route).toBe('IEAESuccess');
    expect([decodeId(u), decodeId(e), decodeId(x), fId]).toEqual(['21308', 'IWHBZIMYEOZETLFI', '1308', '21308']);
    expect(url.pathname.endsWith('/')).toBe(true);
    expect(url.searchParams.get('f')).toBe('a b&c');

    const form = await formLookupWithCode(p, email('one@demo.test'));
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe(nav.location);
  });

  it('one record with an empty f keeps `?f=`', async () => {
    const { reply } = await lookupWithCode(ASIA, email('one@demo.test'));
    expect(navigate(reply.data).location).toMatch(
      new RegExp(`^/AsiaSuccess/${encodeId(21312)}/[A-Za-z0-9_-]+/${encodeId(1312)}/21312/\\?f=$`),
    );
  });

  it('1308 several: exactly the earliest (first of a tie) plus every class 3, labels per §2.1 (JSON)', async () => {
    const { reply } = await lookupWithCode(IEAE, email('several@demo.test'));
    expect(reply.code).toBe(200);
    expect(reply.data).toEqual({
      outcome: 'select',
      rows: [
        { name: '李二', label: '注册观众', href: credential('IEAE', 21308, 'F5IP7DURIP7EXQPG', 1308, '') },
        { name: '李二', label: '贵宾 | VIP/嘉宾', href: credential('IEAE', 21308, 'MK3QQYYA5EAHRO4B', 1308, '') },
        // a 24-character euDefine is not shown as a prefix
        { name: '李二', label: 'VIP/嘉宾', href: credential('IEAE', 21308, 'ZC5VIZ6UO7F3GFTP', 1308, '') },
      ],
      session: { expoId: '1308', checkType: '2', fId: '21308', email: 'several@demo.test' },
      removeSession: ['phone', 'areatext'],
    });
  });

  it('1308 several as a form post → 303 /applyList/… with the list in the signed vc cookie', async () => {
    const res = await formLookupWithCode({ ...IEAE, f: 'q1' }, email('several@demo.test'));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/applyList/21308/MTMwOA/visitor?v=IEAE&f=q1');
    const vc = await vcOf(res);
    expect(vc).toEqual({
      expoId: 1308,
      contact: 'several@demo.test',
      checkType: 2,
      list: [
        { e: 'F5IP7DURIP7EXQPG', n: '李二', c: 0, d: null, t: null },
        { e: 'MK3QQYYA5EAHRO4B', n: '李二', c: 3, d: '贵宾', t: null },
        // euDefine is shown only under 20 characters (spec §2.1): the cookie keeps 20, no more.
        { e: 'ZC5VIZ6UO7F3GFTP', n: '李二', c: 3, d: '国际能源展组委会特邀嘉宾及战略合作伙伴代表团成员'.slice(0, 20), t: null },
      ],
    });
    const cookie = setCookie(res, CONTACT_COOKIE);
    expect(cookie?.attrs).toMatchObject({ path: '/', 'max-age': '600', samesite: 'Lax' });
    expect(cookie?.attrs).toHaveProperty('httponly');
    expect(cookie?.attrs).toHaveProperty('secure');
  });

  it('several elsewhere (Bangkok, +66 phone): every record, class 8 labelled by ticketName; English labels', async () => {
    const jar = new Jar({ _h5_lang: 'en' });
    const { reply } = await lookupWithCode(BANGKOK, phone('+66', '800000003'), jar);
    expect(reply.data).toEqual({
      outcome: 'select',
      rows: [
        {
          name: 'Chai Several',
          label: 'Registered visitor',
          href: credential('Bangkok', 21179, 'GMTMK7RSXEXS5DFN', 1179, ''),
        },
        {
          name: 'Chai Several',
          label: 'Trade Day Ticket',
          href: credential('Bangkok', 21179, 'YB635K5Z7Y4JQ4CX', 1179, ''),
        },
        {
          name: 'Chai Several',
          label: 'Guest | VIP/Guest',
          href: credential('Bangkok', 21179, 'AZ6VFA6HD4UQFPB3', 1179, ''),
        },
      ],
      session: { expoId: '1179', checkType: '1', fId: '21179', phone: '800000003', areatext: '+66' },
      removeSession: ['email'],
    });
  });

  it('Jakarta, one record without activityId → /JakartaSupplement/… (JSON and form)', async () => {
    const { reply } = await lookupWithCode(JAKARTA, email('supplement@demo.test'));
    // ?e= names the registration, so the supplement form can prefill what it already has.
    expect(navigate(reply.data)).toMatchObject({ location: expect.stringMatching(/^\/JakartaSupplement\/21178\/MTE3OA\/visitor\?e=[A-Z2-7]{16}$/), replace: false });
    const form = await formLookupWithCode(JAKARTA, phone('+62', '811000001'));
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toMatch(/^\/JakartaSupplement\/21178\/MTE3OA\/visitor\?e=[A-Z2-7]{16}$/);
  });

  it('expo 785, one record missing company and title → /repairForm/…?e= (spec §2.3)', async () => {
    const { reply } = await lookupWithCode(page(785, 20785, ''), email('repair@demo.test'));
    expect(navigate(reply.data)).toMatchObject({
      location: expect.stringMatching(/^\/repairForm\/20785\/Nzg1\/visitor\?e=[A-Z2-7]{16}$/),
      replace: false,
    });
  });

  it('Jakarta, one record with an activity → the success page', async () => {
    const { reply } = await lookupWithCode(JAKARTA, email('one@demo.test'));
    const nav = navigate(reply.data);
    expect(nav.replace).toBe(true);
    expect(nav.location).toMatch(/^\/JakartaSuccess\//);
  });

  it('Jakarta 20003 → /JakartaSecondForm/… with userId and urlsId in the session and the vc cookie', async () => {
    const { res, reply } = await lookupWithCode(JAKARTA, email('second@demo.test'));
    expect(reply.data).toEqual({
      outcome: 'navigate',
      location: '/JakartaSecondForm/21178/MTE3OA/visitor',
      replace: false,
      session: {
        expoId: '1178',
        checkType: '2',
        fId: '21178',
        email: 'second@demo.test',
        userId: '100042',
        urlsId: '31178',
      },
      removeSession: ['phone', 'areatext'],
    });
    expect(await vcOf(res)).toEqual({
      expoId: 1178,
      contact: 'second@demo.test',
      checkType: 2,
      secondForm: { userId: 100042, urlsId: 31178 },
    });
  });

  it('Bangkok 20003 (phone) → /BangkokSecondForm/…, JSON and form, secondForm in the vc cookie', async () => {
    const { res, reply } = await lookupWithCode(BANGKOK, phone('+66', '800000002'));
    expect(reply.data).toEqual({
      outcome: 'navigate',
      location: '/BangkokSecondForm/21179/MTE3OQ/visitor',
      replace: false,
      session: {
        expoId: '1179',
        checkType: '1',
        fId: '21179',
        phone: '800000002',
        areatext: '+66',
        userId: '100036',
        urlsId: '31179',
      },
      removeSession: ['email'],
    });
    expect(await vcOf(res)).toEqual({
      expoId: 1179,
      contact: '+66800000002',
      checkType: 1,
      areaCode: '+66',
      secondForm: { userId: 100036, urlsId: 31179 },
    });
    const form = await formLookupWithCode(BANGKOK, email('second@demo.test'));
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe('/BangkokSecondForm/21179/MTE3OQ/visitor');
    expect((await vcOf(form))?.secondForm).toEqual({ userId: 100036, urlsId: 31179 });
  });

  it('a wrong code → JSON outcome failed with no message; no vc cookie', async () => {
    const jar = new Jar();
    const code = await sendAndRead(ASIA, email('one@demo.test'), jar);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const { res, reply } = await lookupJson(
      { ...ASIA, checkType: '2', email: 'one@demo.test', code: wrong },
      { jar },
    );
    expect(res.status).toBe(200);
    expect(reply).toEqual({ code: 200, msg: null, data: { outcome: 'failed' } });
    expect(setCookie(res, CONTACT_COOKIE)).toBeUndefined();
  });

  it('a wrong code by form post → 303 back, values kept, no notice text (spec §8)', async () => {
    const jar = new Jar();
    const code = await sendAndRead(ASIA, email('one@demo.test'), jar);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const fields = { ...ASIA, checkType: '2', email: 'one@demo.test', code: wrong };
    const res = await postForm('/api/lookup', fields, { jar });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(backOf(ASIA));
    expect(flashOf(res, backOf(ASIA))).toEqual({
      path: backOf(ASIA),
      values: kept(fields),
      error: { field: 'code', key: null, text: null },
      notice: null,
    });
    expect(setCookie(res, CONTACT_COOKIE)).toBeUndefined();
  });
});

describe('the 10542 bypass (spec §2.2, DESIGN.md)', () => {
  const exhibitor = { checkType: '2', email: 'exhibitor@demo.test' };

  it('is never granted to another expo posted with the IEAE variant: the code is required', async () => {
    const up = spyUpstream();
    const { reply } = await lookupJson({ ...IEAE_10542, expoId: '1179', ...exhibitor }, { jar: new Jar() });
    expect(reply).toEqual({ code: 400, msg: ZH.codePlach, data: { outcome: 'invalid', field: 'code', message: ZH.codePlach } });
    expect(up.paths()).toEqual([]);
  });
  const exhibitorCredential = credential('IEAE', 10542, 'ESSRIV3NLOGZOS47', 1308, '');

  it('1308 / 10542, e-mail, no code posted → the registration, using BYPASS_CODE (JSON)', async () => {
    const sentBefore = await outboxCount('exhibitor@demo.test');
    const up = spyUpstream();
    const { res, reply } = await lookupJson({ ...IEAE_10542, ...exhibitor }, { jar: new Jar() });
    expect(res.status).toBe(200);
    expect(reply.data).toEqual({
      outcome: 'navigate',
      location: exhibitorCredential,
      replace: true,
      session: { expoId: '1308', checkType: '2', fId: '10542', email: 'exhibitor@demo.test' },
      removeSession: ['phone', 'areatext'],
    });
    expect(up.paths()).not.toContain('/custom/sms/captchaVerify');
    expect(up.paths()).toContain('/custom/customFrom/queryEmailUserExpoId');
    expect(await outboxCount('exhibitor@demo.test')).toBe(sentBefore);
    // The cookie says no code was proven (issue 9 hole 10).
    expect(await vcOf(res)).toEqual({
      expoId: 1308,
      contact: 'exhibitor@demo.test',
      checkType: 2,
      bypass: true,
      codes: ['ESSRIV3NLOGZOS47'],
    });
  });

  it('answers only for registrations of site 10542: a contact registered through another url gets no data (issue 9 hole 10)', async () => {
    const { reply } = await lookupJson({ ...IEAE_10542, checkType: '2', email: 'one@demo.test' }, { jar: new Jar() });
    expect(reply.data).toMatchObject({ outcome: 'nodata' });
    expect(JSON.stringify(reply)).not.toContain('IWHBZIMYEOZETLFI');
  });

  it('never leads to a form: a contact without a registration gets no data, and no cookie', async () => {
    const res = await postForm('/api/lookup', { ...IEAE_10542, checkType: '2', email: 'nobody.bypass@demo.test' }, { jar: new Jar() });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/IEAESearch/10542/MTMwOA/visitor');
    expect(setCookie(res, CONTACT_COOKIE)).toBeUndefined();
  });

  it('the same as a form post → 303 to the credential page', async () => {
    const res = await postForm('/api/lookup', { ...IEAE_10542, ...exhibitor }, { jar: new Jar() });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(exhibitorCredential);
  });

  it('without BYPASS_CODE in env → the otherError notice, never a lookup', async () => {
    const { BYPASS_CODE: _unset, ...noBypass } = testEnv;
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const up = spyUpstream();
    const { reply } = await lookupJson({ ...IEAE_10542, ...exhibitor }, { jar: new Jar(), env: noBypass });
    expect(reply.msg).toBe(ZH.otherError);
    expect(reply.data).toMatchObject({ message: ZH.otherError });
    expect(reply.data?.outcome).not.toBe('navigate');

    const form = await postForm('/api/lookup', { ...IEAE_10542, ...exhibitor }, { jar: new Jar(), env: noBypass });
    expect(form.status).toBe(303);
    const back = '/IEAESearch/10542/MTMwOA/visitor';
    expect(form.headers.get('location')).toBe(back);
    expect(flashOf(form, back)).toEqual({
      path: back,
      values: kept(exhibitor),
      error: null,
      notice: { tone: 'error', key: 'search.otherError', vars: {}, text: null },
    });
    expect(up.paths()).toEqual([]);
    expect(setCookie(form, CONTACT_COOKIE)).toBeUndefined();
  });

  it('urlId 21308 (not a bypass site) without a code → validation error, code required', async () => {
    const up = spyUpstream();
    const { reply } = await lookupJson({ ...IEAE, ...exhibitor }, { jar: new Jar() });
    expect(reply).toEqual({
      code: 400,
      msg: ZH.codePlach,
      data: { outcome: 'invalid', field: 'code', message: ZH.codePlach },
    });
    expect(up.paths()).toEqual([]);
  });

  it('the phone path of 10542 still needs a code', async () => {
    const { reply } = await lookupJson(
      { ...IEAE_10542, checkType: '1', areaCode: '+86', phone: '13800138000' },
      { jar: new Jar() },
    );
    expect(reply.data).toEqual({ outcome: 'invalid', field: 'code', message: ZH.codePlach });
  });

  it('a visitor typing the bypass code 2468 on a non-bypass site is not let through (verify fails)', async () => {
    // A real code exists for the contact, so only the typed value decides.
    const jar = new Jar();
    await sendAndRead(IEAE, email('exhibitor@demo.test'), jar);
    const up = spyUpstream();
    const { reply } = await lookupJson({ ...IEAE, ...exhibitor, code: '2468' }, { jar, env: fastEnv });
    expect(reply).toEqual({ code: 200, msg: null, data: { outcome: 'failed' } });
    expect(up.paths()).toContain('/custom/sms/captchaVerify');
    expect(up.paths()).not.toContain('/custom/customFrom/queryEmailUserExpoId');
    // And one@demo.test on 21308 with 2468 typed and no code sent at all: no code was sent to
    // this browser, so the edge refuses it before the upstream (issue 19 item 6).
    const bare = await lookupJson(
      { ...IEAE, checkType: '2', email: 'one@demo.test', code: '2468' },
      { jar: new Jar() },
    );
    expect(bare.reply.data).toMatchObject({ outcome: 'failed', newCode: true });
  });
});

describe('session keys in JSON replies (spec §3, §4)', () => {
  it('phone mode: phone + areatext set, email removed; vc holds the full phone', async () => {
    const { res, reply } = await lookupWithCode(IEAE, phone('+86', '13900139000'));
    const nav = navigate(reply.data);
    expect(nav.session).toEqual({
      expoId: '1308',
      checkType: '1',
      fId: '21308',
      phone: '13900139000',
      areatext: '+86',
    });
    expect(nav.session).not.toHaveProperty('email');
    expect(nav.removeSession).toEqual(['email']);
    expect(nav.location).toBe(credential('IEAE', 21308, 'XCOE6GON4WB4N6BR', 1308, ''));
    expect(await vcOf(res)).toEqual({
      expoId: 1308,
      contact: '+8613900139000',
      checkType: 1,
      areaCode: '+86',
      codes: ['XCOE6GON4WB4N6BR'],
    });
  });

  it('e-mail mode: email set, phone and areatext removed', async () => {
    const { reply } = await lookupWithCode(ASIA, email('one@demo.test'));
    const nav = navigate(reply.data);
    expect(nav.session).toEqual({ expoId: '1312', checkType: '2', fId: '21312', email: 'one@demo.test' });
    expect(nav.removeSession).toEqual(['phone', 'areatext']);
  });

  it('1108 keeps the e-mail under the key `phone` (spec §2.2)', async () => {
    const { reply } = await lookupWithCode(INDONESIAN, email('one@demo.test'));
    const nav = navigate(reply.data);
    expect(nav.session).toEqual({ expoId: '1108', checkType: '2', fId: '21108', phone: 'one@demo.test' });
    expect(nav.session).not.toHaveProperty('email');
    expect(nav.removeSession).toEqual(['email', 'areatext']);
    expect(nav.location).toBe(credential('Indonesian', 21108, 'TSKAHAV23BIN6UJL', 1108, ''));
  });
});

describe('modes the page does not offer (spec §2.2)', () => {
  it('a phone lookup on e-mail-only 1108 is refused with a clear 400 and no upstream call', async () => {
    const up = spyUpstream();
    for (const path of ['/api/send-code', '/api/lookup']) {
      const res = await postJson(path, { ...page(1108, 21108, 'Indonesian'), checkType: '1', areaCode: '+62', phone: '81234567', code: '123456' }, { jar: new Jar() });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ code: 400, msg: MESSAGES.zh['api.emailOnly'], data: null });
    }
    expect(up.paths()).toEqual([]);
  });
});
