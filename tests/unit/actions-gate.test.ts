/** The gate's calls (src/lib/actions/gate.ts) over fake ports, in node: input rules and every outcome. */
import { describe, expect, it, vi } from 'vitest';
import { gateList, gateScan, readScannedAt, readSync, syncScans, GATE_LIST_CAP, GATE_UNSUPPORTED, GATE_UPSTREAM_FAULT, type GatePorts } from '../../src/lib/actions/gate';
import type { GateFault } from '../../src/lib/gate/fault';
import { jsonOf, type ActionContext, type ActionOutcome } from '../../src/lib/actions/outcome';
import { GATE_SYNC_MAX, type GateListRow } from '../../src/lib/gate/types';
import { okReply, refusedReply } from './upstream-fakes';

const t: ActionContext['t'] = (k) => k;
const NOW = Date.UTC(2026, 11, 1, 1, 20);
const ctx = (json: boolean): ActionContext => ({ lang: 'en', t, json, origin: 'https://expo.test', cookies: {}, now: NOW });
/** What an island gets of an outcome (functions/api/action.ts answers it so). */
const island = (o: ActionOutcome<unknown>) => jsonOf(o, t);
const staff = { keyId: 'abcdef0123', expoId: 1308, gate: 'Gate 3', expiresAt: NOW + 3600_000 };
const used = { result: 'used' as const, usedCount: 1, maxCount: 1, lastEntry: { at: '2026-12-01 09:12:00', gate: 'Gate 1' }, uname: 'A', euClass: 0, ticketName: '', euDefine: '' };

function portsOf(more: Partial<GatePorts['up']> = {}): GatePorts {
  return {
    staff,
    up: {
      redeemCode: vi.fn(async () => okReply(used)),
      checkInList: vi.fn(async () => okReply({ total: 0, list: [] })),
      ...more,
    },
  };
}

describe('POST /api/gate/scan (the action)', () => {
  it('redeems the normalised code at the key’s gate, never the posted one; JSON gets the answer', async () => {
    const p = portsOf();
    const o = await gateScan.run({ eid: 'MTMwOA', code: ' PF4R 5MHU HIPE QBHR ', gate: 'Forged' }, p, ctx(true));
    expect(p.up.redeemCode).toHaveBeenCalledWith({ expoId: 1308, euCode: 'PF4R5MHUHIPEQBHR', gate: 'Gate 3', scannedAt: new Date(NOW).toISOString() });
    expect(island(o).body).toMatchObject({ code: 200, msg: null, data: { result: 'used', gate: 'Gate 3', code: 'PF4R5MHUHIPEQBHR' } });
  });

  it('redeems a code typed on a phone keyboard as the code itself: lower case, groups, 0 for O (issue 30)', async () => {
    for (const typed of ['pf4r 5mhu hipe qbhr', 'PF4R-5MHU-H1PE-QBHR', 'oq3zk7nb2wlxt5hd'.replace('o', '0')]) {
      const p = portsOf();
      await gateScan.run({ eid: 'MTMwOA', code: typed }, p, ctx(false));
      const want = typed.startsWith('0') ? 'OQ3ZK7NB2WLXT5HD' : 'PF4R5MHUHIPEQBHR';
      expect(p.up.redeemCode, typed).toHaveBeenCalledWith(expect.objectContaining({ euCode: want }));
    }
  });

  it('a form post goes back with the same answer as the flash data, to the page’s top (the field keeps its autofocus)', async () => {
    const o = await gateScan.run({ eid: 'MTMwOA', code: 'PF4R5MHUHIPEQBHR' }, portsOf(), ctx(false));
    expect(o).toMatchObject({ kind: 'notice', notice: null, data: { result: 'used', lastEntry: { at: '2026-12-01 09:12:00', gate: 'Gate 1' } } });
    expect(island(o).body.data).toEqual(o.data);
    expect(o).not.toHaveProperty('anchor');
    expect(gateScan.back({ eid: 'MTMwOA' }, ctx(false))).toBe('/gate/MTMwOA');
    expect(gateScan.back({ eid: '../x' }, ctx(false))).toBe('/');
  });

  it('validates its input: an empty code, a scannedAt without a zone, a bad scanId', async () => {
    const p = portsOf();
    expect(await gateScan.run({ eid: 'MTMwOA', code: '  ' }, p, ctx(false))).toMatchObject({ kind: 'invalid', errors: [{ field: 'code', key: 'gate.codeMissing' }] });
    expect(island(await gateScan.run({ eid: 'MTMwOA', code: '' }, p, ctx(true)))).toEqual({ status: 400, body: { code: 400, msg: 'gate.codeMissing', data: null } });
    expect(island(await gateScan.run({ eid: 'MTMwOA', code: 'A', scannedAt: '2026-12-01 09:00' }, p, ctx(true)))).toEqual({ status: 400, body: { code: 400, msg: 'gate.badScan', data: null } });
    expect(island(await gateScan.run({ eid: 'MTMwOA', code: 'A', scanId: 'x'.repeat(65) }, p, ctx(true))).status).toBe(400);
    expect(await gateScan.run({ eid: 'MTMwOA', code: 'A', scannedAt: 'x' }, p, ctx(false))).toMatchObject({ kind: 'broken' });
    expect(p.up.redeemCode).not.toHaveBeenCalled();
  });

  it('answers unknown for a text that holds no code, without asking the upstream', async () => {
    const p = portsOf();
    const o = await gateScan.run({ eid: 'MTMwOA', code: 'https://evil.example/' }, p, ctx(true));
    expect(island(o).body).toMatchObject({ data: { result: 'unknown' } });
    expect(p.up.redeemCode).not.toHaveBeenCalled();
  });

  it('says in words when the organiser’s API lacks the call (404), and passes on other refusals', async () => {
    const missing = portsOf({ redeemCode: vi.fn(async () => refusedReply(404, 'unknown call')) });
    const lacking = await gateScan.run({ eid: 'MTMwOA', code: 'ABC' }, missing, ctx(false));
    expect(island(lacking).body).toEqual({ code: GATE_UNSUPPORTED, msg: 'gate.unsupported', data: null });
    expect(lacking).toMatchObject({ notice: { tone: 'error', key: 'gate.unsupported' } });
    const refused = portsOf({ redeemCode: vi.fn(async () => refusedReply(400, 'scannedAt too old')) });
    expect(island(await gateScan.run({ eid: 'MTMwOA', code: 'ABC' }, refused, ctx(true))).body).toEqual({ code: 400, msg: 'scannedAt too old', data: null });
  });

  it('an organiser’s system that did not answer as expected is a fault in words, never a refused key nor a decision (issue 30)', async () => {
    const faults: [GateFault, string][] = [
      [{ kind: 'http', status: 404 }, 'gate.faultHttp'],
      [{ kind: 'http', status: 500 }, 'gate.faultHttp'],
      [{ kind: 'timeout' }, 'gate.faultTimeout'],
      [{ kind: 'network' }, 'gate.faultNetwork'],
      [{ kind: 'unreadable' }, 'gate.faultUnreadable'],
    ];
    for (const [fault, key] of faults) {
      const p = portsOf({ redeemCode: vi.fn(async () => ({ ok: false as const, fault })) });
      const o = await gateScan.run({ eid: 'MTMwOA', code: 'ABC' }, p, ctx(false));
      expect(island(o), key).toEqual({ status: 200, body: { code: GATE_UPSTREAM_FAULT, msg: key, data: null } });
      expect(o).toMatchObject({ kind: 'notice', notice: { tone: 'error', key: 'gate.faultNoJs', vars: { reason: key }, text: null } });
    }
    // an envelope code that is neither a decision, a refusal of the scan (400) nor "no such call" (404)
    const odd = portsOf({ redeemCode: vi.fn(async () => refusedReply(600, 'busy')) });
    expect(island(await gateScan.run({ eid: 'MTMwOA', code: 'ABC' }, odd, ctx(true))).body).toMatchObject({ code: GATE_UPSTREAM_FAULT, msg: 'gate.faultRefusedMsg' });
  });

  it('reads scannedAt only with a zone', () => {
    expect(readScannedAt('2026-12-01T01:12:05.120Z')).toBe('2026-12-01T01:12:05.120Z');
    expect(readScannedAt('2026-12-01T09:12:05+08:00')).toBe('2026-12-01T01:12:05.000Z');
    expect(readScannedAt('2026-12-01T09:12:05')).toBeNull();
    expect(readScannedAt('2026-13-45T09:12:05Z')).toBeNull();
  });
});

describe('sync and list', () => {
  const one = { scanId: 's1', code: 'PF4R5MHUHIPEQBHR', scannedAt: '2026-12-01T01:00:00Z', local: 'admitted' };

  it('reads at most GATE_SYNC_MAX well-formed scans', () => {
    expect(readSync({ eid: 'MTMwOA', scans: [one] })).toMatchObject({ ok: true, scans: [{ ...one, scannedAt: '2026-12-01T01:00:00.000Z' }] });
    expect(readSync({ eid: 'MTMwOA', scans: Array(GATE_SYNC_MAX + 1).fill(one) })).toEqual({ ok: false, key: 'gate.tooMany' });
    for (const bad of [null, [], { eid: 'MTMwOA' }, { eid: 'MTMwOA', scans: [{ ...one, scanId: '' }] }, { eid: 'MTMwOA', scans: [{ ...one, local: 'x' }] }, { eid: 1, scans: [] }]) {
      expect(readSync(bad).ok).toBe(false);
    }
  });

  it('redeems each scan with its own time and id, and flags a double entry', async () => {
    const p = portsOf();
    const r = await syncScans([{ ...one, local: 'admitted' }, { ...one, scanId: 's2', local: 'used' }], p, t);
    expect(p.up.redeemCode).toHaveBeenNthCalledWith(1, expect.objectContaining({ scannedAt: '2026-12-01T01:00:00Z', scanId: 's1', gate: 'Gate 3' }));
    expect(island(r).body).toMatchObject({ code: 200, data: { results: [{ scanId: 's1', double: true }, { scanId: 's2', double: false }] } });
  });

  it('a scan the organiser refuses (400) is answered as refused, and the scans after it are redeemed (issue 30)', async () => {
    const tooOld = refusedReply(400, 'bad input: scannedAt is more than 30 days old');
    const redeemCode = vi.fn(async ({ scanId }: { scanId?: string }) => (scanId === 's1' ? tooOld : okReply(used)));
    const r = await syncScans([{ ...one, local: 'admitted' }, { ...one, scanId: 's2', local: 'admitted' }, { ...one, scanId: 's3', local: 'admitted' }], portsOf({ redeemCode }), t);
    expect(redeemCode).toHaveBeenCalledTimes(3);
    expect(island(r).body).toEqual({
      code: 200,
      msg: null,
      data: { results: [expect.objectContaining({ scanId: 's2' }), expect.objectContaining({ scanId: 's3' })], refused: [{ scanId: 's1', code: 400, msg: tooOld.msg }] },
    });
  });

  it('a fault of the organiser’s system stops the sync: what was answered comes back, the rest stays queued', async () => {
    const redeemCode = vi.fn(async ({ scanId }: { scanId?: string }) => (scanId === 's1' ? okReply(used) : { ok: false as const, fault: { kind: 'http' as const, status: 404 } }));
    const r = await syncScans([{ ...one, local: 'admitted' }, { ...one, scanId: 's2', local: 'admitted' }, { ...one, scanId: 's3', local: 'admitted' }], portsOf({ redeemCode }), t);
    expect(redeemCode).toHaveBeenCalledTimes(2);
    expect(island(r).body).toEqual({ code: GATE_UPSTREAM_FAULT, msg: 'gate.faultHttp', data: { results: [expect.objectContaining({ scanId: 's1' })], refused: [] } });
  });

  it('reads every page of the list up to the cap, with the expo-local day', async () => {
    const row: GateListRow = { hash: 'a'.repeat(64), usedCount: 0, maxCount: 1, auditStatus: 0, useStatus: 0, days: null };
    const pages = vi.fn(async ({ page }: { page?: number }) => okReply({ total: 2500, list: Array(page === 3 ? 500 : 1000).fill(row) }));
    const r = island(await gateList(portsOf({ checkInList: pages }), NOW, t)).body as { data: { rows: unknown[] } | null };
    expect(pages).toHaveBeenCalledTimes(3);
    expect(r.data).toMatchObject({ expoId: 1308, today: '2026-12-01', complete: true });
    expect(r.data?.rows).toHaveLength(2500);
    const endless = vi.fn(async () => okReply({ total: null, list: Array(1000).fill(row) }));
    const capped = island(await gateList(portsOf({ checkInList: endless }), NOW, t)).body as { data: { rows: unknown[]; complete: boolean } | null };
    expect(capped.data?.rows).toHaveLength(GATE_LIST_CAP);
    expect(capped.data?.complete).toBe(false);
    const missing = await gateList(portsOf({ checkInList: vi.fn(async () => refusedReply(404, null)) }), NOW, t);
    expect(island(missing).body).toMatchObject({ code: GATE_UNSUPPORTED, data: null });
    const faulted = await gateList(portsOf({ checkInList: vi.fn(async () => ({ ok: false as const, fault: { kind: 'timeout' as const } })) }), NOW, t);
    expect(island(faulted)).toEqual({ status: 200, body: { code: GATE_UPSTREAM_FAULT, msg: 'gate.faultTimeout', data: null } });
  });
});
