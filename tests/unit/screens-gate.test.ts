/** The gate's screens (src/lib/screens/gate.ts) and routes, in node: nothing without a key; the last answer from the flash; the stats. */
import { describe, expect, it, vi } from 'vitest';
import { gateScreen, loadGate } from '../../src/lib/screens/gate';
import { matchRoute, routePath } from '../../src/lib/core/routes';
import { pageInfo } from '../../src/lib/page/guard';
import { pagePolicy } from '../../src/lib/page/policy';
import type { Flash } from '../../src/lib/page/flash';
import type { GateAnswer } from '../../src/lib/gate/types';
import { okReply, refusedReply } from './upstream-fakes';

const NOW = Date.UTC(2026, 11, 1, 1, 20);
const staff = { keyId: 'abcdef0123', expoId: 1308, gate: 'Gate 3', expiresAt: NOW + 3600_000 };
const route = { expoId: 1308, eid: 'MTMwOA' };
const stats = { checkInStats: vi.fn(async () => okReply([{ day: '2026-12-01', hour: 9, gate: 'Gate 3', admitted: 2, refused: 1 }])) };
const answer: GateAnswer = { result: 'used', code: 'PF4R5MHUHIPEQBHR', name: '钱五', classLabel: 'Visitor', ticketName: null, usedCount: 1, maxCount: 1, lastEntry: { at: '2026-12-01 09:12:00', gate: 'Gate 1' }, gate: 'Gate 3', scannedAt: '2026-12-01T01:20:00.000Z' };
const flash = (notice: Flash['notice'], more: Partial<Flash> = {}): Flash => ({ path: '/gate/MTMwOA', values: {}, error: null, notice, ...more });

describe('gate routes', () => {
  it('match /gate/{eid}, /stats and /scans.csv, and build them back', () => {
    for (const which of ['scan', 'stats', 'csv'] as const) {
      const path = routePath({ screen: 'gate', which, expoId: 1308 });
      expect(matchRoute(path)).toEqual({ screen: 'gate', variant: null, which, expoId: 1308, eid: 'MTMwOA' });
    }
    expect(routePath({ screen: 'gate', which: 'stats', expoId: 1308 })).toBe('/gate/MTMwOA/stats');
    for (const bad of ['/gate', '/gate/xx!', '/gate/MTMwOA/other', '/gate/MTMwOA/stats/x']) expect(matchRoute(bad)).toBeNull();
  });

  it('are never stored or indexed, and skip every visitor rule of the guard', () => {
    expect(pagePolicy({ personal: gateScreen.personal, flashShown: false })).toEqual({ cacheControl: 'private, no-store', noindex: true });
    expect(pageInfo(new URL('https://x.example/gate/MTMwOA')).skip).toBe(true);
  });
});

describe('loadGate', () => {
  it('has no data without a staff key of this expo, nor for the CSV', async () => {
    expect(await loadGate('scan', route, { flash: null, now: NOW }, stats, null)).toBeNull();
    expect(await loadGate('scan', route, { flash: null, now: NOW }, stats, { ...staff, expoId: 1106 })).toBeNull();
    expect(await loadGate('csv', route, { flash: null, now: NOW }, stats, staff)).toBeNull();
  });

  it('shows the gate, the expo-local day and the last answer the flash carried', async () => {
    const data = await loadGate('scan', route, { flash: flash(null, { data: answer }), now: NOW }, stats, staff);
    expect(data).toMatchObject({ kind: 'gate', gate: 'Gate 3', today: '2026-12-01', answer, unsupported: false, error: null, typed: '' });
  });

  it('names the show in the page’s language from the config of the customer url the key names (issue 30)', async () => {
    const info = { exhiName: '国际展', exhiNameEn: 'IEAE event' };
    const getCustomerId = vi.fn(async () => okReply({ expoInfo: info }));
    const keyed = { ...staff, urlsId: 21308 };
    expect(await loadGate('scan', route, { flash: null, now: NOW, lang: 'thai' }, { ...stats, getCustomerId }, keyed)).toMatchObject({ show: 'IEAE event' });
    expect(getCustomerId).toHaveBeenCalledWith({ expoId: 1308, fId: 21308 });
    expect(await loadGate('stats', route, { flash: null, now: NOW, lang: 'zh' }, { ...stats, getCustomerId }, keyed)).toMatchObject({ show: '国际展' });
    // no customer url on the key, a refused or failing config: no name (the page names the expo by its id)
    expect(await loadGate('scan', route, { flash: null, now: NOW }, { ...stats, getCustomerId }, staff)).toMatchObject({ show: null });
    expect(await loadGate('scan', route, { flash: null, now: NOW }, { ...stats, getCustomerId: async () => refusedReply(500) }, keyed)).toMatchObject({ show: null });
    expect(await loadGate('scan', route, { flash: null, now: NOW }, { ...stats, getCustomerId: async () => Promise.reject(new Error('down')) }, keyed)).toMatchObject({ show: null });
  });

  it('says when the organiser’s API cannot check in, and keeps a refused form’s code', async () => {
    expect(await loadGate('scan', route, { flash: flash({ tone: 'error', key: 'gate.unsupported', vars: {}, text: null }), now: NOW }, stats, staff)).toMatchObject({ unsupported: true, error: null });
    const missing = await loadGate('scan', route, { flash: flash(null, { error: { field: 'code', key: 'gate.codeMissing', text: null }, values: { code: ' ' } }), now: NOW }, stats, staff);
    expect(missing).toMatchObject({ error: { key: 'gate.codeMissing' }, typed: ' ' });
  });

  it('says it on load, before any scan: a one-row read of the admission list answers "no such call" (issue 23 review)', async () => {
    const lacking = { ...stats, checkInList: vi.fn(async () => refusedReply(404)) };
    expect(await loadGate('scan', route, { flash: null, now: NOW }, lacking, staff)).toMatchObject({ unsupported: true, answer: null });
    expect(lacking.checkInList).toHaveBeenCalledWith({ expoId: 1308, page: 1, pageSize: 1 });
    // an API that has it, one that failed otherwise, or one that threw: nothing said
    for (const probe of [async () => okReply(null), async () => refusedReply(502), async () => Promise.reject(new Error('down'))]) {
      expect(await loadGate('scan', route, { flash: null, now: NOW }, { ...stats, checkInList: probe }, staff)).toMatchObject({ unsupported: false });
    }
    // a scan just answered: the calls exist, no probe
    const asked = { ...stats, checkInList: vi.fn(async () => refusedReply(404)) };
    await loadGate('scan', route, { flash: flash(null, { data: answer }), now: NOW }, asked, staff);
    expect(asked.checkInList).not.toHaveBeenCalled();
  });

  it('tables the stats, or says the call is missing', async () => {
    expect(await loadGate('stats', route, { flash: null, now: NOW }, stats, staff)).toMatchObject({ kind: 'gateStats', table: { admitted: 2, refused: 1 }, unsupported: false });
    const none = { checkInStats: async () => refusedReply(404) };
    expect(await loadGate('stats', route, { flash: null, now: NOW }, none, staff)).toMatchObject({ table: null, unsupported: true });
  });
});
