/**
 * The seat lookup, pledge and health endpoints (issue 12) in workerd: the whole app in-process
 * with the reference upstream on D1 and the `LIMITS` Durable Object, default limits.
 *
 * The throttle is proven by what the visitor gets, through two separate request paths and two
 * separate app instances (as two isolates would be): company lists on one, seat lookups on the
 * other, all counted together per client address and expo. Each test uses its own address.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../functions/app';
import type { AppEnv } from '../../functions/env';
import { BASE, flashOf, setCookie, spyUpstream, testEnv, SECRET, TIGHT_PER_ADDRESS } from './api-lookup.helpers';

/** The per-address caps set low (their defaults sit above a crowd): a cap's mechanics with a few requests. */
const tightEnv = { ...testEnv, ...TIGHT_PER_ADDRESS };
import reference from '../../functions/reference';
import { readSeatResult } from '../../src/lib/seat/seats';
import { JPEG_1X1 } from '../unit/image-fixtures';
import { encodeId } from '../../src/lib/util/ids';
import { CONTACT_COOKIE, signContact } from '../../src/lib/lookup/contact-cookie';
import { HEALTH_MAX_PER_KIND } from '../../src/lib/seat/health';
import { PLEDGE_COOKIE, pledgeTicket, readPledged } from '../../src/lib/seat/pledge';
import type { HealthReply, SeatReply } from '../../src/lib/actions/replies';

const appA = createApp();
const appB = createApp();

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

let ipSeq = 0;
/** This run's network: the counter's storage may outlive one run, and its windows are a minute long. */
const RUN = Math.floor(Math.random() * 0xffff).toString(16);
/** An address (its own /64) no other test, and no earlier run, uses. */
const freshIp = () => `2001:db8:${RUN}:${(++ipSeq).toString(16)}::1`;

const seatPage = (expoId: number, urlId: number) => ({ expoId: String(expoId), urlId: String(urlId), ty: 'visitor' });
const seatBack = (expoId: number, urlId: number) => `/seat/${urlId}/${encodeId(expoId)}/visitor`;

interface Opts {
  ip?: string;
  form?: boolean;
  cookie?: string;
  app?: ReturnType<typeof createApp>;
  env?: AppEnv;
  headers?: Record<string, string>;
}

async function post(path: string, fields: Record<string, string>, o: Opts = {}): Promise<Response> {
  const headers: Record<string, string> = o.form
    ? { 'content-type': 'application/x-www-form-urlencoded' }
    : { 'content-type': 'application/json', accept: 'application/json' };
  if (o.ip) headers['cf-connecting-ip'] = o.ip;
  if (o.cookie) headers['cookie'] = o.cookie;
  return (o.app ?? appA).request(
    `${BASE}${path}`,
    { method: 'POST', headers: { ...headers, ...o.headers }, body: o.form ? new URLSearchParams(fields) : JSON.stringify(fields), redirect: 'manual' },
    o.env ?? tightEnv,
  );
}

const json = async (res: Response) => (await res.json()) as SeatReply;

describe('seat lookup API', () => {
  it('name → company → seat with JavaScript (1128 → /zuoweiSuccess, 1235 → /successYeJinJi)', async () => {
    const ip = freshIp();
    const list = await json(await post('/api/seat/companies', { ...seatPage(1128, 21128), keywords: '东方电' }, { ip }));
    expect(list).toEqual({ code: 200, msg: null, data: { companies: ['东方电子集团'] } });
    const seat = await json(await post('/api/seat/detail', { ...seatPage(1128, 21128), userName: ' 张伟 ', companyName: '东方电子集团' }, { ip }));
    const location = seat.data?.location ?? '';
    expect(location).toMatch(/^\/zuoweiSuccess\?/);
    expect(await readSeatResult(new URL(location, BASE).searchParams, 'zuowei', SECRET)).toEqual({
      ok: true,
      result: { userName: '张伟', companyName: '东方电子集团', seat: 'A区 02排 11座' },
    });
    const other = await json(await post('/api/seat/detail', { ...seatPage(1235, 21235), userName: '陈静', companyName: '蓝海医疗器械' }, { ip }));
    expect(other.data?.location).toContain('/successYeJinJi?');
    expect(other.data?.location).toContain('expoId=1235');
    expect(other.data?.location).toContain(`seat=${encodeURIComponent('1号厅 C排 15座').replace(/%20/g, '+')}`);
  });

  it('without JavaScript: the typed name and company post to the seat', async () => {
    const ip = freshIp();
    const seat = await post('/api/seat/detail', { ...seatPage(1235, 21235), userName: '陈静', companyName: '远航贸易有限公司' }, { ip, form: true });
    expect(seat.status).toBe(303);
    expect(seat.headers.get('location')).toMatch(/^\/successYeJinJi\?userName=.*&fId=21235&sig=/);
  });

  it('a name without consent is not found; empty name and company get their messages; values kept', async () => {
    const ip = freshIp();
    const back = seatBack(1128, 21128);
    const none = await post('/api/seat/detail', { ...seatPage(1128, 21128), userName: '李娜', companyName: '华信科技有限公司' }, { ip, form: true });
    expect(flashOf(none, back)).toMatchObject({ values: { userName: '李娜', companyName: '华信科技有限公司' }, notice: { key: 'seat.noSeat' } });
    const detail = await json(await post('/api/seat/detail', { ...seatPage(1128, 21128), userName: '李娜', companyName: '华信科技有限公司' }, { ip }));
    expect(detail).toMatchObject({ code: 400, msg: '未查询到座位号信息' });
    const noName = await post('/api/seat/detail', { ...seatPage(1128, 21128), userName: '  ', companyName: '华信' }, { ip, form: true });
    expect(flashOf(noName, back)).toMatchObject({ values: { companyName: '华信' }, error: { field: 'userName', key: 'seat.nameRequired' } });
    const noCompany = await json(await post('/api/seat/detail', { ...seatPage(1128, 21128), userName: '张伟', companyName: '' }, { ip }));
    expect(noCompany).toMatchObject({ code: 400, msg: '请输入公司名称', data: { field: 'companyName' } });
  });

  it('asks nothing for fewer than 3 characters; refuses an expo without seat lookup and a broken page', async () => {
    const spy = spyUpstream();
    const r = await json(await post('/api/seat/companies', { ...seatPage(1128, 21128), userName: '张伟', keywords: '华信' }, { ip: freshIp() }));
    expect(r).toEqual({ code: 200, msg: null, data: { companies: [] } });
    expect(spy.paths()).toEqual([]);
    expect((await post('/api/seat/detail', { ...seatPage(2002, 22002), userName: 'a', companyName: 'b' })).status).toBe(400);
    expect((await post('/api/seat/detail', { expoId: 'x', urlId: '1', userName: 'a', companyName: 'b' })).status).toBe(400);
  });

  it('the seats of a person in each of two activities, and the activity types and seat map', async () => {
    const ip = freshIp();
    const a = await json(await post('/api/seat/person', { ...seatPage(1128, 21128), userName: '王芳', companyName: '北辰物流', typeId: '1132' }, { ip }));
    expect(a.data?.people).toEqual([{ id: 6, userName: '王芳', company: '北辰物流', seat: '主会场 1排', seatNumber: '12' }]);
    const b = await json(await post('/api/seat/person', { ...seatPage(1128, 21128), userName: '王芳', companyName: '北辰物流', typeId: '1133' }, { ip }));
    expect(b.data?.people?.[0]?.seat).toBe('宴会厅 5号桌');
    const types = (await (await appA.request(`${BASE}/api/seat/activities?expoId=1128`, {}, testEnv)).json()) as SeatReply;
    expect(types.data?.activities?.map((t) => t.id)).toEqual([1132, 1133]);
    const img = (await (await appA.request(`${BASE}/api/seat/image?expoId=1235`, {}, testEnv)).json()) as SeatReply;
    expect(img.data?.image).toBe('/seat-map.svg');
  });
});

/**
 * Issue 19 item 4, as the attacker runs it: knowing only a common name (张伟: three consenting
 * people at three companies on 1128), learn where each of them works and sits.
 */
describe('a name alone never answers with anyone\'s company or seat', () => {
  const p = seatPage(1128, 21128);
  const ZHANG = ['华信科技有限公司', '东方电子集团', '南方建设股份'];
  /** Every company text an answer carries (lists, people rows, flash values). */
  const companiesIn = (x: unknown): string[] => ZHANG.filter((c) => JSON.stringify(x).includes(c));

  it('a common name → no company list: not from the pick-list (any name, short or empty company), nor a no-JS name step', async () => {
    const ip = freshIp();
    for (const keywords of ['', '公司', '有限公', '集团', 'a', '%', '_']) {
      const r = await json(await post('/api/seat/companies', { ...p, userName: '张伟', keywords }, { ip }));
      expect(companiesIn(r), `keywords ${JSON.stringify(keywords)}`).toEqual([]);
    }
    // The former no-JS name step (the companies of everyone called 张伟 as choices) is gone.
    const step = await post('/api/seat/name', { ...p, userName: '张伟' }, { ip, form: true });
    expect(step.status).toBe(404);
    expect(companiesIn(flashOf(step, seatBack(1128, 21128)))).toEqual([]);
    // The activity popup: the name's seats without the company are refused, not listed.
    const people = await json(await post('/api/seat/person', { ...p, userName: '张伟', typeId: '1132' }, { ip }));
    expect(people).toMatchObject({ code: 400, data: { field: 'companyName' } });
    expect(companiesIn(people)).toEqual([]);
  });

  it('a partial company → no seat, even when the upstream matches loosely; case and spacing do not matter', async () => {
    const ip = freshIp();
    for (const companyName of ['东方电子', '电子集团', '东方']) {
      const r = await json(await post('/api/seat/detail', { ...p, userName: '张伟', companyName }, { ip }));
      expect(r, companyName).toMatchObject({ code: 400, msg: '未查询到座位号信息' });
    }
    // An organiser's API that matches a part of the company (or of the name) still finds nothing here.
    const loose = vi.spyOn(reference, 'fetch').mockImplementation(async (req) => {
      const url = new URL((req as Request).url);
      const data = url.pathname.endsWith('/getUserSeatDetail')
        ? { userName: '张伟', company: '东方电子集团', seat: 'A区 02排 11座' }
        : [{ id: 1, userName: '张伟', company: '南方建设股份', seat: 'S', seatNumber: '1' }, { id: 2, userName: '张伟', company: '华信科技有限公司', seat: 'T', seatNumber: '2' }];
      return new Response(JSON.stringify({ code: 200, msg: 'success', data }), { headers: { 'content-type': 'application/json' } });
    });
    const partial = await json(await post('/api/seat/detail', { ...p, userName: '张伟', companyName: '东方' }, { ip }));
    expect(partial).toMatchObject({ code: 400, msg: '未查询到座位号信息' });
    const near = await json(await post('/api/seat/detail', { ...p, userName: '张', companyName: '东方电子集团' }, { ip }));
    expect(near).toMatchObject({ code: 400 });
    const rows = await json(await post('/api/seat/person', { ...p, userName: '张伟', companyName: '华信科技有限公司', typeId: '1132' }, { ip }));
    expect(rows.data?.people?.map((x) => x.company)).toEqual(['华信科技有限公司']);
    const exact = await json(await post('/api/seat/detail', { ...p, userName: '张伟', companyName: ' 东方电子集团 ' }, { ip }));
    expect(exact.data?.location).toMatch(/^\/zuoweiSuccess\?/);
    expect(loose).toHaveBeenCalled();
  });
});

describe('seat throttle (shared Durable Object)', () => {
  it('30 a minute per address and expo, counted across company lists and seat lookups on two app instances', async () => {
    const ip = freshIp();
    const p = seatPage(1235, 21235);
    for (let i = 0; i < 15; i++) {
      const r = await post('/api/seat/companies', { ...p, userName: '陈静', keywords: '远航贸' }, { ip, app: appA });
      expect(r.status, `company list ${i + 1}`).toBe(200);
    }
    for (let i = 0; i < 15; i++) {
      const r = await post('/api/seat/detail', { ...p, userName: '陈静', companyName: '远航贸易有限公司' }, { ip, app: appB });
      expect(r.status, `seat lookup ${i + 1}`).toBe(200);
    }
    // The 31st, on either path and either instance, is refused before the upstream sees it.
    const spy = spyUpstream();
    const json31 = await post('/api/seat/detail', { ...p, userName: '陈静', companyName: '远航贸易有限公司' }, { ip, app: appA });
    expect(json31.status).toBe(429);
    expect(Number(json31.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await json31.json()) as SeatReply).msg).toMatch(/^此网络上同时请求的人较多，请 \d+ (秒|分钟)后再试/);
    const form31 = await post('/api/seat/detail', { ...p, userName: '陈静', companyName: '远航' }, { ip, app: appB, form: true });
    expect(form31.status).toBe(303);
    expect(flashOf(form31, seatBack(1235, 21235))).toMatchObject({ values: { userName: '陈静', companyName: '远航' }, notice: { key: expect.stringMatching(/^limit\.network(Seconds|Minutes)$/) as string } });
    expect(spy.paths()).toEqual([]);
    // Another address, and the same address on another expo, still pass.
    expect((await post('/api/seat/detail', { ...p, userName: '陈静', companyName: '远航贸易有限公司' }, { ip: freshIp() })).status).toBe(200);
    expect((await post('/api/seat/detail', { ...seatPage(1128, 21128), userName: '张伟', companyName: '东方电子集团' }, { ip })).status).toBe(200);
  });

  it('a burst of 40 at once lets exactly 30 through', async () => {
    const ip = freshIp();
    const p = seatPage(1193, 21193);
    const all = await Promise.all(
      Array.from({ length: 40 }, (_, i) => post('/api/seat/detail', { ...p, userName: '某人', companyName: '某公司' }, { ip, app: i % 2 ? appA : appB })),
    );
    expect(all.filter((r) => r.status === 429).length).toBe(10);
  });
});

describe('pledge', () => {
  const back = `/search/22012/${encodeId(2012)}/visitor`;

  it('refuses a confirm before 5 s, accepts it after, and remembers it for the visit', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const served = Date.now();
    const ticket = await pledgeTicket(2012, served, SECRET);
    vi.setSystemTime(served + 2_100);
    const early = await post('/api/pledge', { expoId: '2012', ticket, back }, { form: true });
    expect(early.status).toBe(303);
    expect(flashOf(early, back)).toMatchObject({ notice: { key: 'pledge.wait', vars: { n: 3 } } });
    expect(setCookie(early, PLEDGE_COOKIE)).toBeUndefined();
    const earlyJson = await post('/api/pledge', { expoId: '2012', ticket, back });
    expect(earlyJson.status).toBe(400);
    vi.setSystemTime(served + 5_000);
    const ok = await post('/api/pledge', { expoId: '2012', ticket, back }, { form: true });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe(back);
    const cookie = setCookie(ok, PLEDGE_COOKIE);
    expect(cookie?.attrs['max-age']).toBeUndefined(); // a session cookie
    expect(await readPledged(decodeURIComponent(cookie?.value ?? ''), SECRET)).toEqual([2012]);
  });

  it('refuses a forged, altered or other-expo ticket', async () => {
    const ticket = await pledgeTicket(2012, Date.now() - 10_000, SECRET);
    const forged = `2012.${Date.now() - 10_000}.${'A'.repeat(43)}`;
    const older = ticket.replace(/^2012\.(\d+)/, (_, t: string) => `2012.${Number(t) - 1}`);
    for (const [expoId, t] of [['2012', forged], ['2012', older], ['1197', ticket]] as const) {
      const res = await post('/api/pledge', { expoId, ticket: t, back });
      expect(res.status, t).toBe(400);
      expect(setCookie(res, PLEDGE_COOKIE)).toBeUndefined();
    }
  });
});

describe('health upload API (attacker tests)', () => {
  // A real 1×1 JPEG (issue 19 item 4: the edge reads the whole file, and stores it as cleaned, here the same bytes).
  const JPEG = JPEG_1X1;
  const credential = `/success/${encodeId(22012)}/${encodeId('HEALTH2OI2EDGEOI')}/${encodeId(2012)}/22012`;
  const vcFor = async (codes: string[], expoId = 2012) =>
    `${CONTACT_COOKIE}=${await signContact({ expoId, contact: 'health-edge@demo.test', checkType: 2, codes }, SECRET)}`;

  async function upload(fields: Record<string, string>, file: Blob | null, o: Opts = {}): Promise<Response> {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    if (file) form.set('file', file, 'h.jpg');
    const headers: Record<string, string> = { ...(o.form ? {} : { accept: 'application/json' }), ...o.headers };
    if (o.cookie) headers['cookie'] = o.cookie;
    return appA.request(`${BASE}/api/health`, { method: 'POST', headers, body: form, redirect: 'manual' }, testEnv);
  }
  const fields = (euCode = 'HEALTH2OI2EDGEOI') => ({ expoId: '2012', urlId: '22012', euCode, kind: '1', back: credential });

  it('the owner uploads, lists, views and deletes; without JavaScript the form comes back 303', async () => {
    const cookie = await vcFor(['HEALTH2OI2EDGEOI']);
    const up = (await (await upload(fields(), new Blob([JPEG], { type: 'image/jpeg' }), { cookie })).json()) as HealthReply;
    expect(up).toMatchObject({ code: 200, data: { id: expect.any(Number) as number } });
    const id = String(up.data?.id);
    const list = (await (await appA.request(`${BASE}/api/health/list?expoId=2012&euCode=HEALTH2OI2EDGEOI`, { headers: { cookie } }, testEnv)).json()) as HealthReply;
    expect(list.data?.uploads?.some((u) => String(u.id) === id && u.kind === 1)).toBe(true);
    const img = await appA.request(`${BASE}/api/health/image?expoId=2012&euCode=HEALTH2OI2EDGEOI&id=${id}`, { headers: { cookie } }, testEnv);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/jpeg');
    expect(img.headers.get('cache-control')).toContain('no-store');
    expect(new Uint8Array(await img.arrayBuffer())).toEqual(JPEG);
    const del = await post('/api/health/delete', { expoId: '2012', euCode: 'HEALTH2OI2EDGEOI', id, back: credential }, { form: true, cookie });
    expect(del.status).toBe(303);
    expect(del.headers.get('location')).toBe(`${credential}#health`);
    expect(flashOf(del, credential)).toMatchObject({ notice: { key: 'health.deleted' } });
    const form = await upload(fields(), new Blob([JPEG]), { cookie, form: true });
    expect(form.status).toBe(303);
    expect(flashOf(form, credential)).toMatchObject({ notice: { key: 'upload.success' } });
  });

  it("refuses someone else's registration code, no cookie, and a cookie of another expo", async () => {
    const spy = spyUpstream();
    const mine = await vcFor(['HEALTH2OI2EDGEOI']);
    for (const [euCode, cookie] of [
      ['HEALTH2OI2OTHERI', mine],
      ['HEALTH2OI2EDGEOI', undefined],
      ['HEALTH2OI2EDGEOI', await vcFor(['HEALTH2OI2EDGEOI'], 1308)],
    ] as const) {
      const res = await upload(fields(euCode), new Blob([JPEG]), cookie ? { cookie } : {});
      expect(res.status, euCode).toBe(401);
      const list = await appA.request(`${BASE}/api/health/list?expoId=2012&euCode=${euCode}`, cookie ? { headers: { cookie } } : {}, testEnv);
      expect(list.status).toBe(401);
      const img = await appA.request(`${BASE}/api/health/image?expoId=2012&euCode=${euCode}&id=1`, cookie ? { headers: { cookie } } : {}, testEnv);
      expect(img.status).toBe(401);
      const del = await appA.request(`${BASE}/api/health/item?expoId=2012&euCode=${euCode}&id=1`, { method: 'DELETE', headers: cookie ? { cookie } : {} }, testEnv);
      expect(del.status).toBe(401);
    }
    expect(spy.paths()).toEqual([]);
  });

  it('refuses a 6 MB file (413), a non-image, a bad kind, a cross-site post; HEAD shows nothing', async () => {
    const cookie = await vcFor(['HEALTH2OI2EDGEOI']);
    const huge = new Uint8Array(6 * 1024 * 1024);
    huge.set(JPEG);
    const tooLarge = await upload(fields(), new Blob([huge]), { cookie });
    expect(tooLarge.status).toBe(413);
    expect(((await tooLarge.json()) as HealthReply).msg).toBe('上传失败：图片不能超过 5 MB');
    // Without JavaScript: back to the credential page with the message, nothing stored.
    const plain = await upload(fields(), new Blob([huge]), { cookie, form: true, headers: { referer: `${BASE}${credential}` } });
    expect(plain.status).toBe(303);
    expect(plain.headers.get('location')).toBe(credential);
    expect(flashOf(plain, credential)).toMatchObject({ notice: { key: 'health.tooLarge' } });
    const text = (await (await upload(fields(), new Blob(['<html>not an image</html>'], { type: 'image/jpeg' }), { cookie })).json()) as HealthReply;
    expect(text).toMatchObject({ code: 400, msg: '上传失败：仅支持 JPEG 或 PNG 图片' });
    const kind = (await (await upload({ ...fields(), kind: '9' }, new Blob([JPEG]), { cookie })).json()) as HealthReply;
    expect(kind.code).toBe(400);
    const malformed = await appA.request(`${BASE}/api/health`, { method: 'POST', headers: { cookie, 'content-type': 'multipart/form-data; boundary=x', accept: 'application/json' }, body: '--x\r\nbroken' }, testEnv);
    expect(malformed.status).toBe(400);
    const cross = await upload(fields(), new Blob([JPEG]), { cookie, headers: { origin: 'https://evil.example' } });
    expect(cross.status).toBe(403);
    const head = await appA.request(`${BASE}/api/health/image?expoId=2012&euCode=HEALTH2OI2OTHERI&id=1`, { method: 'HEAD' }, testEnv);
    expect(head.status).toBe(401);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it(`40 identical posts at once keep exactly ${HEALTH_MAX_PER_KIND}`, { timeout: 30_000 }, async () => {
    const cookie = `${CONTACT_COOKIE}=${await signContact({ expoId: 2012, contact: 'health-nojs@demo.test', checkType: 2, codes: ['HEALTH2OI2NOJSOI'] }, SECRET)}`;
    const all = await Promise.all(Array.from({ length: 40 }, () => upload({ ...fields('HEALTH2OI2NOJSOI'), kind: '2' }, new Blob([JPEG]), { cookie })));
    const codes = await Promise.all(all.map(async (r) => ((await r.json()) as HealthReply).code));
    expect(codes.filter((c) => c === 200).length).toBe(HEALTH_MAX_PER_KIND);
    const list = (await (await appA.request(`${BASE}/api/health/list?expoId=2012&euCode=HEALTH2OI2NOJSOI`, { headers: { cookie } }, testEnv)).json()) as HealthReply;
    for (const u of list.data?.uploads ?? []) {
      await appA.request(`${BASE}/api/health/item?expoId=2012&euCode=HEALTH2OI2NOJSOI&id=${u.id}`, { method: 'DELETE', headers: { cookie } }, testEnv);
    }
  });
});

describe('odd input never breaks the seat, pledge and health endpoints', () => {
  it('300 random posts answer 2xx, 3xx, 4xx (never 5xx), with the limits lifted', async () => {
    let seed = 12;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
    const texts = ['', ' ', '张伟', '陈静', 'x'.repeat(500), '\u0000', '<script>', '1e9', '-1', '1128', '1235', '../../etc', '%00', '🙂'.repeat(60)];
    const paths = ['/api/seat/companies', '/api/seat/detail', '/api/seat/person', '/api/pledge', '/api/health/delete'];
    const lifted: AppEnv = { ...testEnv, LIMIT_SEAT_LOOKUPS_PER_IP_MIN: '0', LIMIT_SEAT_LOOKUPS_PER_EXPO_MIN: '0' };
    const seen: Record<number, number> = {};
    for (let i = 0; i < 300; i++) {
      const fields: Record<string, string> = {};
      for (const k of ['expoId', 'urlId', 'ty', 'back', 'userName', 'companyName', 'keywords', 'typeId', 'ticket', 'euCode', 'id']) {
        if (rnd() < 0.7) fields[k] = pick(texts);
      }
      if (rnd() < 0.5) fields['expoId'] = pick(['1128', '1235', '2012']);
      const res = await post(pick(paths), fields, { form: rnd() < 0.5, env: lifted, ip: freshIp() });
      seen[res.status] = (seen[res.status] ?? 0) + 1;
      expect(res.status, JSON.stringify(fields)).toBeLessThan(500);
    }
    expect(Object.keys(seen).length).toBeGreaterThan(1);
  });
});
