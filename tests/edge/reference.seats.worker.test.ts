/**
 * The reference upstream's seat lookup and health upload (docs/upstream.md "Seat lookup", "Health
 * upload"; issue 12), spoken through the product's own typed client (functions/upstream,
 * calls/seats.ts and calls/health.ts) so both sides of the contract are exercised, plus raw
 * calls for what the client never sends. Data: seed/0004_seats.sql (SEED.md).
 */
import { describe, expect, it } from 'vitest';
import reference from '../../functions/reference';
import { createUpstream } from '../../functions/upstream';
import { REFERENCE_BASE_URL } from '../../functions/upstream';
import { HEALTH_MAX_PER_KIND } from '../../src/lib/seat/health';
import { raw, testEnv } from './reference.helpers';
import { bytes, chunk, ihdr, JPEG_1X1, PNG_SIGNATURE } from '../unit/image-fixtures';

const up = createUpstream({ baseUrl: REFERENCE_BASE_URL, fetch: async (req) => reference.fetch(req, testEnv), timeoutMs: 5000 });

/** A real 1×1 JPEG (issue 19 item 4: the whole file is read, not only its magic bytes). */
const JPEG = JPEG_1X1;

describe('seat lookup (auth host)', () => {
  // Issue 19 item 4, as the attacker asks: a common name must not list everyone's employer.
  it('getUserCompanyList type 1 (the companies of people called X) is refused', async () => {
    const all = await up.getUserCompanyList({ expoId: 1128, type: 1, userName: '张伟', keywords: '' });
    expect(all).toMatchObject({ ok: false, code: 400 });
    const some = await up.getUserCompanyList({ expoId: 1128, type: 1, userName: '张伟', keywords: '华信' });
    expect(some).toMatchObject({ ok: false, code: 400 });
  });

  it('getUserCompanyList type 2: companies that start with at least 3 typed characters, of consenting people only', async () => {
    const r = await up.getUserCompanyList({ expoId: 1235, type: 2, keywords: '远航贸' });
    // 赵磊 (no consent) and 陈静 share 远航: it is listed through 陈静.
    expect(r.ok && r.data).toEqual(['远航贸易有限公司']);
    // Fewer than 3 characters, or the middle of a name: nothing.
    for (const keywords of ['', '远航', '贸易有限', '有限公司'])
      expect(await up.getUserCompanyList({ expoId: 1235, type: 2, keywords }), keywords).toMatchObject({ ok: true, data: [] });
    // 李娜's company (no consent) is listed only because 张伟 (consenting) works there too.
    const hx = await up.getUserCompanyList({ expoId: 1128, type: 2, keywords: '华信科' });
    expect(hx.ok && hx.data).toEqual(['华信科技有限公司']);
  });

  it('checkUserByName counts consenting people with a seat', async () => {
    expect(await up.checkUserByName({ expoId: 1128, userName: '张伟' })).toMatchObject({ ok: true, data: { count: 3 } });
    expect(await up.checkUserByName({ expoId: 1128, userName: '李娜' })).toMatchObject({ ok: true, data: { count: 0 } });
    expect(await up.checkUserByName({ expoId: 1235, userName: '赵磊' })).toMatchObject({ ok: true, data: { count: 0 } });
    expect(await up.checkUserByName({ expoId: 1235, userName: '陈静' })).toMatchObject({ ok: true, data: { count: 2 } });
  });

  it('getUserSeatDetail: the main seat, or null (no consent, wrong company, other expo)', async () => {
    expect(await up.getUserSeatDetail({ expoId: 1128, userName: '张伟', companyName: '东方电子集团' })).toMatchObject({
      ok: true,
      data: { userName: '张伟', company: '东方电子集团', seat: 'A区 02排 11座' },
    });
    expect(await up.getUserSeatDetail({ expoId: 1128, userName: '王芳', companyName: '北辰物流' })).toMatchObject({ data: { seat: 'D区 10排 01座' } });
    expect(await up.getUserSeatDetail({ expoId: 1128, userName: '李娜', companyName: '华信科技有限公司' })).toMatchObject({ ok: true, data: null });
    expect(await up.getUserSeatDetail({ expoId: 1128, userName: '张伟', companyName: '北辰物流' })).toMatchObject({ ok: true, data: null });
    expect(await up.getUserSeatDetail({ expoId: 1235, userName: '张伟', companyName: '东方电子集团' })).toMatchObject({ ok: true, data: null });
    // Issue 19 item 4: a partial company or a partial name finds nothing; case and spacing do not matter.
    for (const [userName, companyName] of [
      ['张伟', '东方电子'],
      ['张伟', '电子集团'],
      ['张', '东方电子集团'],
    ] as const)
      expect(await up.getUserSeatDetail({ expoId: 1128, userName, companyName }), companyName).toMatchObject({ ok: true, data: null });
    expect(await up.getUserSeatDetail({ expoId: 1235, userName: ' 刘洋 ', companyName: '金桥咨询' })).toMatchObject({ data: { seat: '1号厅 E排 09座' } });
  });

  it('pageActivityType and selectUserSeat: a person with two activities', async () => {
    const types = await up.pageActivityType({ expoId: 1128 });
    expect(types.ok && types.data).toEqual([
      { id: 1132, activityName: '开幕式' },
      { id: 1133, activityName: '欢迎晚宴' },
    ]);
    const filtered = await up.pageActivityType({ expoId: 1128, activityName: '晚宴' });
    expect(filtered.ok && filtered.data.map((a) => a.id)).toEqual([1133]);
    const opening = await up.selectUserSeat({ expoId: 1128, userName: '王芳', typeId: 1132 });
    expect(opening.ok && opening.data).toEqual([{ id: 6, userName: '王芳', company: '北辰物流', seat: '主会场 1排', seatNumber: '12' }]);
    const dinner = await up.selectUserSeat({ expoId: 1128, userName: '王芳', typeId: 1133 });
    expect(dinner.ok && dinner.data.map((p) => p.seatNumber)).toEqual(['3']);
    const liu = await up.selectUserSeat({ expoId: 1235, userName: '刘洋', typeId: 1622 });
    expect(liu.ok && liu.data.map((p) => p.seat)).toEqual(['颁奖典礼 8号桌']);
  });

  it('getImage: the seat map url, none for an unknown name', async () => {
    expect(await up.getImage({ expoId: 1128, imageName: 'seat' })).toMatchObject({ ok: true, data: { url: '/seat-map.svg' } });
    expect(await up.getImage({ expoId: 1128, imageName: 'other' })).toMatchObject({ ok: true, data: { url: null } });
  });

  it('refuses bad input with an envelope, never a crash', async () => {
    const bad = async (path: string, query: Record<string, string>, expoId: number | null = 1128) =>
      ((await (await raw(`/auth${path}`, { expoId, query })).json()) as { code: number }).code;
    expect(await bad('/getUserSeatDetail', { userName: '', companyName: 'x' })).toBe(400);
    expect(await bad('/getUserSeatDetail', { userName: 'x'.repeat(101), companyName: 'x' })).toBe(400);
    expect(await bad('/getUserCompanyList', { keywords: 'x', type: '3' })).toBe(400);
    expect(await bad('/getUserCompanyList', { keywords: 'x', type: '1' })).toBe(400);
    expect(await bad('/getUserCompanyList', { keywords: '华信科', type: '1', userName: '张伟' })).toBe(400);
    expect(await bad('/selectUserSeat', { userName: '王芳', typeId: 'abc' })).toBe(400);
    expect(await bad('/checkUserByName', { userName: '张伟', expoId: '1235' })).toBe(400);
    expect(await bad('/checkUserByName', { userName: '张伟' }, null)).toBe(400);
    expect(await bad('/checkUserByName', { userName: '张伟' }, 999999)).toBe(404);
    expect(await bad('/nothing', {})).toBe(404);
  });
});

describe('health upload', () => {
  const owner = { expoId: 2012, euCode: 'HEALTH2OI2OTHERI' };

  it('uploads, lists, serves and deletes an image of the registration', async () => {
    const added = await up.uploadHealth({ ...owner, kind: 2, file: new Blob([JPEG]), fileName: 'a.jpg' });
    expect(added.ok, JSON.stringify(added)).toBe(true);
    if (!added.ok) return;
    const list = await up.listHealth(owner);
    expect(list.ok && list.data.find((u) => u.id === added.data.id)).toMatchObject({ kind: 2 });
    const img = await up.healthImage({ ...owner, id: added.data.id });
    expect(img.ok && img.data.contentType).toBe('image/jpeg');
    expect(img.ok && Uint8Array.from(atob(img.data.base64), (ch) => ch.charCodeAt(0))).toEqual(JPEG);
    // Another registration's code gets nothing of it.
    expect((await up.healthImage({ expoId: 2012, euCode: 'HEALTH2OI2EDGEOI', id: added.data.id })).ok).toBe(false);
    expect((await up.deleteHealth({ expoId: 2012, euCode: 'HEALTH2OI2EDGEOI', id: added.data.id })).ok).toBe(false);
    expect((await up.deleteHealth({ ...owner, id: added.data.id })).ok).toBe(true);
    const after = await up.listHealth(owner);
    expect(after.ok && after.data.some((u) => u.id === added.data.id)).toBe(false);
    expect((await up.deleteHealth({ ...owner, id: added.data.id })).ok).toBe(false);
  });

  it('stores a file larger than a D1 row (chunks) byte for byte', async () => {
    // A PNG of 3.5 MB: one large IDAT (read whole: its length and CRC are checked, kept as is).
    const data = new Uint8Array(3_500_000);
    for (let i = 0; i < data.length; i++) data[i] = (i * 31) & 255;
    const big = bytes(PNG_SIGNATURE, ihdr(2, 2), chunk('IDAT', data), chunk('IEND'));
    const added = await up.uploadHealth({ ...owner, kind: 3, file: new Blob([big]), fileName: 'b.png' });
    expect(added.ok, JSON.stringify(added)).toBe(true);
    if (!added.ok) return;
    const img = await up.healthImage({ ...owner, id: added.data.id });
    expect(img.ok && img.data.contentType).toBe('image/png');
    const back = img.ok ? Uint8Array.from(atob(img.data.base64), (ch) => ch.charCodeAt(0)) : new Uint8Array();
    expect(back.length).toBe(big.length);
    expect(back.every((b, i) => b === big[i])).toBe(true);
    await up.deleteHealth({ ...owner, id: added.data.id });
  }, 30_000);

  it('refuses a non-image, a file over 5 MB, a bad kind and an unknown registration', async () => {
    const text = await up.uploadHealth({ ...owner, kind: 1, file: new Blob(['<svg/>']), fileName: 'x.jpg' });
    expect(text).toMatchObject({ ok: false, code: 400 });
    const huge = new Uint8Array(5 * 1024 * 1024 + 1);
    huge.set(JPEG);
    expect(await up.uploadHealth({ ...owner, kind: 1, file: new Blob([huge]), fileName: 'x.jpg' })).toMatchObject({ ok: false, code: 400 });
    expect(await up.uploadHealth({ ...owner, kind: 4 as 1, file: new Blob([JPEG]), fileName: 'x.jpg' })).toMatchObject({ ok: false, code: 400 });
    expect(await up.uploadHealth({ expoId: 2012, euCode: 'NOSUCHCODE', kind: 1, file: new Blob([JPEG]), fileName: 'x.jpg' })).toMatchObject({ ok: false, code: 404 });
  });

  it(`keeps at most ${HEALTH_MAX_PER_KIND} uploads per kind when 40 arrive at once`, { timeout: 30_000 }, async () => {
    const who = { expoId: 2012, euCode: 'HEALTH2OI2AIIYOI' };
    const results = await Promise.all(
      Array.from({ length: 40 }, () => up.uploadHealth({ ...who, kind: 1, file: new Blob([JPEG]), fileName: 'x.jpg' })),
    );
    expect(results.filter((r) => r.ok).length).toBe(HEALTH_MAX_PER_KIND);
    const list = await up.listHealth(who);
    expect(list.ok && list.data.filter((u) => u.kind === 1).length).toBe(HEALTH_MAX_PER_KIND);
    for (const u of list.ok ? list.data : []) await up.deleteHealth({ ...who, id: u.id });
  });
});

describe('consent through registration', () => {
  it('a registration whose form ticks seatConsent is found by name; unticking it by update hides it', async () => {
    const db = testEnv.DB;
    await db
      .prepare(`INSERT INTO registrations (expo_id, urls_id, eu_code, uname, createtime, ucompany, email, form_values) VALUES (1128, 21128, 'CONSENTTESTAAAA2', '周同意', '2026-03-01 10:00:00', '同意测试公司', 'consent-edge@demo.test', '{"seatConsent": ["1"]}')`)
      .run();
    const reg = await db.prepare("SELECT id FROM registrations WHERE eu_code = 'CONSENTTESTAAAA2'").first<{ id: number }>();
    await db.prepare("INSERT INTO seats (expo_id, registration_id, type_id, seat, seat_number) VALUES (1128, ?, NULL, 'Z-01', 'Z-01')").bind(reg?.id).run();
    expect(await up.checkUserByName({ expoId: 1128, userName: '周同意' })).toMatchObject({ data: { count: 1 } });
    // addUserInfo's update merges the new values (json_patch): an unticked checkbox is an empty list.
    await db.prepare(`UPDATE registrations SET form_values = json_patch(form_values, '{"seatConsent": []}') WHERE id = ?`).bind(reg?.id).run();
    expect(await up.checkUserByName({ expoId: 1128, userName: '周同意' })).toMatchObject({ data: { count: 0 } });
    expect(await up.getUserSeatDetail({ expoId: 1128, userName: '周同意', companyName: '同意测试公司' })).toMatchObject({ ok: true, data: null });
  });
});
