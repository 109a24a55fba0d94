/** The named forms of spec §2.3 (src/lib/core/named-forms.ts): the route table, their rules, their screens' data and their posts. */
import { describe, expect, it, vi } from 'vitest';
import { NAMED_FORMS, namedForm, GENERIC_SECOND_FORM } from '../../src/lib/core/named-forms';
import { isFormNext, namesRegistration, resolveFormPage, updatesExisting } from '../../src/lib/form/page';
import { matchRoute, routePath } from '../../src/lib/core/routes';
import { showDesktopBanner } from '../../src/lib/expo/shell';
import { loadForm, loadFormLink } from '../../src/lib/screens/form';
import { register, type RegisterPorts } from '../../src/lib/actions/register';
import { jsonOf, type ActionContext, type ActionOutcome } from '../../src/lib/actions/outcome';
import type { Credential } from '../../src/lib/util/domain';
import { CONTACT_COOKIE, signContact, type VerifiedContact } from '../../src/lib/lookup/contact-cookie';
import { encodeId } from '../../src/lib/util/ids';
import { contact, ok, page, pathOf, ports } from './screens-helpers';
import { okReply, refusedReply } from './upstream-fakes';

/** The outcome with what an island gets of it (functions/api/action.ts answers it so). */
const island = (o: ActionOutcome<unknown>) => ({ ...o, reply: jsonOf(o, ((k: string) => k)).body });

const EXPO = 2030;
const rest = (fId = 22030) => pathOf(EXPO, fId).split('/').filter(Boolean);
const definition = {
  customerForm: [
    { key: 'uname', type: 'text', label: { en: 'Name' }, required: true },
    { key: 'ucompany', type: 'text', label: { en: 'Company' }, required: true },
    { key: 'email', type: 'email', label: { en: 'E-mail' }, required: true },
  ],
};
const record = (euCode: string, more: Partial<Credential> = {}): Credential => ({
  id: 1,
  euCode,
  uname: 'Ann',
  euClass: 0,
  euDefine: null,
  ticketName: null,
  activityId: null,
  createtime: '2026-01-01 10:00:00',
  ucompany: 'Sea Co',
  ucardid: null,
  ucompanyTitle: 'Buyer',
  useStatus: 0,
  usedCount: 0,
  maxCount: 1,
  auditStatus: 0,
  ...more,
});

describe('the named forms table', () => {
  it('holds the seven routes of spec §2.3, each once, each a form kind the resolver knows', () => {
    expect(NAMED_FORMS.map((f) => f.route)).toEqual(['jjcz2024', 'ocean', 'formCic', 'reForm', 'twoForm', 'userInfo', 'subyexhi']);
    expect(namedForm('twoForm')?.kind).toBe(GENERIC_SECOND_FORM === 'twoForm' ? 'secondForm' : 'none');
    expect(namedForm('nope')).toBeNull();
  });

  it.each(NAMED_FORMS.map((f) => [f.route, f.kind] as const))('/%s/{fId}/{eid}/{ty} is a form page of kind %s, and routePath builds it back', (route, kind) => {
    const path = routePath({ screen: 'form', route, params: { fId: 22030, expoId: EXPO, ty: 'visitor' } });
    expect(path).toBe(`/${route}${pathOf(EXPO)}`);
    const m = matchRoute(path);
    expect(m?.screen).toBe('form');
    expect(m?.screen === 'form' && resolveFormPage(m.route, m.rest, m.variant)?.kind).toBe(kind);
  });

  it('a path without any parameters still matches (the legacy-link page); a broken one does not resolve', () => {
    const m = matchRoute('/ocean');
    expect(m).toMatchObject({ screen: 'form', route: 'ocean', rest: [] });
    expect(resolveFormPage('ocean', ['x'], null)).toBeNull();
    expect(loadFormLink({ t: (k) => k }, { route: 'ocean', rest: [], variant: null })).toEqual({ kind: 'formLink', route: 'ocean', heading: 'forms2.oceanTitle' });
    // only named forms: `/form` without a path stays not found
    expect(loadFormLink({ t: (k) => k }, { route: 'form', rest: [], variant: null })).toBeNull();
    expect(loadFormLink({ t: (k) => k }, { route: 'ocean', rest: rest(), variant: null })).toBeNull();
  });

  it('reForm updates and names its registration; the lookup may send a visitor back to it, not to twoForm', () => {
    expect(updatesExisting('correct')).toBe(true);
    expect(namesRegistration('correct')).toBe(true);
    expect(updatesExisting('exhibitor')).toBe(false);
    expect(isFormNext(`/reForm${pathOf(EXPO)}?e=ABC`, EXPO)).toBe(true);
    expect(isFormNext(`/userInfo${pathOf(EXPO)}`, EXPO)).toBe(true);
    expect(isFormNext(`/twoForm${pathOf(EXPO)}`, EXPO)).toBe(false);
    expect(isFormNext(`/ocean${pathOf(EXPO)}`, 1308)).toBe(false);
  });

  it('jjcz2024 hides the desktop banner (spec §2.5), ocean does not', () => {
    expect(showDesktopBanner({ expoId: EXPO, pathname: `/jjcz2024${pathOf(EXPO)}` })).toBe(false);
    expect(showDesktopBanner({ expoId: EXPO, pathname: `/ocean${pathOf(EXPO)}` })).toBe(true);
  });
});

describe('loadForm for the named forms', () => {
  it('a plain named form carries its own heading; unverified, it links to the lookup with next', async () => {
    const d = await loadForm(page(`/ocean${pathOf(EXPO)}`), ports(), { route: 'ocean', rest: rest(), variant: null });
    expect(d?.heading).toBe('forms2.oceanTitle');
    expect(d?.verified).toBe(false);
    expect(d?.verifyHref).toBe(`/search${pathOf(EXPO)}?next=${encodeURIComponent(`/ocean${pathOf(EXPO)}`)}`);
  });

  it("userInfo lists the contact's own registrations, each with its correction link and credential", async () => {
    const p = ports({ queryCustomerCode: vi.fn(async ({ euCode }: { euCode: string }) => (euCode === 'GONE' ? refusedReply(500) : okReply(record(euCode)))) });
    const d = await loadForm(page(`/userInfo${pathOf(EXPO)}`, { contact: contact(EXPO, { codes: ['MINE1', 'GONE'] }), config: definition }), p, { route: 'userInfo', rest: rest(), variant: null });
    expect(d?.registrations).toEqual([
      {
        euCode: 'MINE1',
        name: 'Ann',
        label: 'class.0',
        company: 'Sea Co',
        title: 'Buyer',
        editHref: `/reForm${pathOf(EXPO)}?e=MINE1`,
        credentialHref: routePath({ screen: 'credential', variant: null, params: { urlId: 22030, euCode: 'MINE1', expoId: EXPO, fId: 22030 } }),
      },
    ]);
  });

  it("reForm pre-fills the contact's own registration; a code it does not own shows the choice instead", async () => {
    const p = ports({ queryCustomerCode: ok(record('MINE1')) });
    const vc = contact(EXPO, { codes: ['MINE1'] });
    const mine = await loadForm(page(`/reForm${pathOf(EXPO)}?e=MINE1`, { contact: vc, config: definition }), p, { route: 'reForm', rest: rest(), variant: null });
    expect(mine?.registrations).toBeNull();
    expect(mine?.values).toMatchObject({ uname: 'Ann', ucompany: 'Sea Co' });
    expect(mine?.hidden.e).toBe('MINE1');
    const p2 = ports({ queryCustomerCode: ok(record('MINE1')) });
    const theirs = await loadForm(page(`/reForm${pathOf(EXPO)}?e=THEIRS`, { contact: vc, config: definition }), p2, { route: 'reForm', rest: rest(), variant: null });
    expect(p2.queryCustomerCode).not.toHaveBeenCalledWith({ expoId: EXPO, euCode: 'THEIRS' });
    expect(theirs?.values.uname ?? '').toBe('');
    expect(theirs?.registrations?.map((r) => r.euCode)).toEqual(['MINE1']);
  });
});

describe('posting a named form (/api/register)', () => {
  const SECRET = 'a-test-secret-of-32-characters!!';
  const NOW = Date.UTC(2026, 10, 25, 3, 0, 0);
  const t: ActionContext['t'] = (k) => k;
  const portsOf = (): RegisterPorts => ({
    upstream: {
      getCustomerId: vi.fn(async () => okReply({ customerForm: definition.customerForm, customerWx: null, activity: null })),
      addUserInfo: vi.fn(async () => okReply({ euCode: 'V1' })),
      addExhiUserInfor: vi.fn(async () => okReply({ euCode: 'X2' })),
      getForm: vi.fn(async () => null),
    },
    secret: SECRET,
    countRegister: vi.fn(async () => null),
  });
  async function post(route: string, fields: Record<string, string>, p: RegisterPorts, vc: VerifiedContact = contact(EXPO, { contact: 'ann@demo.test', codes: ['MINE1'] })) {
    const ctx: ActionContext = { lang: 'en', t, json: true, origin: 'https://expo.test', cookies: { [CONTACT_COOKIE]: await signContact(vc, SECRET, NOW) }, now: NOW };
    const path = `${route === 'subyexhi' ? 42030 : 22030}/${encodeId(EXPO)}/visitor`;
    return register.run(register.input.parse({ route, path, idem: 'k'.repeat(24), uname: 'Ann', ucompany: 'Sea Co', email: 'typed@x.test', ...fields }), p, ctx);
  }

  it('subyexhi goes to addExhiUserInfor with the proven contact, then to the credential', async () => {
    const p = portsOf();
    const o = await post('subyexhi', {}, p);
    expect(p.upstream.addUserInfo).not.toHaveBeenCalled();
    expect(p.upstream.addExhiUserInfor).toHaveBeenCalledWith({ expoId: EXPO, urlsId: 42030, values: expect.objectContaining({ ucompany: 'Sea Co', email: 'ann@demo.test', checkType: 2 }) });
    expect(o).toMatchObject({ kind: 'navigate', location: expect.stringMatching(/^\/success\//) });
  });

  it('reForm updates one of the contact’s own codes; any other code is refused before the upstream', async () => {
    const p = portsOf();
    await post('reForm', { e: 'MINE1' }, p);
    expect(p.upstream.addUserInfo).toHaveBeenCalledWith(expect.objectContaining({ values: expect.objectContaining({ euCode: 'MINE1', update: true }) }));
    const q = portsOf();
    const o = await post('reForm', { e: 'THEIRS' }, q);
    expect(island(o)).toMatchObject({ kind: 'notice', reply: { code: 404 } });
    const none = await post('reForm', {}, q);
    expect(island(none)).toMatchObject({ kind: 'notice', reply: { code: 404 } });
    expect(q.upstream.addUserInfo).not.toHaveBeenCalled();
  });

  it('userInfo posts nothing (a broken request)', async () => {
    expect(await post('userInfo', {}, portsOf())).toMatchObject({ kind: 'broken' });
  });
});
