/**
 * The reference upstream's check-in in workerd on D1 (docs/upstream.md "Check-in (the gate)"):
 * redeemCode admits exactly once under 40 parallel scans at two gates, maxCount 0 is unlimited,
 * a pass valid on two days counts per day (a synced older scan on its own day), awaiting review,
 * void, another expo's code and an unknown code are refused and logged, bad bodies refused with
 * nothing changed; the admission list's hashes and paging; the counts per gate and hour;
 * queryCustomerCode's lastEntry; a retried scanId (also 40 at once) answered with its first result
 * and counted and logged once; the scan log's pages, oldest first, one expo's only.
 */
import { describe, expect, it } from 'vitest';
import { CheckinPath } from '../../src/lib/contract';
import { upstreamFor } from '../../functions/upstream/index';
import { call, dec, enc, raw, testEnv } from './reference.helpers';

const ONCE = 'PF4R5MHUHIPEQBHR'; // gate-once@demo.test, 1308, maxCount 1 (SEED.md "Check-in")
const TWO_DAY_SEEDED = 'EP6PXRDQ7N7CNGD6'; // 1308, valid 2026-12-01 and 2026-12-02
const UNLIMITED = 'XCOE6GON4WB4N6BR'; // +8613900139000, 1308, maxCount 0
const OF_1106 = 'MMN6R4ECDU5ZN4EI'; // expo 1106 (awaiting review there)
const OFFSET = 480; // expo 1308's utc_offset_minutes

type Scan = {
  result: string;
  usedCount: number | null;
  maxCount: number | null;
  useStatus: number | null;
  auditStatus: number | null;
  lastEntry: { at: string; gate: string } | null;
  uname: string | null;
  euClass: number | null;
  ticketName: string | null;
  euDefine: string | null;
};

const redeem = async (
  euCode: string,
  gate: string,
  scannedAt = new Date().toISOString(),
  expoId = 1308,
  scanId?: string,
) => {
  const r = await call(CheckinPath.redeemCode, {
    expoId,
    body: { expoId, euCode, gate, scannedAt, ...(scanId === undefined ? {} : { scanId }) },
  });
  expect(r.code).toBe(200);
  return r.data as Scan;
};
const localDay = (ms: number) => new Date(ms + OFFSET * 60_000).toISOString().slice(0, 10);
/** The instant of an expo-local day and time. */
const at = (day: string, hhmm: string) => new Date(`${day}T${hhmm}:00+08:00`).toISOString();
const DAY = 86_400_000;

async function addRegistration(
  euCode: string,
  cols: { max?: number; use?: number; audit?: number; days?: string[] } = {},
) {
  await testEnv.DB.prepare(
    "INSERT INTO registrations (expo_id, urls_id, eu_code, uname, eu_class, createtime, use_status, max_count, audit_status, valid_days) VALUES (1308, 21308, ?, 'Gate Test', 0, '2026-03-01 10:00:00', ?, ?, ?, ?)",
  )
    .bind(euCode, cols.use ?? 0, cols.max ?? 1, cols.audit ?? 0, cols.days ? JSON.stringify(cols.days) : null)
    .run();
}
const usedCount = async (euCode: string) =>
  (
    await testEnv.DB.prepare('SELECT used_count AS n FROM registrations WHERE eu_code = ?')
      .bind(euCode)
      .first<{ n: number }>()
  )?.n;
const logged = async (euCode: string) =>
  (
    await testEnv.DB.prepare('SELECT result, gate FROM scan_log WHERE eu_code = ? ORDER BY id')
      .bind(euCode)
      .all<{ result: string; gate: string }>()
  ).results;
async function credential(euCode: string) {
  const r = await call('/customFrom/queryCustomerCode', {
    expoId: 1308,
    query: { expoId: await enc(1308, 1308), euCode: await enc(euCode, 1308) },
  });
  expect(r.code).toBe(200);
  return (await dec(r.data, 1308)) as {
    usedCount: number;
    maxCount: number;
    useStatus: number;
    lastEntry: { at: string; gate: string } | null;
    uname: string;
  };
}
async function sha256(text: string) {
  const d = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

describe('check-in on D1 (reference upstream)', () => {
  it('40 parallel scans of a maxCount 1 code at two gates admit exactly one; the credential shows the entry', async () => {
    expect((await credential(ONCE)).lastEntry).toBeNull();
    const now = new Date().toISOString();
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) => redeem(ONCE, i % 2 ? 'Gate 3' : 'North', now)),
    );
    const admitted = replies.filter((r) => r.result === 'admitted');
    expect(admitted).toHaveLength(1);
    expect(replies.filter((r) => r.result === 'used')).toHaveLength(39);
    expect(admitted[0]).toMatchObject({
      usedCount: 1,
      maxCount: 1,
      useStatus: 1,
      auditStatus: 0,
      uname: '钱五 Gate Once',
      euClass: 0,
    });
    expect(await usedCount(ONCE)).toBe(1);
    const log = await logged(ONCE);
    expect(log).toHaveLength(40);
    expect(log.filter((l) => l.result === 'admitted')).toHaveLength(1);
    const gate = log.find((l) => l.result === 'admitted')?.gate;
    const used = replies.find((r) => r.result === 'used');
    expect(used).toMatchObject({ usedCount: 1, maxCount: 1, lastEntry: { gate } });
    const cred = await credential(ONCE);
    expect(cred).toMatchObject({
      usedCount: 1,
      maxCount: 1,
      useStatus: 1,
      lastEntry: { gate, at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/) },
    });
  });

  it('maxCount 0 admits every time, also many at once', async () => {
    const before = (await usedCount(UNLIMITED)) ?? 0;
    for (let i = 0; i < 3; i++) expect((await redeem(UNLIMITED, 'North')).result).toBe('admitted');
    const replies = await Promise.all(Array.from({ length: 10 }, () => redeem(UNLIMITED, 'Gate 3')));
    expect(replies.every((r) => r.result === 'admitted' && r.maxCount === 0)).toBe(true);
    expect(await usedCount(UNLIMITED)).toBe(before + 13);
  });

  it('a pass valid on two days: once a day, refused again that day, a synced older scan counted on its own day, not on another day', async () => {
    const now = Date.now();
    const today = localDay(now);
    const yesterday = localDay(now - DAY);
    await addRegistration('TWODAYTEST000001', { days: [yesterday, today] });
    const first = await redeem('TWODAYTEST000001', 'North', new Date(now).toISOString());
    expect(first).toMatchObject({ result: 'admitted', usedCount: 1, maxCount: 1 });
    expect((await redeem('TWODAYTEST000001', 'Gate 3')).result).toBe('used');
    // a scan made offline yesterday, synced now: counted on yesterday
    const synced = await redeem('TWODAYTEST000001', 'Gate 3', at(yesterday, '09:15'));
    expect(synced).toMatchObject({ result: 'admitted', usedCount: 1 });
    expect((await redeem('TWODAYTEST000001', 'North', at(yesterday, '17:00'))).result).toBe('used');
    expect((await redeem('TWODAYTEST000001', 'North', at(localDay(now - 2 * DAY), '10:00'))).result).toBe('otherDay');
    expect(await usedCount('TWODAYTEST000001')).toBe(2);
    // the latest entry is today's, not the synced one
    const cred = await credential('TWODAYTEST000001');
    expect(cred).toMatchObject({ usedCount: 2, maxCount: 2, lastEntry: { gate: 'North' } });
    expect(cred.lastEntry?.at.slice(0, 10)).toBe(today);
  });

  it('40 parallel scans of a two-day pass on one day admit exactly one', async () => {
    const now = Date.now();
    await addRegistration('TWODAYRACE000001', { days: [localDay(now)] });
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) => redeem('TWODAYRACE000001', i % 2 ? 'A' : 'B')),
    );
    expect(replies.filter((r) => r.result === 'admitted')).toHaveLength(1);
    expect(replies.filter((r) => r.result === 'used')).toHaveLength(39);
    expect(await usedCount('TWODAYRACE000001')).toBe(1);
  });

  it('the seeded two-day pass is refused on a day that is not one of its days', async () => {
    expect((await redeem(TWO_DAY_SEEDED, 'North')).result).toBe(
      ['2026-12-01', '2026-12-02'].includes(localDay(Date.now())) ? 'admitted' : 'otherDay',
    );
  });

  it('the seeded awaiting-review and void codes of 1308 are refused', async () => {
    expect(await redeem('AR7OY5Q6XIPMQUBJ', 'North')).toMatchObject({ result: 'review', usedCount: 0, auditStatus: 1 });
    expect(await redeem('CK5VBXPY6SF65ERR', 'North')).toMatchObject({
      result: 'void',
      usedCount: 0,
      useStatus: 2,
      ticketName: '全程通票 Full Pass',
    });
  });

  it('refuses awaiting review and void, changes nothing, logs the scan', async () => {
    await addRegistration('REVIEWTEST000001', { audit: 1 });
    await addRegistration('VOIDTEST00000001', { use: 2 });
    expect(await redeem('REVIEWTEST000001', 'North')).toMatchObject({
      result: 'review',
      usedCount: 0,
      auditStatus: 1,
      uname: 'Gate Test',
    });
    expect(await redeem('VOIDTEST00000001', 'North')).toMatchObject({ result: 'void', usedCount: 0, useStatus: 2 });
    expect(await usedCount('REVIEWTEST000001')).toBe(0);
    expect(await usedCount('VOIDTEST00000001')).toBe(0);
    expect((await logged('REVIEWTEST000001')).map((l) => l.result)).toEqual(['review']);
    expect((await logged('VOIDTEST00000001')).map((l) => l.result)).toEqual(['void']);
  });

  it("another expo's code reveals nothing beyond that; an unknown code is unknown", async () => {
    const blank = {
      usedCount: null,
      maxCount: null,
      useStatus: null,
      auditStatus: null,
      lastEntry: null,
      uname: null,
      euClass: null,
      ticketName: null,
      euDefine: null,
    };
    expect(await redeem(OF_1106, 'North')).toEqual({ result: 'otherExpo', ...blank });
    expect(await redeem('NOSUCHCODE000001', 'North')).toEqual({ result: 'unknown', ...blank });
    expect((await logged('NOSUCHCODE000001')).map((l) => l.result)).toEqual(['unknown']);
    expect(await usedCount(OF_1106)).toBe(0);
  });

  it('refuses malformed, oversized, misdated and other-expo bodies with 400 and changes nothing', async () => {
    /** A valid scan of ONCE whose JSON is `bytes` long (an unknown `pad` field is dropped, not refused). */
    const sized = (bytes: number) => {
      const body = { euCode: ONCE, gate: 'North', scannedAt: new Date().toISOString(), pad: '' };
      return { ...body, pad: 'x'.repeat(bytes - JSON.stringify(body).length) };
    };
    const count = async () =>
      (
        await testEnv.DB.prepare(
          'SELECT (SELECT count(*) FROM scan_log) + (SELECT sum(used_count) FROM registrations) AS n',
        ).first<{ n: number }>()
      )?.n;
    const before = await count();
    const now = new Date().toISOString();
    const bad: unknown[] = [
      '',
      'not json',
      '[]',
      { euCode: ONCE, scannedAt: now },
      { euCode: ONCE, gate: '', scannedAt: now },
      { euCode: ONCE, gate: 'x'.repeat(41), scannedAt: now },
      { euCode: ONCE, gate: 'Gate\n3', scannedAt: now },
      { euCode: "x' OR 1=1", gate: 'North', scannedAt: now },
      { euCode: ONCE, gate: 'North', scannedAt: '2026-11-26 10:00:00' },
      { euCode: ONCE, gate: 'North', scannedAt: 'yesterday' },
      { euCode: ONCE, gate: 'North', scannedAt: new Date(Date.now() + 3600_000).toISOString() },
      { euCode: ONCE, gate: 'North', scannedAt: new Date(Date.now() - 40 * DAY).toISOString() },
      { expoId: 1106, euCode: ONCE, gate: 'North', scannedAt: now },
      { euCode: ONCE, gate: 'North', scannedAt: now, pad: 'x'.repeat(2000) },
      // Just past each bound docs/upstream.md states: a body of 1 KB + 1 byte, 5 minutes ahead and
      // 30 days old with a minute to spare, a gate of 41 characters (above).
      sized(1025),
      { euCode: ONCE, gate: 'North', scannedAt: new Date(Date.now() + 6 * 60_000).toISOString() },
      { euCode: ONCE, gate: 'North', scannedAt: new Date(Date.now() - 30 * DAY - 60_000).toISOString() },
      { euCode: ONCE, gate: 'North', scannedAt: now, scanId: '' },
      { euCode: ONCE, gate: 'North', scannedAt: now, scanId: 'x'.repeat(65) },
      { euCode: ONCE, gate: 'North', scannedAt: now, scanId: 'scan 1' },
      { euCode: ONCE, gate: 'North', scannedAt: now, scanId: "1' OR '1'='1" },
      { euCode: ONCE, gate: 'North', scannedAt: now, scanId: 12345 },
      { euCode: ONCE, gate: 'North', scannedAt: now, scanId: null },
    ];
    for (const body of bad) {
      const res = await raw(`/custom${CheckinPath.redeemCode}`, { expoId: 1308, body, method: 'POST' });
      expect(res.status).toBe(200);
      const env = (await res.json()) as { code: number; msg: string };
      expect(env.code, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(env.msg.length).toBeLessThan(200);
    }
    expect(await count()).toBe(before);
    // a GET of the POST call is no call
    expect((await call(CheckinPath.redeemCode, { expoId: 1308, query: { euCode: ONCE } })).code).toBe(404);
  });

  it('the admission list: hashes of {expoId}:{euCode}, counts, days, bounded pages', async () => {
    const page = async (query: Record<string, string>) =>
      call(CheckinPath.checkInList, { expoId: 1308, query: { expoId: '1308', ...query } });
    const n = (
      await testEnv.DB.prepare('SELECT count(*) AS n FROM registrations WHERE expo_id = 1308').first<{ n: number }>()
    )?.n;
    const all = (await page({ pageSize: '1000' })).data as {
      total: number;
      page: number;
      pageSize: number;
      list: {
        hash: string;
        usedCount: number;
        maxCount: number;
        auditStatus: number;
        useStatus: number;
        days: { day: string; usedCount: number }[] | null;
      }[];
    };
    expect(all.total).toBe(n);
    expect(all.list).toHaveLength(n ?? 0);
    const hashTwoDay = await sha256(`1308:${TWO_DAY_SEEDED}`);
    expect(all.list.find((r) => r.hash === hashTwoDay)).toMatchObject({
      maxCount: 1,
      auditStatus: 0,
      days: [{ day: '2026-12-01' }, { day: '2026-12-02' }],
    });
    const hashOne = await sha256('1308:IWHBZIMYEOZETLFI');
    expect(all.list.find((r) => r.hash === hashOne)).toEqual({
      hash: hashOne,
      usedCount: 2,
      maxCount: 3,
      auditStatus: 0,
      useStatus: 1,
      days: null,
    });
    expect(all.list.every((r) => /^[0-9a-f]{64}$/.test(r.hash))).toBe(true);
    // no code in the clear
    expect(JSON.stringify(all)).not.toContain('IWHBZIMYEOZETLFI');
    // paging: two pages of 2 are the first four, disjoint
    const p1 = (await page({ page: '1', pageSize: '2' })).data as typeof all;
    const p2 = (await page({ page: '2', pageSize: '2' })).data as typeof all;
    expect([...p1.list, ...p2.list].map((r) => r.hash)).toEqual(all.list.slice(0, 4).map((r) => r.hash));
    expect((await page({ pageSize: '5000' })).data).toMatchObject({ pageSize: 1000 });
    expect((await page({ page: '0', pageSize: '0' })).data).toMatchObject({ page: 1, pageSize: 1 });
    expect((await page({ page: '99999', pageSize: '1000' })).data).toMatchObject({ total: n, list: [] });
    expect((await page({ pageSize: 'x' })).code).toBe(400);
    expect((await page({ page: '1.5' })).code).toBe(400);
    expect((await call(CheckinPath.checkInList, { expoId: 1308, query: { expoId: '1106' } })).code).toBe(400);
  });

  it('a day pass lists its days with their counts', async () => {
    const now = Date.now();
    await addRegistration('TWODAYLIST000001', { days: [localDay(now - DAY), localDay(now)] });
    await redeem('TWODAYLIST000001', 'North');
    const all = (await call(CheckinPath.checkInList, { expoId: 1308, query: { pageSize: '1000' } })).data as {
      list: { hash: string; days: unknown }[];
    };
    const hash = await sha256('1308:TWODAYLIST000001');
    expect(all.list.find((r) => r.hash === hash)?.days).toEqual([
      { day: localDay(now - DAY), usedCount: 0 },
      { day: localDay(now), usedCount: 1 },
    ]);
  });

  it('counts admitted and refused per gate and hour (expo-local)', async () => {
    const yesterday = localDay(Date.now() - DAY);
    await addRegistration('STATSTEST0000001', { max: 2 });
    await redeem('STATSTEST0000001', 'Stats A', at(yesterday, '09:05'));
    await redeem('STATSTEST0000001', 'Stats A', at(yesterday, '09:40'));
    await redeem('STATSTEST0000001', 'Stats A', at(yesterday, '09:50')); // used
    await redeem('NOSUCHSTATS00001', 'Stats B', at(yesterday, '10:01')); // unknown
    const r = await call(CheckinPath.checkInStats, { expoId: 1308, query: { expoId: '1308' } });
    expect(r.code).toBe(200);
    const rows = (r.data as { rows: { day: string; hour: number; gate: string; admitted: number; refused: number }[] })
      .rows;
    expect(rows.filter((x) => x.gate.startsWith('Stats '))).toEqual([
      { day: yesterday, hour: 9, gate: 'Stats A', admitted: 2, refused: 1 },
      { day: yesterday, hour: 10, gate: 'Stats B', admitted: 0, refused: 1 },
    ]);
    // another expo's stats hold none of these scans
    const other = await call(CheckinPath.checkInStats, { expoId: 1106 });
    expect((other.data as { rows: { gate: string }[] }).rows.filter((x) => x.gate.startsWith('Stats '))).toEqual([]);
  });

  it('a retried scanId is answered with its first result and counts and logs nothing more', async () => {
    await addRegistration('SCANIDTEST000001', { max: 1 });
    await addRegistration('SCANIDREVIEW0001', { audit: 1 });
    const first = await redeem('SCANIDTEST000001', 'North', undefined, 1308, 'phone-a-0001');
    expect(first).toMatchObject({ result: 'admitted', usedCount: 1, maxCount: 1 });
    // the reply was lost; the scanner syncs the same scan again, later and with its own time
    const again = await redeem('SCANIDTEST000001', 'North', undefined, 1308, 'phone-a-0001');
    expect(again).toMatchObject({ result: 'admitted', usedCount: 1, maxCount: 1, lastEntry: { gate: 'North' } });
    // another scan of the same code is a second entry: refused as used, logged once even when retried
    expect((await redeem('SCANIDTEST000001', 'Gate 3', undefined, 1308, 'phone-b-0001')).result).toBe('used');
    expect((await redeem('SCANIDTEST000001', 'Gate 3', undefined, 1308, 'phone-b-0001')).result).toBe('used');
    expect(await usedCount('SCANIDTEST000001')).toBe(1);
    expect(await logged('SCANIDTEST000001')).toEqual([
      { result: 'admitted', gate: 'North' },
      { result: 'used', gate: 'Gate 3' },
    ]);
    // refused and unknown scans: one log row per scanId
    for (let i = 0; i < 3; i++) {
      expect((await redeem('SCANIDREVIEW0001', 'North', undefined, 1308, 'phone-a-0002')).result).toBe('review');
      expect(await redeem('SCANIDNOSUCH0001', 'North', undefined, 1308, 'phone-a-0003')).toMatchObject({
        result: 'unknown',
        usedCount: null,
      });
    }
    expect(await logged('SCANIDREVIEW0001')).toEqual([{ result: 'review', gate: 'North' }]);
    expect(await logged('SCANIDNOSUCH0001')).toEqual([{ result: 'unknown', gate: 'North' }]);
    // the same id with another code is a scanner's mistake, not a retry: refused, nothing written
    const res = await call(CheckinPath.redeemCode, {
      expoId: 1308,
      body: { euCode: UNLIMITED, gate: 'North', scannedAt: new Date().toISOString(), scanId: 'phone-a-0001' },
    });
    expect(res.code).toBe(400);
    expect(res.msg).toMatch(/scanId/);
    // a scanId is one expo's: the same id at expo 1106 is a scan of its own
    expect((await redeem(OF_1106, 'North', undefined, 1106, 'phone-a-0001')).result).toBe('review');
    expect(await usedCount('SCANIDTEST000001')).toBe(1);
  });

  it('40 parallel redeems with one scanId: one admission, one log row, every answer admitted', async () => {
    await addRegistration('SCANIDRACE000001', { max: 0 }); // unlimited: only the scanId stops a second count
    const now = new Date().toISOString();
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) => redeem('SCANIDRACE000001', i % 2 ? 'A' : 'B', now, 1308, 'sync-race-1')),
    );
    expect(replies.map((r) => r.result)).toEqual(Array(40).fill('admitted'));
    expect(replies.every((r) => r.usedCount === 1)).toBe(true);
    expect(await usedCount('SCANIDRACE000001')).toBe(1);
    expect(await logged('SCANIDRACE000001')).toHaveLength(1);
    // a day pass the same way
    await addRegistration('SCANIDRACEDAY001', { max: 0, days: [localDay(Date.now())] });
    const days = await Promise.all(
      Array.from({ length: 40 }, () => redeem('SCANIDRACEDAY001', 'A', now, 1308, 'sync-race-2')),
    );
    expect(days.every((r) => r.result === 'admitted' && r.usedCount === 1)).toBe(true);
    expect(await usedCount('SCANIDRACEDAY001')).toBe(1);
    expect(await logged('SCANIDRACEDAY001')).toHaveLength(1);
    // and a maxCount 1 code: 40 retries of its one scan are all admitted, once
    await addRegistration('SCANIDRACEONE001', { max: 1 });
    const once = await Promise.all(
      Array.from({ length: 40 }, () => redeem('SCANIDRACEONE001', 'A', now, 1308, 'sync-race-3')),
    );
    expect(once.every((r) => r.result === 'admitted' && r.usedCount === 1)).toBe(true);
    expect(await logged('SCANIDRACEONE001')).toHaveLength(1);
  });

  it("the scan log: every scan oldest first, in bounded pages, one expo's only", async () => {
    type Log = {
      total: number;
      page: number;
      pageSize: number;
      list: { at: string; gate: string; euCode: string; result: string; scanId: string | null }[];
    };
    const yesterday = localDay(Date.now() - DAY);
    await addRegistration('LOGTEST000000001', { max: 1 });
    // synced out of order: the later scan arrives first
    await redeem('LOGTEST000000001', 'Log B', at(yesterday, '11:00'), 1308, 'log-2');
    await redeem('LOGTEST000000001', 'Log A', at(yesterday, '08:30'));
    await redeem('NOSUCHLOGCODE001', 'Log A', at(yesterday, '08:45'), 1308, 'log-3');
    await redeem(OF_1106, 'Log 1106', at(yesterday, '09:00'), 1106, 'log-4');
    const page = async (query: Record<string, string>, expoId = 1308) =>
      call(CheckinPath.checkInLog, { expoId, query: { expoId: String(expoId), ...query } });
    const all = (await page({ pageSize: '1000' })).data as Log;
    const n = (
      await testEnv.DB.prepare('SELECT count(*) AS n FROM scan_log WHERE expo_id = 1308').first<{ n: number }>()
    )?.n;
    expect(all.total).toBe(n);
    expect(all.list).toHaveLength(n ?? 0);
    const ats = all.list.map((r) => r.at);
    expect(ats).toEqual([...ats].sort());
    expect(all.list.every((r) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(r.at))).toBe(true);
    expect(all.list.filter((r) => r.gate.startsWith('Log '))).toEqual([
      { at: `${yesterday} 08:30:00`, gate: 'Log A', euCode: 'LOGTEST000000001', result: 'used', scanId: null },
      { at: `${yesterday} 08:45:00`, gate: 'Log A', euCode: 'NOSUCHLOGCODE001', result: 'unknown', scanId: 'log-3' },
      { at: `${yesterday} 11:00:00`, gate: 'Log B', euCode: 'LOGTEST000000001', result: 'admitted', scanId: 'log-2' },
    ]);
    // another expo's log holds its own scans only
    const other = (await page({ pageSize: '1000' }, 1106)).data as Log;
    expect(other.list.filter((r) => r.gate.startsWith('Log ')).map((r) => r.gate)).toEqual(['Log 1106']);
    expect(JSON.stringify(other)).not.toContain('LOGTEST000000001');
    // paging: two pages of 2 are the first four, in order
    const p1 = (await page({ page: '1', pageSize: '2' })).data as Log;
    const p2 = (await page({ page: '2', pageSize: '2' })).data as Log;
    expect([...p1.list, ...p2.list]).toEqual(all.list.slice(0, 4));
    expect((await page({})).data).toMatchObject({ page: 1, pageSize: 500 });
    expect((await page({ pageSize: '5000' })).data).toMatchObject({ pageSize: 1000 });
    expect((await page({ page: '0', pageSize: '0' })).data).toMatchObject({ page: 1, pageSize: 1 });
    expect((await page({ page: '99999', pageSize: '1000' })).data).toMatchObject({ total: n, list: [] });
    for (const bad of [{ pageSize: 'x' }, { page: '1.5' }, { page: '-1' }, { pageSize: '1e3' }]) {
      expect((await page(bad)).code, JSON.stringify(bad)).toBe(400);
    }
    expect((await call(CheckinPath.checkInLog, { expoId: 1308, query: { expoId: '1106' } })).code).toBe(400);
    // a POST of the GET call is no call
    expect((await call(CheckinPath.checkInLog, { expoId: 1308, body: {} })).code).toBe(404);
  });

  it('the client reads it: a retried scanId, the scan log, and the credential\'s lastEntry', async () => {
    const up = upstreamFor({ ...testEnv, UPSTREAM_URL: '' });
    await addRegistration('CLIENTSCAN000001', { max: 2 });
    const scannedAt = new Date().toISOString();
    const scan = { expoId: 1308, euCode: 'CLIENTSCAN000001', gate: 'Client Gate', scannedAt, scanId: 'client-scan-1' };
    const first = await up.redeemCode(scan);
    const again = await up.redeemCode(scan);
    expect(first.ok && first.data).toMatchObject({ result: 'admitted', usedCount: 1, maxCount: 2 });
    expect(again.ok && again.data).toMatchObject({ result: 'admitted', usedCount: 1, lastEntry: { gate: 'Client Gate' } });
    const log = await up.checkInLog({ expoId: 1308, pageSize: 1000 });
    expect(log.ok).toBe(true);
    const mine = log.ok ? log.data.list.filter((r) => r.euCode === 'CLIENTSCAN000001') : [];
    expect(mine).toEqual([
      { at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/), gate: 'Client Gate', euCode: 'CLIENTSCAN000001', result: 'admitted', scanId: 'client-scan-1' },
    ]);
    expect(log.ok && log.data.total).toBeGreaterThanOrEqual(1);
    const cred = await up.queryCustomerCode({ expoId: 1308, euCode: 'CLIENTSCAN000001' });
    expect(cred.ok && cred.data).toMatchObject({ usedCount: 1, maxCount: 2, lastEntry: { gate: 'Client Gate', at: mine[0]?.at } });
  });
});
