/** The lookup's two actions over fake ports, in node: every outcome the adapter renders (functions/api/action.ts). */
import { encodeId } from '../../src/lib/util/ids';
import { describe, expect, it, vi } from 'vitest';
import { lookup, sendCode, type LookupPorts } from '../../src/lib/actions/lookup';
import { jsonOf, type ActionContext, type ActionOutcome } from '../../src/lib/actions/outcome';
import type { LookupLimits, SendCheck } from '../../src/lib/actions/limits';
import { BIND_COOKIE, signBinding, TICKET_COOKIE } from '../../src/lib/security/friction';
import { SENT_COOKIE, SENT_TO_COOKIE } from '../../src/lib/lookup/resend';
import { CONTACT_COOKIE, verifyContact } from '../../src/lib/lookup/contact-cookie';
import { FLASH_COOKIE } from '../../src/lib/page/flash';
import type { Registration } from '../../src/lib/util/domain';
import { okReply } from './upstream-fakes';

const SECRET = 'a-test-secret-of-32-characters!!';
const ORIGIN = 'https://expo.test';
const NOW = Date.UTC(2026, 10, 25, 3, 0, 0);
const EMAIL = 'ann@demo.test';
const t: ActionContext['t'] = (k, v) => `${k}${v ? JSON.stringify(v) : ''}`;

function ctx(cookies: Record<string, string> = {}): ActionContext {
  return { lang: 'en', t, json: true, origin: ORIGIN, referer: null, cookies, now: NOW };
}

const ok = okReply;
const refused = (code: number, msg: string | null = null) => ({ ok: false as const, kind: 'refused' as const, code, msg });
const record = (euCode: string, extra: Partial<Registration> = {}) => ({ euCode, euClass: 1, uname: 'Ann', ucompany: 'Co', createtime: '2026-01-01 10:00:00', ...extra }) as Registration;

function ports(over: Partial<LookupPorts> = {}, up: Partial<LookupPorts['upstream']> = {}): LookupPorts {
  const limits: LookupLimits = { refused: null, codeAccepted: vi.fn(async () => {}) };
  return {
    upstream: {
      sendSmsCode: vi.fn(async () => ok(null)),
      sendEmailCode: vi.fn(async () => ok(null)),
      captchaVerify: vi.fn(async () => ok(null)),
      queryRegistrations: vi.fn(async () => ok([record('E1')])),
      ...up,
    },
    secret: SECRET,
    bypassCode: '1234',
    bypass: true,
    countSend: vi.fn(async (): Promise<SendCheck> => ({ kind: 'ok', unverified: [['send:expo:2002', 7]] })),
    countLookup: vi.fn(async () => limits),
    giveBack: vi.fn(async () => {}),
    turnstile: false,
    ...over,
  };
}

const PAGE = { expoId: '2002', urlId: '9', ty: '', variant: '', f: '', back: '/search/2002/OQ', next: '' };

async function send(fields: Record<string, string>, p = ports(), cookies: Record<string, string> = {}) {
  return sendCode.run(sendCode.input.parse({ ...PAGE, checkType: '2', email: EMAIL, ...fields }), p, ctx(cookies));
}
async function find(fields: Record<string, string>, p = ports(), cookies?: Record<string, string>) {
  const bind = await signBinding({ c: EMAIL, e: 2002, n: 'n1' }, SECRET, NOW);
  return lookup.run(lookup.input.parse({ ...PAGE, checkType: '2', email: EMAIL, code: '123456', ...fields }), p, ctx(cookies ?? { [BIND_COOKIE]: bind }));
}
const json = (o: ActionOutcome<unknown>) => jsonOf(o, t);

describe('send-code', () => {
  it('a variant no page names, or a mode the page does not offer, is a broken request', async () => {
    expect(await send({ variant: 'Nowhere' })).toMatchObject({ kind: 'broken', message: 'api.badPage' });
    expect(await send({ variant: 'Indonesian', expoId: '1108', checkType: '1', phone: '812345678', areaCode: '+62' })).toMatchObject({ kind: 'broken', message: 'api.emailOnly' });
  });
  it('a typing error names its field (JSON code 400 with field and message)', async () => {
    const o = await send({ email: 'not-an-email' });
    expect(o).toMatchObject({ kind: 'invalid', errors: [{ field: 'email' }] });
    expect(json(o).body).toMatchObject({ code: 400, data: { field: 'email' } });
  });
  it('a calling code the form does not offer is an area-code error', async () => {
    expect(await send({ checkType: '1', areaCode: '+999', phone: '12345678' })).toMatchObject({ kind: 'invalid', errors: [{ field: 'areaCode', key: 'limit.unknownCountry' }] });
  });
  it('a phone typed in international form with no country chosen is sent to that country (spec §5)', async () => {
    const p = ports();
    const o = await send({ checkType: '1', areaCode: '', phone: '+66 81 234 5678' }, p);
    expect(o).not.toMatchObject({ kind: 'invalid' });
    expect(p.upstream.sendSmsCode).toHaveBeenCalledWith(expect.objectContaining({ areaCode: '+66', national: '812345678' }));
  });
  it('the bypass page sends no code', async () => {
    const o = await send({ variant: 'IEAE', expoId: '1308', urlId: '10542' });
    expect(o).toMatchObject({ kind: 'notice', notice: { key: 'search.otherError' } });
    expect(json(o).body.code).toBe(400);
  });
  it('within 60 s of the last code: wait (code 600)', async () => {
    const o = await send({}, ports(), { [SENT_COOKIE]: String(Math.floor(NOW / 1000) - 10) });
    expect(o).toMatchObject({ kind: 'notice', notice: { key: 'search.waitResend', vars: { n: 50 } } });
    expect(json(o).body).toEqual({ code: 600, msg: 'search.waitResend{"n":50}', data: null });
  });
  it('over a limit: refused (code 600, HTTP 429, Retry-After)', async () => {
    const p = ports({ countSend: async () => ({ kind: 'refused', refusal: { status: 429, retryAfterS: 60, key: 'limit.networkMinutes', vars: { n: 1 } } }) });
    const o = await send({}, p);
    expect(json(o)).toEqual({ status: 429, body: { code: 600, msg: 'limit.networkMinutes{"n":1}', data: null } });
    expect(o.headers).toEqual({ 'retry-after': '60' });
  });
  it('a shared budget full: a challenge (code 601, HTTP 429)', async () => {
    const ticket = { name: TICKET_COOKIE, value: 'signed', maxAge: 620 };
    const o = await send({}, ports({ countSend: async () => ({ kind: 'challenge', waitS: 20, ticket }), turnstile: true }));
    expect(o.cookies).toEqual([ticket]);
    expect(json(o)).toEqual({ status: 429, body: { code: 601, msg: 'limit.challenge{"n":20}', data: { challenge: { waitS: 20, turnstile: true } } } });
    expect(o).toMatchObject({ kind: 'notice', notice: { key: 'limit.challengeWait' }, headers: { 'retry-after': '20' } });
  });
  it("the upstream's refusal: its code and message", async () => {
    const o = await send({}, ports({}, { sendEmailCode: async () => refused(600, 'too often') }));
    expect(json(o).body).toMatchObject({ code: 600, data: null });
    expect(o.kind).toBe('notice');
  });
  it('sent: the countdown, the binding and the contact in cookies, the ticket dropped', async () => {
    const o = await send({});
    expect(json(o).body).toEqual({ code: 200, msg: null, data: { resendIn: 60 } });
    expect(o).toMatchObject({ kind: 'notice', notice: { tone: 'info', key: 'search.codeSentTo', vars: { contact: EMAIL } } });
    expect(o.cookies?.map((c) => [c.name, c.value === null])).toEqual([
      [SENT_COOKIE, false],
      [BIND_COOKIE, false],
      [TICKET_COOKIE, true],
      [SENT_TO_COOKIE, false],
    ]);
  });
  it('an upstream fault is thrown to the adapter (spec §8)', async () => {
    await expect(send({}, ports({}, { sendEmailCode: () => Promise.reject(new Error('down')) }))).rejects.toThrow('down');
  });
});

describe('lookup', () => {
  it('a missing code names the field (JSON outcome invalid)', async () => {
    const o = await find({ code: '' });
    expect(json(o).body).toMatchObject({ code: 400, data: { outcome: 'invalid', field: 'code' } });
  });
  it('the bypass without its secret: a clear refusal (code 500), no upstream call', async () => {
    const p = ports({ bypassCode: '' });
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const o = await find({ variant: 'IEAE', expoId: '1308', urlId: '10542', code: '' }, p);
    spy.mockRestore();
    expect(json(o).body).toEqual({ code: 500, msg: 'search.otherError', data: { outcome: 'nodata', message: 'search.otherError' } });
    expect(p.upstream.queryRegistrations).not.toHaveBeenCalled();
  });
  it('over a limit: refused before the upstream sees the code', async () => {
    const refusal = { status: 503 as const, retryAfterS: null, key: 'limit.attemptsMinutes' as const, vars: { n: 1 } };
    const p = ports({ countLookup: async () => ({ refused: refusal, codeAccepted: async () => {} }) });
    const o = await find({}, p);
    expect(json(o).status).toBe(503);
    expect(p.upstream.captchaVerify).not.toHaveBeenCalled();
  });
  it('a code from a browser it was not sent to: a new code is needed, the countdown dropped', async () => {
    const p = ports();
    const o = await find({}, p, {});
    expect(json(o).body).toEqual({ code: 200, msg: null, data: { outcome: 'failed', message: 'limit.otherBrowser', newCode: true } });
    expect(o).toMatchObject({ kind: 'invalid', errors: [{ field: 'code', key: 'limit.otherBrowser' }], cookies: [{ name: SENT_COOKIE, value: null }] });
    expect(p.upstream.captchaVerify).not.toHaveBeenCalled();
  });
  it('a wrong code: failed without a message (spec §8), the slot kept', async () => {
    const limits = { refused: null, codeAccepted: vi.fn(async () => {}) };
    const o = await find({}, ports({ countLookup: async () => limits }, { captchaVerify: async () => refused(500, 'wrong code') }));
    expect(json(o).body).toEqual({ code: 200, msg: null, data: { outcome: 'failed' } });
    expect(o).toMatchObject({ kind: 'invalid', errors: [{ field: 'code', key: null }] });
    expect(limits.codeAccepted).not.toHaveBeenCalled();
  });
  it('one registration: its credential page (replace), the verified contact signed', async () => {
    const o = await find({});
    expect(o.kind).toBe('navigate');
    const body = json(o).body as { data: { outcome: string; replace: boolean; session: Record<string, string> } };
    expect(body.data).toMatchObject({ outcome: 'navigate', replace: true, session: { expoId: '2002', checkType: '2', email: EMAIL } });
    const vc = o.cookies?.find((c) => c.name === CONTACT_COOKIE);
    expect(vc).toMatchObject({ alwaysSecure: true });
    expect(await verifyContact(vc?.value, SECRET, NOW)).toMatchObject({ expoId: 2002, contact: EMAIL, codes: ['E1'] });
    expect(o.cookies?.find((c) => c.name === FLASH_COOKIE)).toEqual({ name: FLASH_COOKIE, value: null });
  });
  it('none: the form; several: the list to choose from', async () => {
    const none = await find({}, ports({}, { queryRegistrations: async () => ok([]) }));
    expect(json(none).body).toMatchObject({ data: { outcome: 'navigate', replace: false } });
    const several = await find({}, ports({}, { queryRegistrations: async () => ok([record('E1'), record('E2')]) }));
    expect(json(several).body).toMatchObject({ data: { outcome: 'select', rows: [{ name: 'Ann' }, { name: 'Ann' }] } });
    expect(several).toMatchObject({ kind: 'navigate' });
  });
  it("none, from a labelled link (spec §7 getForm): the form keeps the label; an over-long one is dropped", async () => {
    const none = ports({}, { queryRegistrations: async () => ok([]) });
    expect(await find({ define: 'VIP' }, none)).toMatchObject({ kind: 'navigate', location: `/form/9/${encodeId(2002)}?define=VIP&found=0` });
    expect(await find({ define: 'V'.repeat(20) }, none)).toMatchObject({ kind: 'navigate', location: `/form/9/${encodeId(2002)}?found=0` });
  });
  it('the lvYun lookup (list=lvYun): several matches go to /lvYunList, with JavaScript too (spec §2.3)', async () => {
    const o = await find({ list: 'lvYun', f: 'a b' }, ports({}, { queryRegistrations: async () => ok([record('E1'), record('E2')]) }));
    expect(o).toMatchObject({ kind: 'navigate', location: '/lvYunList/9/MjAwMg?f=a%20b' });
    expect(json(o).body).toMatchObject({ data: { outcome: 'navigate', location: '/lvYunList/9/MjAwMg?f=a%20b', replace: false } });
    const vc = o.cookies?.find((c) => c.name === CONTACT_COOKIE);
    expect((await verifyContact(vc?.value, SECRET, NOW))?.list?.map((r) => r.e)).toEqual(['E1', 'E2']);
    // any other value is the usual list
    const usual = await find({ list: 'elsewhere' }, ports({}, { queryRegistrations: async () => ok([record('E1'), record('E2')]) }));
    expect(json(usual).body).toMatchObject({ data: { outcome: 'select' } });
  });
  it('a lookup refused by the upstream: failed', async () => {
    const o = await find({}, ports({}, { queryRegistrations: async () => refused(500) }));
    expect(json(o).body).toMatchObject({ data: { outcome: 'failed' } });
  });
  it('the bypass finds none: the no-data message, no code checked', async () => {
    const p = ports({}, { queryRegistrations: async () => ok([]) });
    const o = await find({ variant: 'IEAE', expoId: '1308', urlId: '10542', code: '' }, p, {});
    expect(o).toMatchObject({ kind: 'notice', notice: { key: 'search.nodata' } });
    expect(json(o).body).toEqual({ code: 200, msg: null, data: { outcome: 'nodata', message: 'search.nodata' } });
    expect(p.upstream.captchaVerify).not.toHaveBeenCalled();
  });
});

describe('lookup: the haisi family (spec §2.3, §7 queryHaiPhone)', () => {
  it('asks queryHaiPhone and leads to the family’s own form, credential and list', async () => {
    const p = ports({}, { queryRegistrations: vi.fn(async () => ok([record('E1')])) });
    const one = await find({ variant: 'haisiEn' }, p);
    expect(p.upstream.queryRegistrations).toHaveBeenCalledWith(expect.objectContaining({ call: 'queryHaiPhone' }));
    expect(one.kind === 'navigate' && one.location.startsWith('/haisiSuccessEn/')).toBe(true);
    const none = await find({ variant: 'haisi' }, ports({}, { queryRegistrations: async () => ok([]) }));
    expect(none.kind === 'navigate' && none.location).toBe(`/haisiForm/9/${encodeId(2002)}?found=0`);
    const several = await find({ variant: 'haisiEn' }, ports({}, { queryRegistrations: async () => ok([record('E1'), record('E2')]) }));
    expect(several.kind === 'navigate' && several.location).toMatch(/^\/applyList\/.*\?v=haisiEn&f=$/);
  });

  it('every other page asks the contact lookup (no call named)', async () => {
    const p = ports();
    await find({}, p);
    expect(p.upstream.queryRegistrations).toHaveBeenCalledWith(expect.not.objectContaining({ call: expect.anything() }));
  });
});
