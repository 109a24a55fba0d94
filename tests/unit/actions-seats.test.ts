/** The seat, health and site actions over fake ports, in node: every outcome branch. */
import { describe, expect, it } from 'vitest';
import { seatCompanies, seatDetail, seatPerson, type SeatPorts, type SeatUpstream } from '../../src/lib/actions/seats';
import { healthDelete, healthUpload, type HealthPorts, type HealthUpstream } from '../../src/lib/actions/health';
import { site, type SitePorts, type SiteUpstream } from '../../src/lib/actions/site';
import { jsonOf, type ActionContext, type ActionOutcome } from '../../src/lib/actions/outcome';
import { CONTACT_COOKIE, signContact } from '../../src/lib/lookup/contact-cookie';
import { HEALTH_MAX_BYTES } from '../../src/lib/seat/health';
import { JPEG_1X1 } from './image-fixtures';
import { routePath } from '../../src/lib/core/routes';
import { okReply, refusedReply } from './upstream-fakes';

/** The outcome with what an island gets of it (functions/api/action.ts answers it so). */
const island = (o: ActionOutcome<unknown>) => ({ ...o, reply: jsonOf(o, ((k: string, v?: Record<string, string | number>) => `${k}${v ? JSON.stringify(v) : ''}`)).body });

const SECRET = 'a-test-secret-of-32-characters!!';
const ORIGIN = 'https://expo.test';
const t: ActionContext['t'] = (k, v) => `${k}${v ? JSON.stringify(v) : ''}`;
const ctxOf = (json = false, cookies: Record<string, string> = {}): ActionContext => ({ lang: 'en', t, json, origin: ORIGIN, cookies, now: Date.now() });
const ok = okReply;
const no = refusedReply;
const body = (o: ActionOutcome) => jsonOf(o, t);
const refusal = { status: 429 as const, retryAfterS: 60, key: 'limit.attemptsSeconds' as const, vars: { n: 60 } };

describe('seat actions', () => {
  const PAGE = { expoId: '1235', urlId: '10542', ty: '', back: '' };
  const seatPorts = (up: Partial<SeatUpstream> = {}, more: Partial<SeatPorts> = {}): SeatPorts => ({
    up: {
      getUserCompanyList: async () => ok(['Acme Ltd', 'Acme Group', 'Other Acme']),
      getUserSeatDetail: async () => ok({ userName: 'Ann Lee', company: 'Acme Ltd', seat: 'A-1' }),
      selectUserSeat: async () => ok([
        { id: 1, userName: 'Ann Lee', company: 'Acme Ltd', seat: 'A', seatNumber: '1' },
        { id: 2, userName: 'Ann Lee', company: 'Elsewhere', seat: 'B', seatNumber: '2' },
      ]),
      ...up,
    },
    secret: SECRET,
    limit: async () => null,
    ...more,
  });
  const run = async <A extends typeof seatCompanies>(a: A, fields: Record<string, string>, ports = seatPorts(), json = false) =>
    a.run(a.input.parse({ ...PAGE, ...fields }), ports, ctxOf(json));

  it('the input: a seat-lookup expo only; back to a seat page of this site, else the page itself', () => {
    expect(seatDetail.input.safeParse({ ...PAGE, expoId: '2012' }).success).toBe(false);
    expect(seatDetail.back({ ...PAGE, back: '/seat/x' }, ctxOf())).toBe('/seat/x');
    expect(seatDetail.back({ ...PAGE, back: 'https://evil.test/seat/x' }, ctxOf())).toMatch(/^\/seat\//);
    expect(seatDetail.back({ expoId: 'x', back: '/b' }, ctxOf())).toBe('/b');
    // the expo's home is the seat lookup itself (spec §2.4): a refused post comes back there; another expo's home does not
    expect(seatDetail.back({ ...PAGE, back: '/10542/MTIzNQ' }, ctxOf())).toBe('/10542/MTIzNQ');
    expect(seatDetail.back({ ...PAGE, back: '/10542/MTIzNQ?f=1' }, ctxOf())).toBe('/10542/MTIzNQ?f=1');
    expect(seatDetail.back({ ...PAGE, back: '/10542/MTMwOA' }, ctxOf())).toMatch(/^\/seat\//);
    expect(seatDetail.keep?.({ userName: 'x'.repeat(300), companyName: 'c' })).toEqual({ userName: 'x'.repeat(100), companyName: 'c' });
  });
  it('companies: JSON only; too short asks nothing; prefixes of the typed text only', async () => {
    // a form post never runs it: the adapter answers it as a broken request (tests/edge: api-seats)
    expect(seatCompanies.jsonOnly).toBe(true);
    let asked = 0;
    const counting = seatPorts({ getUserCompanyList: async () => (asked++, ok([])) });
    expect(body(await run(seatCompanies, { keywords: 'Ac' }, counting, true)).body).toEqual({ code: 200, msg: null, data: { companies: [] } });
    expect(asked).toBe(0);
    expect(body(await run(seatCompanies, { keywords: 'Acme' }, seatPorts(), true)).body.data).toEqual({ companies: ['Acme Ltd', 'Acme Group'] });
    expect(island(await run(seatCompanies, { keywords: 'Acme' }, seatPorts({}, { limit: async () => refusal }), true))).toMatchObject({ status: 429, reply: { code: 600 } });
    expect(body(await run(seatCompanies, { keywords: 'Acme' }, seatPorts({ getUserCompanyList: async () => no(500, 'busy') }), true)).body).toEqual({ code: 600, msg: 'busy', data: null });
  });
  it('detail: a missing field; an inexact match finds no seat; the signed result page', async () => {
    expect(island(await run(seatDetail, { userName: '', companyName: 'Acme Ltd' }))).toMatchObject({ kind: 'invalid', errors: [{ field: 'userName' }], reply: { code: 400, data: { field: 'userName' } } });
    expect(island(await run(seatDetail, { userName: 'Ann Lee', companyName: 'Acme' }))).toMatchObject({ kind: 'notice', notice: { key: 'seat.noSeat' }, reply: { data: { field: null } } });
    expect(await run(seatDetail, { userName: 'Ann Lee', companyName: 'Acme Ltd' }, seatPorts({ getUserSeatDetail: async () => no(500) }))).toMatchObject({ notice: { text: 'error.relatedData' } });
    expect(await run(seatDetail, { userName: 'Ann Lee', companyName: 'Acme Ltd' }, seatPorts({}, { limit: async () => refusal }))).toMatchObject({ status: 429 });
    const o = await run(seatDetail, { userName: 'ann  lee', companyName: 'ACME LTD' });
    expect(o.kind === 'navigate' && o.location).toMatch(/sig=/);
  });
  it("person: the activity type is required; only the typed company's rows; none said", async () => {
    const who = { userName: 'Ann Lee', companyName: 'Acme Ltd' };
    expect(await run(seatPerson, { userName: '', companyName: 'x', typeId: '3' })).toMatchObject({ kind: 'invalid' });
    expect(body(await run(seatPerson, { ...who, typeId: 'x' }, seatPorts(), true))).toEqual({ status: 400, body: { code: 400, msg: 'seat.activityType', data: null } });
    expect(await run(seatPerson, { ...who, typeId: '3' }, seatPorts({}, { limit: async () => refusal }))).toMatchObject({ status: 429 });
    expect(await run(seatPerson, { ...who, typeId: '3' }, seatPorts({ selectUserSeat: async () => no(500, 'x') }))).toMatchObject({ notice: { text: 'x' } });
    const o = await run(seatPerson, { ...who, typeId: '3' });
    expect(o).toMatchObject({ kind: 'notice', notice: null, values: { typeId: '3', p0: JSON.stringify(['Acme Ltd', 'A', '1']) } });
    expect(body(o).body.data).toMatchObject({ people: [{ id: 1 }] });
    const none = await run(seatPerson, { ...who, typeId: '3' }, seatPorts({ selectUserSeat: async () => ok([]) }), true);
    expect(island(none)).toMatchObject({ notice: { key: 'seat.activityNone' }, reply: { msg: 'seat.activityNone' } });
  });
});

describe('health actions', () => {
  const E = 1308;
  const owner = async (codes: string[] = ['EU1']) => ({ [CONTACT_COOKIE]: await signContact({ expoId: E, contact: 'a@b.test', checkType: 2, codes }, SECRET) });
  const healthPorts = (up: Partial<HealthUpstream> = {}, file: Blob | null = new Blob([JPEG_1X1], { type: 'image/jpeg' })): HealthPorts => ({
    up: {
      getCustomerId: async () => ok({ customerWx: { healthPledge: 1 } }),
      uploadHealth: async () => ok({ id: 9 }),
      deleteHealth: async () => ok(null),
      ...up,
    },
    secret: SECRET,
    file: async () => file,
  });
  const UP = { expoId: String(E), urlId: '1', euCode: 'EU1', kind: '1', back: '/x' };
  const upload = async (fields: Record<string, string>, ports = healthPorts(), cookies?: Record<string, string>) => healthUpload.run(fields, ports, ctxOf(false, cookies ?? (await owner())));

  it('back: the credential page of this site, else home', () => {
    expect(healthUpload.back({ back: '/x' }, ctxOf())).toBe('/x');
    expect(healthUpload.back({ back: 'https://evil.test/x' }, ctxOf())).toBe('/');
  });
  it('upload refusals, each with its status', async () => {
    expect(await upload({ ...UP, euCode: '' })).toMatchObject({ status: 400, notice: { key: 'error.uploadFailed' } });
    expect(await upload(UP, healthPorts(), await owner(['OTHER']))).toMatchObject({ status: 401, notice: { key: 'health.notOwner' } });
    expect(await upload(UP, healthPorts({}, new Blob([new Uint8Array(HEALTH_MAX_BYTES + 1)])))).toMatchObject({ status: 400, notice: { key: 'health.tooLarge' } });
    expect(await upload(UP, healthPorts({}, null))).toMatchObject({ status: 400, notice: { key: 'health.fileRequired' } });
    expect(await upload(UP, healthPorts({ getCustomerId: async () => ok({ customerWx: null }) }))).toMatchObject({ status: 404 });
    const refused = await upload(UP, healthPorts({ uploadHealth: async () => no(20301, 'full') }));
    expect(island(refused)).toMatchObject({ status: 200, notice: { tone: 'error', key: null, text: 'error.uploadFailed: full' }, reply: { code: 20301 } });
  });
  it('uploaded: the id for the island, the notice for the page', async () => {
    const o = await upload(UP);
    expect(o).toMatchObject({ notice: { tone: 'info', key: 'upload.success', text: null } });
    expect(body(o).body).toEqual({ code: 200, msg: 'upload.success', data: { id: 9 } });
  });
  it('delete: malformed, not the owner, refused (404 as is), done', async () => {
    const del = async (fields: Record<string, string>, up: Partial<HealthUpstream> = {}) => healthDelete.run(fields, healthPorts(up), ctxOf(true, await owner()));
    const one = { expoId: String(E), euCode: 'EU1', id: '3' };
    expect(await del({ ...one, id: 'x' })).toMatchObject({ status: 400, notice: { key: 'error.relatedData' } });
    expect(await del({ ...one, euCode: 'EU2' })).toMatchObject({ status: 401 });
    expect(island(await del(one, { deleteHealth: async () => no(404, 'gone') }))).toMatchObject({ status: 404, reply: { code: 404, msg: 'gone' } });
    expect(island(await del(one, { deleteHealth: async () => no(500) }))).toMatchObject({ status: 200, reply: { msg: 'error.relatedData' } });
    expect(await del(one)).toMatchObject({ status: 200, notice: { tone: 'info', key: 'health.deleted' } });
  });
});

describe('site action', () => {
  const E = 1308;
  const back = routePath({ screen: 'credential', variant: null, params: { urlId: 21308, euCode: 'EU1', expoId: E, fId: 21308 } });
  const sitePorts = (up: Partial<SiteUpstream> = {}): SitePorts => ({
    up: { addExpoUserSite: async () => ok({ id: 4 }), deleteExpoUserSite: async () => ok(null), ...up },
    secret: SECRET,
    codes: { full: 20201, alreadyBooked: 20202 },
  });
  const cookies = async (codes = ['EU1']) => ({ [CONTACT_COOKIE]: await signContact({ expoId: E, contact: 'a@b.test', checkType: 2, codes }, SECRET) });
  const run = async (fields: Record<string, string>, up: Partial<SiteUpstream> = {}, json = false, codes?: string[]) => site.run({ back, ...fields }, sitePorts(up), ctxOf(json, await cookies(codes)));

  it('a back that is not a credential page: broken for a form, 400 for JSON', async () => {
    expect(await run({ back: '/elsewhere', action: 'book', siteDateId: '1' })).toEqual({ kind: 'broken', message: 'site.bad' });
    expect(body(await run({ back: 'https://evil.test/x', action: 'book', siteDateId: '1' }, {}, true))).toEqual({ status: 400, body: { code: 400, msg: 'site.bad', data: null } });
  });
  it('a malformed action, someone else: 400, 403', async () => {
    expect(await run({ action: 'book', siteDateId: 'x' })).toMatchObject({ status: 400, notice: { key: 'site.bad' } });
    expect(await run({ action: 'book', siteDateId: '1' }, {}, false, ['EU9'])).toMatchObject({ status: 403, notice: { key: 'site.verifyFirst' } });
  });
  it('book: booked, full, already, any other refusal', async () => {
    expect(island(await run({ action: 'book', siteDateId: '1' }, {}, true))).toMatchObject({ notice: { tone: 'info', key: 'site.booked' }, reply: { code: 200, data: { id: 4 } } });
    expect(await run({ action: 'book', siteDateId: '1' }, { addExpoUserSite: async () => no(20201) })).toMatchObject({ notice: { tone: 'error', key: 'site.full' } });
    expect(await run({ action: 'book', siteDateId: '1' }, { addExpoUserSite: async () => no(20202) })).toMatchObject({ notice: { key: 'site.already' } });
    expect(island(await run({ action: 'book', siteDateId: '1' }, { addExpoUserSite: async () => no(500, ' no ') }))).toMatchObject({ notice: { key: null, text: 'no' }, reply: { code: 500 } });
  });
  it('cancel: cancelled, refused', async () => {
    expect(await run({ action: 'cancel', id: '4' })).toMatchObject({ notice: { tone: 'info', key: 'site.cancelled' } });
    expect(await run({ action: 'cancel', id: '4' }, { deleteExpoUserSite: async () => no(500) })).toMatchObject({ notice: { text: 'error.relatedData' } });
  });
});
