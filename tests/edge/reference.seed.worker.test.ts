/**
 * The demo seed (functions/reference/seed/*.sql, applied by tests/edge/setup.ts) holds what
 * SEED.md promises: an expo for every variant of spec §2.2 and every home-screen case of §2.4,
 * the spec's url and config ids, and demo contacts with zero, one and several matches.
 */
import { describe, expect, it } from 'vitest';
import { FormConfig } from '../../src/lib/contract';
import { call, dec, testEnv } from './reference.helpers';

const VARIANTS: readonly [expoId: number, exhibitorUrlId: number | null][] = [
  [1108, 8811],
  [1261, null],
  [1316, 10920],
  [1312, 10887],
  [1313, 10891],
  [1178, null],
  [1308, 10542],
  [1314, 10895],
  [1262, 10918],
  [1106, 8730],
  [1179, 8730],
  [1317, 10916],
  [1113, 8831],
];
const HOME_CASES = [
  976, 1142, 498, 1128, 1193, 1197, 1218, 1384, 1385, 1235, 1177, 2001, 2002, 2003, 1216, 2005, 343, 1042, 380, 785,
  1074,
];

async function config(expoId: number, fId: number) {
  const r = await call('/customFrom/getCustomerId', { expoId, query: { fId: String(fId), eId: String(expoId) } });
  expect(r.code, `getCustomerId ${expoId}/${fId}: ${r.msg}`).toBe(200);
  return FormConfig.parse(await dec(r.data, expoId));
}

const count = async (expoId: number, column: 'email' | 'phone', contact: string) =>
  (
    await testEnv.DB.prepare(
      `SELECT count(*) AS n FROM registrations WHERE expo_id = ? AND ${column} = ? COLLATE NOCASE`,
    )
      .bind(expoId, contact)
      .first<{ n: number }>()
  )?.n ?? 0;

describe('seed', () => {
  it.each([...VARIANTS.map(([id]) => id), ...HOME_CASES])(
    'expo %i: a 16-character key, names, a visitor url with a share config',
    async (expoId) => {
      const cfg = await config(expoId, 20000 + expoId);
      expect(cfg.expoInfo).toMatchObject({
        id: expoId,
        exhiName: expect.any(String),
        exhiNameEn: expect.any(String),
        endTime: expect.any(String),
      });
      expect(cfg.customerWx).toMatchObject({
        wechatShare: expect.any(String),
        wecharDescription: expect.any(String),
        shareLog: expect.any(String),
        headImgUrl: expect.any(String),
      });
      const key = await testEnv.DB.prepare('SELECT aes_key FROM expos WHERE id = ?')
        .bind(expoId)
        .first<{ aes_key: string }>();
      expect(key?.aes_key).toHaveLength(16);
    },
  );

  it.each(VARIANTS.filter(([, url]) => url !== null))('expo %i has its exhibitor url %i', async (expoId, urlId) => {
    expect((await config(expoId, urlId ?? 0)).customerUrls?.id).toBe(urlId);
  });

  it('has the spec config ids and the signType cases', async () => {
    const wx = async (expoId: number, fId: number) => (await config(expoId, fId)).customerWx;
    expect((await wx(1235, 21235))?.id).toBe(5413);
    expect((await wx(1308, 21308))?.id).toBe(5959);
    expect((await wx(1177, 21177))?.signType).toBe(3);
    expect((await wx(2001, 22001))?.signType).toBe(1);
    expect(await wx(2002, 22002)).toMatchObject({ signType: 2, isOpenBusinessCard: 1 });
    expect((await wx(2003, 22003))?.signType).toBe(3);
    expect((await wx(1216, 21216))?.signType).toBe(4);
    // the payment methods by the names visitors know (customerWx.payName1/2, through the contract)
    expect(await wx(1216, 21216)).toMatchObject({ payName1: '微信支付', payName2: '支付宝' });
    expect((await wx(2002, 22002))?.payName1 ?? null).toBeNull();
    expect((await wx(2005, 22005))?.signType).toBeNull();
    const tickets = await testEnv.DB.prepare('SELECT count(*) AS n FROM tickets WHERE expo_id = 1216').first<{
      n: number;
    }>();
    expect(tickets?.n).toBeGreaterThan(0);
  });

  it('has ended and open expos', async () => {
    const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
    const ended = await testEnv.DB.prepare('SELECT id FROM expos WHERE end_time < ? ORDER BY id')
      .bind(now)
      .all<{ id: number }>();
    expect(ended.results.map((r) => r.id)).toEqual([343, 1042, 2005]);
  });

  it.each(VARIANTS.filter(([id]) => ![1178, 1179, 976].includes(id)).map(([id]) => id))(
    'expo %i: none@ 0, one@ 1 match',
    async (expoId) => {
      expect(await count(expoId, 'email', 'none@demo.test')).toBe(0);
      expect(await count(expoId, 'email', 'one@demo.test')).toBe(1);
    },
  );

  it.each([
    [1308, 'email', 'several@demo.test', 5],
    [1308, 'phone', '+8613800138000', 2],
    [1308, 'phone', '+8613900139000', 1],
    [1261, 'phone', '+66800000021', 2],
    [1179, 'phone', '+66800000003', 3],
    [1178, 'phone', '+62811000001', 1],
    [1312, 'phone', '+84900000001', 1],
    [976, 'phone', '+8613800138002', 2],
  ] as const)('expo %i: %s %s has %i records', async (expoId, column, contact, n) => {
    expect(await count(expoId, column, contact)).toBe(n);
  });

  it('seeded euCodes are unique 16-character base32', async () => {
    const { results } = await testEnv.DB.prepare('SELECT eu_code FROM registrations').all<{ eu_code: string }>();
    expect(results.length).toBeGreaterThan(50);
    for (const r of results) expect(r.eu_code).toMatch(/^[A-Z2-7]{16}$/);
    expect(new Set(results.map((r) => r.eu_code)).size).toBe(results.length);
  });
});
