/**
 * The shuttle bus calls of the upstream client (functions/upstream/calls/bus.ts) against a fake
 * organiser: paths under /custom with the expoId header, plain params and bodies, replies read
 * defensively (numeric strings taken, bad rows, stops and departures dropped), 20301/20302 as
 * refusals with their code.
 */
import { describe, expect, it } from 'vitest';
import { createUpstream } from '../../functions/upstream/client';
import { createAesKeyCache } from '../../functions/upstream/aes-key-cache';
import { BusCode, BusPath } from '../../src/lib/contract';

function fakeUpstream(replies: Record<string, unknown>) {
  const seen: { method: string; path: string; query: Record<string, string>; expoId: string | null; body: unknown }[] = [];
  const fetch = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const path = url.pathname.replace(/^\/api\/custom/, '');
    seen.push({ method: req.method, path, query: Object.fromEntries(url.searchParams), expoId: req.headers.get('expoId'), body: req.method === 'POST' ? await req.json() : null });
    return Response.json(replies[path] ?? { code: 404, msg: 'unknown call', data: null });
  };
  const up = createUpstream({ baseUrl: 'https://organiser.example/api', fetch, timeoutMs: 2000, keyCache: createAesKeyCache() });
  return { up, seen };
}

describe('shuttle bus calls (docs/upstream.md "Shuttle bus")', () => {
  it('lists lines loosely: numeric strings read, bad lines, stops and departures dropped, a non-list empty', async () => {
    const { up, seen } = fakeUpstream({
      [BusPath.selectBusList]: {
        code: 200,
        msg: 'success',
        data: [
          { id: '801', name: 'Metro', note: null, stops: [{ id: 8011, name: 'Exit B' }, { id: 'x', name: 'bad' }], departures: [{ id: 8101, departTime: '2026-12-01 08:30:00', capacity: '40', booked: 12 }, { id: 8102 }] },
          { id: 0, name: 'bad line' },
          'junk',
        ],
      },
      [BusPath.selectBusUser]: { code: 200, msg: '', data: { not: 'a list' } },
    });
    expect(await up.selectBusList({ expoId: 1308 })).toEqual({
      ok: true,
      code: 200,
      msg: 'success',
      data: [{ id: 801, name: 'Metro', note: '', stops: [{ id: 8011, name: 'Exit B' }], departures: [{ id: 8101, departTime: '2026-12-01 08:30:00', capacity: 40, booked: 12 }] }],
    });
    expect(await up.selectBusUser({ expoId: 1308, euCode: 'A' })).toMatchObject({ ok: true, data: [] });
    expect(seen.map((s) => [s.method, s.path, s.expoId, s.query])).toEqual([
      ['GET', BusPath.selectBusList, '1308', { expoId: '1308' }],
      ['GET', BusPath.selectBusUser, '1308', { expoId: '1308', euCode: 'A' }],
    ]);
  });

  it('reserve and cancel post plain bodies; 20301 and 20302 come back as refusals with their code', async () => {
    const { up, seen } = fakeUpstream({
      [BusPath.addBusUser]: { code: BusCode.FULL, msg: 'full', data: null },
      [BusPath.cancelBusUser]: { code: 200, msg: 'ok', data: null },
    });
    expect(await up.addBusUser({ expoId: 1308, euCode: 'A', departureId: 8101, stopId: 8011 })).toMatchObject({ ok: false, code: 20301 });
    expect(await up.cancelBusUser({ expoId: 1308, euCode: 'A', id: 3 })).toMatchObject({ ok: true });
    expect(seen.map((s) => s.body)).toEqual([
      { expoId: 1308, euCode: 'A', departureId: 8101, stopId: 8011 },
      { expoId: 1308, euCode: 'A', id: 3 },
    ]);
  });
});
