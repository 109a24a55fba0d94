/**
 * The reference upstream's shuttle bus in workerd on D1 (docs/upstream.md "Shuttle bus"): lines with
 * stops and departures, reserve, list, cancel; 20301 full, 20302 already on that line; seats never
 * oversold under 40 parallel reservations; inputs refused when malformed, oversized, of another
 * expo, or naming a stop of another line.
 */
import { describe, expect, it } from 'vitest';
import { BusCode, BusPath } from '../../src/lib/contract';
import { call, raw, testEnv } from './reference.helpers';

const ONE_1308 = 'IWHBZIMYEOZETLFI'; // one@demo.test, expo 1308 (SEED.md)
const SEEDED = 'XCOE6GON4WB4N6BR'; // +8613900139000, expo 1308: the seeded reservation

interface Line {
  id: number;
  name: string;
  note: string;
  stops: { id: number; name: string }[];
  departures: { id: number; departTime: string; capacity: number; booked: number }[];
}

async function lines(expoId = 1308): Promise<Line[]> {
  const r = await call(BusPath.selectBusList, { expoId, query: { expoId: String(expoId) } });
  expect(r.code).toBe(200);
  return r.data as Line[];
}
const booked = async (departureId: number) => (await lines()).flatMap((l) => l.departures).find((d) => d.id === departureId)?.booked;
const reserve = (euCode: string, departureId: number, stopId: number, expoId = 1308) => call(BusPath.addBusUser, { expoId, body: { expoId, euCode, departureId, stopId } });
const mine = (euCode: string, expoId = 1308) => call(BusPath.selectBusUser, { expoId, query: { expoId: String(expoId), euCode } });
const cancel = (euCode: string, id: number, expoId = 1308) => call(BusPath.cancelBusUser, { expoId, body: { expoId, euCode, id } });

describe('shuttle bus on D1 (reference upstream)', () => {
  it('lists the seeded lines of 1308 with stops in order and departures by time; none elsewhere', async () => {
    const all = await lines();
    expect(all.map((l) => l.id)).toEqual([801, 802]);
    expect(all[0]?.stops.map((s) => s.id)).toEqual([8011, 8012, 8013]);
    expect(all[0]?.departures[0]).toEqual({ id: 8101, departTime: '2026-12-01 08:30:00', capacity: 40, booked: 12 });
    expect(all[1]?.departures.map((d) => d.id)).toEqual([8104, 8105]);
    expect(await lines(1216)).toEqual([]);
  });

  it('the seeded reservation reads whole', async () => {
    expect((await mine(SEEDED)).data).toEqual([{ id: 1, lineId: 802, lineName: '机场线 Airport line', departureId: 8105, departTime: '2026-12-02 07:00:00', stopId: 8021, stopName: '机场T2 Airport Terminal 2' }]);
  });

  it('reserves, lists, refuses a second seat on the line (20302) and a full departure (20301), cancels and gives the seat back', async () => {
    const before = await booked(8102);
    const r = await reserve(ONE_1308, 8102, 8012);
    expect(r.code).toBe(200);
    const id = (r.data as { id: number }).id;
    expect(await booked(8102)).toBe((before ?? 0) + 1);
    expect((await mine(ONE_1308)).data).toMatchObject([{ id, lineId: 801, departureId: 8102, stopId: 8012, stopName: '会展酒店 Expo Hotel' }]);
    expect((await reserve(ONE_1308, 8101, 8011)).code).toBe(BusCode.ALREADY_RESERVED);
    expect((await reserve(ONE_1308, 8104, 8021)).code).toBe(BusCode.FULL);
    expect((await cancel(ONE_1308, id)).code).toBe(200);
    expect(await booked(8102)).toBe(before);
    expect((await mine(ONE_1308)).data).toEqual([]);
    expect((await cancel(ONE_1308, id)).code).toBe(404);
  });

  it("another registration's reservation is neither cancelled nor read", async () => {
    expect((await cancel(ONE_1308, 1)).code).toBe(404);
    expect((await mine(SEEDED)).data).toHaveLength(1);
  });

  it('40 parallel reservations of the last seat by 40 registrations: exactly 1, never oversold', async () => {
    const codes = Array.from({ length: 40 }, (_, i) => `BUSLAST${String(i).padStart(3, '0')}`);
    await testEnv.DB.batch(codes.map((code) => testEnv.DB.prepare("INSERT INTO registrations (expo_id, urls_id, eu_code, uname, eu_class, createtime) VALUES (1308, 21308, ?, 'Load', 1, '2026-03-01 10:00:00')").bind(code)));
    const replies = await Promise.all(codes.map((code) => reserve(code, 8103, 8011)));
    expect(replies.filter((r) => r.code === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.code === BusCode.FULL)).toHaveLength(39);
    expect(await testEnv.DB.prepare('SELECT booked, capacity FROM bus_departures WHERE id = 8103').first()).toEqual({ booked: 40, capacity: 40 });
  });

  it('40 parallel reservations by one registration on one line: exactly 1 seat taken', async () => {
    const before = await booked(8101);
    const replies = await Promise.all(Array.from({ length: 40 }, () => reserve(ONE_1308, 8101, 8011)));
    expect(replies.filter((r) => r.code === 200)).toHaveLength(1);
    expect(replies.every((r) => r.code === 200 || r.code === BusCode.ALREADY_RESERVED)).toBe(true);
    expect(await booked(8101)).toBe((before ?? 0) + 1);
  });

  it('refuses an unknown code, a stop of another line, another expo, malformed and oversized bodies', async () => {
    const count = async () => (await testEnv.DB.prepare('SELECT count(*) AS n FROM bus_reservations').first<{ n: number }>())?.n;
    const before = await count();
    expect((await reserve('NOSUCHCODE', 8102, 8011)).code).toBe(404);
    expect((await reserve(ONE_1308, 8102, 8021)).code).toBe(404); // the airport line's stop
    expect((await reserve(ONE_1308, 8102, 8011, 1216)).code).toBe(404); // 1216 has no such registration
    expect((await call(BusPath.addBusUser, { expoId: 1308, body: { expoId: 1216, euCode: ONE_1308, departureId: 8102, stopId: 8011 } })).code).toBe(400);
    expect((await call(BusPath.selectBusUser, { expoId: 1308, query: { euCode: "x' OR 1=1" } })).code).toBe(400);
    const big = await raw(`/custom${BusPath.addBusUser}`, { expoId: 1308, body: { expoId: 1308, euCode: ONE_1308, departureId: 8102, stopId: 8011, pad: 'x'.repeat(4000) } });
    expect(((await big.json()) as { code: number }).code).toBe(400);
    expect(await count()).toBe(before);
  });
});
