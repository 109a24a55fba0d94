/**
 * The check-in calls of the upstream client (functions/upstream/calls/checkin.ts) against a fake
 * organiser: paths under /custom with the expoId header, plain bodies and params, replies read
 * loosely (junk fields ignored, numbers as strings, bad rows dropped), a `result` outside the
 * contract not read as a decision, an organiser without the call a refusal; queryCustomerCode's
 * lastEntry read loosely.
 */
import { describe, expect, it } from 'vitest';
import { createUpstream } from '../../functions/upstream/client';
import { createAesKeyCache } from '../../functions/upstream/aes-key-cache';
import { CheckInLog, CheckInPage, CheckinPath, Credential } from '../../src/lib/contract';
import { UpstreamError } from '../../functions/upstream/errors';

function fakeUpstream(replies: Record<string, unknown>) {
  const seen: { method: string; path: string; query: Record<string, string>; expoId: string | null; body: unknown }[] =
    [];
  const fetch = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const path = url.pathname.replace(/^\/api\/custom/, '');
    seen.push({
      method: req.method,
      path,
      query: Object.fromEntries(url.searchParams),
      expoId: req.headers.get('expoId'),
      body: req.method === 'POST' ? await req.json() : null,
    });
    return Response.json(replies[path] ?? { code: 404, msg: 'unknown call', data: null });
  };
  const up = createUpstream({
    baseUrl: 'https://organiser.example/api',
    fetch,
    timeoutMs: 2000,
    keyCache: createAesKeyCache(),
  });
  return { up, seen };
}

const HASH = 'a'.repeat(64);

describe('check-in calls (docs/upstream.md "Check-in (the gate)")', () => {
  it('redeemCode posts a plain body and reads the reply loosely', async () => {
    const { up, seen } = fakeUpstream({
      [CheckinPath.redeemCode]: {
        code: 200,
        msg: 'success',
        data: {
          result: ' used ',
          usedCount: '1',
          maxCount: 1,
          useStatus: '1',
          auditStatus: null,
          lastEntry: { at: '2026-12-01 09:12:00', gate: 'Gate 3', junk: true },
          uname: 'Li',
          euClass: 'x',
          ticketName: null,
          euDefine: 7,
          extra: { nested: 1 },
        },
      },
    });
    const r = await up.redeemCode({
      expoId: 1308,
      euCode: 'ABC',
      gate: 'Gate 3',
      scannedAt: '2026-12-01T01:12:00.000Z',
    });
    expect(r).toEqual({
      ok: true,
      code: 200,
      msg: 'success',
      data: {
        result: 'used',
        usedCount: 1,
        maxCount: 1,
        useStatus: 1,
        auditStatus: null,
        lastEntry: { at: '2026-12-01 09:12:00', gate: 'Gate 3' },
        uname: 'Li',
        euClass: null,
        ticketName: '',
        euDefine: '7',
      },
    });
    expect(seen).toEqual([
      {
        method: 'POST',
        path: CheckinPath.redeemCode,
        query: {},
        expoId: '1308',
        body: { expoId: 1308, euCode: 'ABC', gate: 'Gate 3', scannedAt: '2026-12-01T01:12:00.000Z' },
      },
    ]);
  });

  it('a reply with only a result reads; a lastEntry that is no entry reads as none', async () => {
    const { up } = fakeUpstream({
      [CheckinPath.redeemCode]: { code: '200', data: { result: 'otherExpo', lastEntry: 'yesterday' } },
      [CheckinPath.checkInStats]: { code: 200, data: { rows: 'none' } },
    });
    expect(
      await up.redeemCode({ expoId: 1308, euCode: 'A', gate: 'N', scannedAt: '2026-12-01T01:12:00Z' }),
    ).toMatchObject({
      ok: true,
      data: { result: 'otherExpo', usedCount: null, maxCount: null, lastEntry: null, uname: '' },
    });
    expect(await up.checkInStats({ expoId: 1308 })).toMatchObject({ ok: true, data: [] });
  });

  it('a result outside the contract is no decision (bad data); an organiser without the call is a refusal', async () => {
    const { up } = fakeUpstream({ [CheckinPath.redeemCode]: { code: 200, data: { result: 'maybe' } } });
    await expect(
      up.redeemCode({ expoId: 1308, euCode: 'A', gate: 'N', scannedAt: '2026-12-01T01:12:00Z' }),
    ).rejects.toBeInstanceOf(UpstreamError);
    const none = fakeUpstream({});
    expect(
      await none.up.redeemCode({ expoId: 1308, euCode: 'A', gate: 'N', scannedAt: '2026-12-01T01:12:00Z' }),
    ).toMatchObject({ ok: false, code: 404 });
  });

  it('checkInList sends page and pageSize, drops rows that do not read, takes a bare array', async () => {
    const { up, seen } = fakeUpstream({
      [CheckinPath.checkInList]: {
        code: 200,
        data: {
          total: '3',
          list: [
            {
              hash: HASH.toUpperCase(),
              usedCount: '2',
              maxCount: 3,
              auditStatus: 0,
              useStatus: 1,
              days: null,
              junk: 1,
            },
            {
              hash: 'b'.repeat(64),
              usedCount: 0,
              maxCount: 1,
              auditStatus: 0,
              useStatus: 0,
              days: [{ day: '2026-12-01', usedCount: '1' }, { day: 'soon' }, 'x'],
            },
            { hash: 'not a hash', usedCount: 0, maxCount: 1 },
            { hash: 'c'.repeat(64), usedCount: 0, maxCount: 0 },
          ],
        },
      },
      [CheckinPath.checkInStats]: {
        code: 200,
        data: [
          { day: '2026-12-01', hour: '9', gate: 'A', admitted: '3', refused: 1 },
          { day: '2026-12-01', hour: 24, gate: 'B', admitted: 0, refused: 0 },
        ],
      },
    });
    expect(await up.checkInList({ expoId: 1308, page: 2, pageSize: 1000 })).toMatchObject({
      ok: true,
      data: {
        total: 3,
        list: [
          { hash: HASH, usedCount: 2, maxCount: 3, auditStatus: 0, useStatus: 1, days: null },
          { hash: 'b'.repeat(64), usedCount: 0, maxCount: 1, days: [{ day: '2026-12-01', usedCount: 1 }] },
          { hash: 'c'.repeat(64), usedCount: 0, maxCount: 0, auditStatus: null, useStatus: null, days: null },
        ],
      },
    });
    expect(await up.checkInStats({ expoId: 1308 })).toMatchObject({
      ok: true,
      data: [{ day: '2026-12-01', hour: 9, gate: 'A', admitted: 3, refused: 1 }],
    });
    expect(seen.map((s) => [s.method, s.path, s.query])).toEqual([
      ['GET', CheckinPath.checkInList, { expoId: '1308', page: '2', pageSize: '1000' }],
      ['GET', CheckinPath.checkInStats, { expoId: '1308' }],
    ]);
  });

  it('a list or log whose data is neither a page nor an array does not read (issue 30: never an empty list)', () => {
    for (const bad of ['garbage', null, 7, {}, { list: 'x' }, { total: 3 }]) {
      expect(CheckInPage.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
      expect(CheckInLog.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(CheckInPage.parse([])).toEqual({ total: null, list: [] });
    expect(CheckInPage.parse({ total: 0, list: [] })).toEqual({ total: 0, list: [] });
  });

  it("queryCustomerCode's credential gains lastEntry, read loosely; the old fields stay", () => {
    const base = { euCode: 'A', useStatus: 1, usedCount: 2, maxCount: 3, auditStatus: 0 };
    expect(Credential.parse({ ...base, lastEntry: { at: '2026-12-01 09:12:00', gate: 'Gate 3' } })).toMatchObject({
      ...base,
      lastEntry: { at: '2026-12-01 09:12:00', gate: 'Gate 3' },
    });
    expect(Credential.parse(base).lastEntry).toBeNull();
    expect(Credential.parse({ ...base, lastEntry: { gate: 'no time' } }).lastEntry).toBeNull();
  });
});
