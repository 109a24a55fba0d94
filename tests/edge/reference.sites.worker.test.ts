/**
 * The reference upstream's site booking in workerd on D1 (docs/upstream.md "Site booking", issue 13):
 * types, dates with places, book, list, cancel; 20201 full, 20202 already booked of the type;
 * capacity never oversold under parallel bookings; inputs refused when malformed, oversized or
 * of another expo.
 */
import { describe, expect, it } from 'vitest';
import { SiteCode, SitePath } from '../../src/lib/contract';
import { call, raw, testEnv } from './reference.helpers';

const ONE_1308 = 'IWHBZIMYEOZETLFI'; // one@demo.test, expo 1308 (SEED.md)
const ONE_1216 = 'FIPUHATHDGU6QWSF'; // one@demo.test, expo 1216

interface DateRow {
  id: number;
  date: string;
  timeRange: string;
  capacity: number;
  booked: number;
}

async function dates(expoId: number, typeId: number): Promise<DateRow[]> {
  const r = await call(SitePath.selectSiteDateList, { expoId, query: { expoId: String(expoId), typeId: String(typeId) } });
  expect(r.code).toBe(200);
  return r.data as DateRow[];
}

const book = (expoId: number, euCode: string, siteDateId: number) => call(SitePath.addExpoUserSite, { expoId, body: { expoId, euCode, siteDateId } });
const mine = (expoId: number, euCode: string) => call(SitePath.selectExpoUserSiteId, { expoId, query: { expoId: String(expoId), euCode } });
const cancel = (expoId: number, euCode: string, id: number) => call(SitePath.deleteExpoUserSite, { expoId, body: { expoId, euCode, id } });

/** Registrations of expo 1308 made for a test, with distinct codes. */
async function makeRegistrations(prefix: string, n: number): Promise<string[]> {
  const codes = Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(3, '0')}`);
  await testEnv.DB.batch(
    codes.map((code) =>
      testEnv.DB.prepare("INSERT INTO registrations (expo_id, urls_id, eu_code, uname, eu_class, createtime) VALUES (1308, 21308, ?, 'Load', 1, '2026-03-01 10:00:00')").bind(code),
    ),
  );
  return codes;
}

describe('site booking on D1 (reference upstream)', () => {
  it('lists the seeded types and dates of the two expos, none elsewhere', async () => {
    const types1308 = await call(SitePath.selectSiteTypeList, { expoId: 1308, query: { expoId: '1308' } });
    expect(types1308).toMatchObject({ code: 200, data: [{ id: 501 }, { id: 502 }] });
    expect((types1308.data as { name: string; note: string }[])[0]).toEqual({ id: 501, name: '展馆导览 Guided hall tour', note: '45 min, meet at the north entrance' });
    expect((await call(SitePath.selectSiteTypeList, { expoId: 1216 })).data).toEqual([{ id: 511, name: '工厂参观 Factory visit', note: 'Bus from gate 2' }]);
    expect((await call(SitePath.selectSiteTypeList, { expoId: 1108 })).data).toEqual([]);
    expect((await dates(1308, 501)).map((d) => d.id)).toEqual([5101, 5102, 5103]);
    expect(await dates(1308, 511)).toEqual([]); // another expo's type
    expect((await dates(1308, 502))[0]).toEqual({ id: 5104, date: '2026-12-02', timeRange: '15:00-16:00', capacity: 2, booked: 2 });
  });

  it('books, lists, refuses a second of the type (20202) and a full date (20201), cancels', async () => {
    const before = (await dates(1308, 501)).find((d) => d.id === 5102)?.booked ?? -1;
    const booked = await book(1308, ONE_1308, 5102);
    expect(booked.code).toBe(200);
    const id = (booked.data as { id: number }).id;
    expect(id).toBeGreaterThan(0);
    expect((await dates(1308, 501)).find((d) => d.id === 5102)?.booked).toBe(before + 1);
    expect((await mine(1308, ONE_1308)).data).toEqual([{ id, typeId: 501, typeName: '展馆导览 Guided hall tour', date: '2026-12-01', timeRange: '14:00-15:00' }]);
    expect((await book(1308, ONE_1308, 5101)).code).toBe(SiteCode.ALREADY_BOOKED);
    expect((await book(1308, ONE_1308, 5104)).code).toBe(SiteCode.FULL);
    expect((await dates(1308, 502)).find((d) => d.id === 5104)?.booked).toBe(2);
    // another code may not cancel it
    expect((await cancel(1308, 'F5IP7DURIP7EXQPG', id)).code).toBe(404);
    expect(await cancel(1308, ONE_1308, id)).toMatchObject({ code: 200, data: null });
    expect((await dates(1308, 501)).find((d) => d.id === 5102)?.booked).toBe(before);
    expect((await mine(1308, ONE_1308)).data).toEqual([]);
    expect((await cancel(1308, ONE_1308, id)).code).toBe(404);
    expect((await dates(1308, 501)).find((d) => d.id === 5102)?.booked).toBe(before);
  });

  it('refuses an unknown code, another expo\'s code and another expo\'s date', async () => {
    expect((await book(1308, 'NOSUCHCODE000000', 5102)).code).toBe(404);
    expect((await book(1308, ONE_1216, 5102)).code).toBe(404);
    expect((await book(1308, ONE_1308, 5111)).code).toBe(404);
    expect((await book(1216, ONE_1216, 5111)).code).toBe(200);
  });

  it('refuses malformed, oversized and mismatched input with 400', async () => {
    const bad = [
      'not json',
      '{}',
      JSON.stringify({ euCode: ONE_1308, siteDateId: 'x' }),
      JSON.stringify({ euCode: '<script>', siteDateId: 5102 }),
      JSON.stringify({ euCode: ONE_1308, siteDateId: 5102, pad: 'x'.repeat(5000) }),
      JSON.stringify({ expoId: 1216, euCode: ONE_1308, siteDateId: 5102 }),
    ];
    for (const body of bad) expect((await call(SitePath.addExpoUserSite, { expoId: 1308, body })).code, body.slice(0, 40)).toBe(400);
    expect((await call(SitePath.selectSiteDateList, { expoId: 1308, query: { typeId: '1e9' } })).code).toBe(400);
    expect((await call(SitePath.selectExpoUserSiteId, { expoId: 1308, query: { euCode: '' } })).code).toBe(400);
    expect((await call(SitePath.deleteExpoUserSite, { expoId: 1308, body: '[]' })).code).toBe(400);
    // GET on a POST call is an unknown call
    expect((await call(SitePath.addExpoUserSite, { expoId: 1308, method: 'GET' })).code).toBe(404);
    expect((await raw(`/custom${SitePath.selectSiteTypeList}`)).status).toBe(200);
  });

  it('30 parallel bookings for the last 5 places give exactly 5; 40 for the last 1 give exactly 1', async () => {
    await testEnv.DB.prepare("INSERT INTO site_dates (id, expo_id, type_id, date, time_range, capacity, booked) VALUES (5191, 1308, 502, '2026-12-09', '10:00-11:00', 5, 0), (5192, 1308, 501, '2026-12-09', '10:00-11:00', 7, 6)").run();
    const a = await makeRegistrations('LOADA', 30);
    const results = await Promise.all(a.map((code) => book(1308, code, 5191)));
    expect(results.filter((r) => r.code === 200)).toHaveLength(5);
    expect(results.filter((r) => r.code === SiteCode.FULL)).toHaveLength(25);
    const b = await makeRegistrations('LOADB', 40);
    const last = await Promise.all(b.map((code) => book(1308, code, 5192)));
    expect(last.filter((r) => r.code === 200)).toHaveLength(1);
    const counts = await testEnv.DB.prepare('SELECT d.id, d.booked, (SELECT COUNT(*) FROM site_bookings s WHERE s.site_date_id = d.id) AS n FROM site_dates d WHERE d.id IN (5191, 5192) ORDER BY d.id').all();
    expect(counts.results).toEqual([{ id: 5191, booked: 5, n: 5 }, { id: 5192, booked: 7, n: 1 }]);
  });

  it('one code booking the same type twice in parallel holds one booking', async () => {
    const [code] = await makeRegistrations('TWICE', 1);
    const results = await Promise.all([5101, 5102, 5103].map((id) => book(1308, code ?? '', id)));
    expect(results.filter((r) => r.code === 200)).toHaveLength(1);
    expect(results.filter((r) => r.code === SiteCode.ALREADY_BOOKED)).toHaveLength(2);
    expect((await mine(1308, code ?? '')).data).toHaveLength(1);
  });
});
