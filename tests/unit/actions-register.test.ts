/** The registration action over fake ports, in node: every outcome the adapter renders. */
import { describe, expect, it, vi } from 'vitest';
import { register, type RegisterPorts } from '../../src/lib/actions/register';
import { jsonOf, type ActionContext, type ActionOutcome } from '../../src/lib/actions/outcome';
import { CONTACT_COOKIE, signContact, type VerifiedContact } from '../../src/lib/lookup/contact-cookie';
import { DRAFT_COOKIE, FLASH_COOKIE } from '../../src/lib/page/flash';
import { IDEM_COOKIE, rememberResult } from '../../src/lib/form/idempotency';
import { encodeId } from '../../src/lib/util/ids';
import { okReply, refusedReply } from './upstream-fakes';

const SECRET = 'a-test-secret-of-32-characters!!';
const NOW = Date.UTC(2026, 10, 25, 3, 0, 0);
const EMAIL = 'ann@demo.test';
const IDEM = 'k'.repeat(24);
const t: ActionContext['t'] = (k, v) => `${k}${v && Object.keys(v).length > 0 ? JSON.stringify(v) : ''}`;
const PAGE = { route: 'IEAEForm', path: `21308/${encodeId(1308)}/visitor` };
const FORM = [
  { key: 'uname', type: 'text', label: { en: 'Name' }, required: true },
  { key: 'email', type: 'email', label: { en: 'E-mail' }, required: true },
];
const CONFIG = { customerForm: FORM, customerWx: null, activity: { id: 7 } };

const ok = okReply;
const json = (o: ActionOutcome<unknown>) => jsonOf(o, t);

function ports(over: Partial<RegisterPorts> = {}, up: Partial<RegisterPorts['upstream']> = {}): RegisterPorts {
  return {
    upstream: {
      getCustomerId: vi.fn(async () => ok(CONFIG)),
      addUserInfo: vi.fn(async () => ok({ euCode: 'E9' })),
      addExhiUserInfor: vi.fn(async () => ok({ euCode: 'X2' })),
      getForm: vi.fn(async () => null),
      ...up,
    },
    secret: SECRET,
    countRegister: vi.fn(async () => null),
    ...over,
  };
}

const vcOf = (over: Partial<VerifiedContact> = {}): VerifiedContact => ({ expoId: 1308, contact: EMAIL, checkType: 2, ...over });

async function post(fields: Record<string, string>, p = ports(), cookies?: Record<string, string>) {
  const jar = cookies ?? { [CONTACT_COOKIE]: await signContact(vcOf(), SECRET, NOW) };
  const ctx: ActionContext = { lang: 'en', t, json: true, origin: 'https://expo.test', cookies: jar, now: NOW };
  return register.run(register.input.parse({ ...PAGE, idem: IDEM, uname: 'Ann', ...fields }), p, ctx);
}

describe('register', () => {
  it('a page no route names is a broken request', async () => {
    expect(await post({ route: 'NopeForm' })).toMatchObject({ kind: 'broken', message: 'api.badPage' });
  });
  it('no verified contact: to the lookup with the values waiting in the draft (JSON code 401, the flash goes too)', async () => {
    const o = await post({}, ports(), {});
    expect(o).toMatchObject({ kind: 'notice', notice: { key: 'form.verifyFirst' }, values: {}, flashWithJson: true });
    expect(o.cookies?.[0]?.name).toBe(DRAFT_COOKIE);
    const body = json(o).body as { code: number; data: { outcome: string; location: string; replace: boolean } };
    expect(body).toMatchObject({ code: 401, data: { outcome: 'navigate', replace: false } });
    expect(o.kind === 'notice' && o.to).toBe(body.data.location);
  });
  it('a retry of a form view that registered: the same credential', async () => {
    const cookies = { [CONTACT_COOKIE]: await signContact(vcOf(), SECRET, NOW), [IDEM_COOKIE]: await rememberResult(IDEM, '/IEAESuccess/x', SECRET) };
    const p = ports();
    const o = await post({}, p, cookies);
    expect(o).toMatchObject({ kind: 'navigate', location: '/IEAESuccess/x' });
    expect(p.upstream.addUserInfo).not.toHaveBeenCalled();
  });
  it("the config refused: the upstream's message", async () => {
    const o = await post({}, ports({}, { getCustomerId: async () => refusedReply(500, 'closed') }));
    const said = 'search.upstreamSaid\nclosed';
    expect(json(o).body).toEqual({ code: 500, msg: said, data: { outcome: 'refused', message: said } });
    const silent = await post({}, ports({}, { getCustomerId: async () => refusedReply(500, null) }));
    expect(json(silent).body).toMatchObject({ msg: 'search.otherError' });
  });
  it('a refused value: every failing field for the page, the first for the island', async () => {
    const o = await post({ uname: '' });
    expect(o).toMatchObject({ kind: 'invalid', errors: [{ field: 'uname', key: 'form.supplement' }] });
    expect(json(o).body).toMatchObject({ code: 400, data: { outcome: 'invalid', field: 'uname', name: 'uname' } });
  });
  it('over a limit: refused before the upstream writes', async () => {
    const p = ports({ countRegister: async () => ({ status: 429, retryAfterS: 9, key: 'limit.attemptsSeconds', vars: { n: 9 } }) });
    const o = await post({}, p);
    expect(json(o)).toMatchObject({ status: 429, body: { code: 600 } });
    expect(p.upstream.addUserInfo).not.toHaveBeenCalled();
  });
  it('registered: the credential (replace), the key remembered, the flash and draft dropped, the locked contact sent', async () => {
    const p = ports();
    const o = await post({ email: 'someone@else.test' }, p);
    expect(o.kind).toBe('navigate');
    expect(json(o).body).toMatchObject({ code: 200, data: { outcome: 'navigate', replace: true } });
    expect(o.cookies?.map((c) => c.name)).toEqual([CONTACT_COOKIE, IDEM_COOKIE, FLASH_COOKIE, DRAFT_COOKIE]);
    expect(p.upstream.addUserInfo).toHaveBeenCalledWith(expect.objectContaining({ expoId: 1308, values: expect.objectContaining({ email: EMAIL, activityId: 7 }) }));
  });
  it('20001: the update prompt', async () => {
    const o = await post({}, ports({}, { addUserInfo: async () => ({ ok: false, kind: 'already-registered', code: 20001, msg: null, data: { id: null } }) }));
    expect(json(o).body).toMatchObject({ code: 20001, msg: 'form.updatePrompt', data: { outcome: 'update' } });
    expect(o).toMatchObject({ kind: 'notice', notice: { tone: 'info', key: 'form.updatePrompt' } });
  });
  it("an organiser's refusal in English reads in the page language (a Chinese page shows no English sentence)", async () => {
    const english = 'this phone or ID number is registered with another contact; look it up with that contact';
    for (const msg of [english, '该证件号码已被其他用户注册']) {
      const o = await post({}, ports({}, { addUserInfo: async () => ({ ok: false, kind: 'refused', code: 403, msg }) }));
      expect(json(o).body).toEqual({
        code: 403,
        msg: 'rules.registeredElsewhere',
        data: { outcome: 'refused', message: 'rules.registeredElsewhere' },
      });
      expect(o).toMatchObject({ kind: 'notice', notice: { key: 'rules.registeredElsewhere', text: null } });
    }
    // a registration refusal that says "incorrect" is about a value: never spec §8's silent wrong code
    const value = await post({}, ports({}, { addUserInfo: async () => refusedReply(400, 'ID number incorrect') }));
    expect(json(value).body).toMatchObject({ msg: 'search.upstreamSaid\nID number incorrect' });
  });
  it('any other refusal: its message; a fault reads as a refusal to the island', async () => {
    const o = await post({}, ports({}, { addUserInfo: async () => refusedReply(500, ' no ') }));
    const said = 'search.upstreamSaid\nno';
    expect(json(o).body).toEqual({ code: 500, msg: said, data: { outcome: 'refused', message: said } });
    expect(o).toMatchObject({ kind: 'notice', notice: { tone: 'error', key: 'search.upstreamSaid', text: 'no' } });
    expect(register.faultData?.('late')).toEqual({ outcome: 'refused', message: 'late' });
  });
});

describe('register: the haisi family (spec §7 Hai calls; docs/upstream.md "Haisi")', () => {
  const HAISI = (route: string) => ({ route, path: `22616/${encodeId(2616)}/visitor` });
  const proven = async () => ({ [CONTACT_COOKIE]: await signContact(vcOf({ expoId: 2616 }), SECRET, NOW) });
  const sent = (p: RegisterPorts) => (p.upstream.addUserInfo as ReturnType<typeof vi.fn>).mock.calls[0]?.[0] as { call?: string; values: Record<string, unknown> };

  it.each([
    ['haisiForm', '', 'addHaiUserInfo', '/haisiSuccess/'],
    ['haisiFormEn', '', 'addHaiUserInfoNew', '/haisiSuccessEn/'],
    ['haisiForm', '1', 'addHaiExpoUserNew', '/haisiSuccess/'],
    ['haisiFormEn', '1', 'addHaiExpoUserNew', '/haisiSuccessEn/'],
  ])('%s (update %s) posts %s with the proven contact, and stays in the family', async (route, update, call, success) => {
    const p = ports();
    const o = await post({ ...HAISI(route), email: 'typed@evil.test', ...(update ? { update } : {}) }, p, await proven());
    expect(o).toMatchObject({ kind: 'navigate' });
    expect(o.kind === 'navigate' && o.location.startsWith(success)).toBe(true);
    expect(sent(p)).toMatchObject({ call, values: { checkType: 2, email: EMAIL } });
  });

  it('every other form posts addUserInfo (no call named)', async () => {
    const p = ports();
    await post({}, p);
    expect(sent(p).call).toBeUndefined();
  });
});

describe('register: the link\'s custom label (spec §3 euDefine, §7 getForm)', () => {
  const values = (p: RegisterPorts) => ((p.upstream.addUserInfo as ReturnType<typeof vi.fn>).mock.calls[0]?.[0] as { values: Record<string, unknown> }).values;
  it('a label the organiser confirms for this url is asked again and sent as euDefine', async () => {
    const p = ports({}, { getForm: vi.fn(async () => ({ define: 'VIP', name: 'VIP guest' })) });
    expect((await post({ define: 'VIP' }, p)).kind).toBe('navigate');
    expect(p.upstream.getForm).toHaveBeenCalledWith({ expoId: 1308, fId: 21308, define: 'VIP' });
    expect(values(p)['euDefine']).toBe('VIP');
    expect(values(p)).not.toHaveProperty('define');
  });
  it('an unknown label (a forged post): registered normally, without it', async () => {
    const p = ports();
    expect((await post({ define: 'Boss' }, p)).kind).toBe('navigate');
    expect(p.upstream.getForm).toHaveBeenCalledTimes(1);
    expect(values(p)).not.toHaveProperty('euDefine');
  });
  it('an over-long label or a getForm fault: registered normally, without it', async () => {
    const long = ports({}, { getForm: vi.fn(async () => ({ define: 'V', name: 'V' })) });
    await post({ define: 'V'.repeat(5000) }, long);
    expect(long.upstream.getForm).not.toHaveBeenCalled();
    expect(values(long)).not.toHaveProperty('euDefine');
    const down = ports({}, { getForm: () => Promise.reject(new Error('timeout')) });
    expect((await post({ define: 'VIP' }, down)).kind).toBe('navigate');
    expect(values(down)).not.toHaveProperty('euDefine');
  });
  it('a refused post comes back to the labelled form', async () => {
    const o = await post({ define: 'VIP', uname: '' });
    expect(o.kind).toBe('invalid');
    expect(register.back({ ...PAGE, define: 'VIP' }, {} as ActionContext)).toBe(`/IEAEForm/${PAGE.path}?define=VIP`);
  });
});
