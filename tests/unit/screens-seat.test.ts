import { describe, expect, it } from 'vitest';
import { loadSeat, loadSeatResult } from '../../src/lib/screens/seat';
import { seatResultPath } from '../../src/lib/seat/seats';
import { flash, ok, page, paramsOf, pathOf, ports } from './screens-helpers';

describe('loadSeat (the seat lookup)', () => {
  it('a seat expo: its activity types and seat map', async () => {
    const p = ports({ pageActivityType: ok([{ id: 3, activityName: 'Forum' }]), getImage: ok({ url: 'https://img.example/seat.png' }) });
    const d = await loadSeat(page(`/seat${pathOf(1128)}`), p, paramsOf(1128));
    expect(d.status).toBe(200);
    expect(d.types).toEqual([{ id: 3, activityName: 'Forum' }]);
    expect(d.map).toBe('https://img.example/seat.png');
    expect(d.imageOrigins).toContain('https://img.example');
  });

  it('any other expo is a 404 and asks the upstream nothing', async () => {
    const p = ports();
    const d = await loadSeat(page(`/seat${pathOf(1308)}`), p, paramsOf(1308));
    expect(d.status).toBe(404);
    expect(p.pageActivityType).not.toHaveBeenCalled();
  });

  it('a failed upstream is "unavailable": no types, no map', async () => {
    const p = ports({ pageActivityType: async () => Promise.reject(new Error('down')) });
    const d = await loadSeat(page(`/seat${pathOf(1128)}`), p, paramsOf(1128));
    expect(d.types).toEqual([]);
    expect(d.map).toBeNull();
  });

  it('the flash: typed values, one person’s seats per type, the field error; no notice under the sheet', async () => {
    const path = `/seat${pathOf(1128)}`;
    const f = flash(path, {
      values: { userName: 'Ann', companyName: 'Co', typeId: '3', p0: JSON.stringify(['Co', 'A', '12']), p1: 'not json' },
      error: { field: 'userName', key: 'seat.nameRequired', text: null },
      notice: { tone: 'error', key: 'seat.noSeat', vars: {}, text: null },
    });
    const d = await loadSeat(page(path, { flash: f }), ports(), paramsOf(1128));
    expect(d.values).toEqual({ userName: 'Ann', companyName: 'Co' });
    expect(d.people).toEqual([['Co', 'A', '12']]);
    expect(d.error).toEqual({ field: 'userName', message: 'seat.nameRequired' });
    expect(d.notice).toBeNull();
  });
});

describe('loadSeatResult (the signed seat result)', () => {
  it('an unsigned result naming a seat expo goes back to its lookup', async () => {
    const d = await loadSeatResult(page('/zuoweiSuccess?userName=A&companyName=B&seat=1&fId=21128'), ports(), 'zuowei', 'x'.repeat(32));
    expect(d).toMatchObject({ result: null, status: 404, lookup: { expoId: 1128, fId: 21128 } });
  });

  it('naming none, it is the page’s “no seat”', async () => {
    const d = await loadSeatResult(page('/zuoweiSuccess'), ports(), 'zuowei', 'x'.repeat(32));
    expect(d).toMatchObject({ result: null, status: 404, lookup: null });
  });

  it('a signed result keeps its lookup around it: the event, the seat map, the way back', async () => {
    const secret = 'x'.repeat(32);
    const path = await seatResultPath({ expoId: 1128, fId: 21128 }, { userName: 'Ann', companyName: 'Co', seat: 'A-12' }, secret);
    const p = ports({ getImage: ok({ url: 'https://img.example/seat.png' }) });
    const base = page(path);
    const d = await loadSeatResult({ ...base, view: { ...base.view, name: 'Seat Expo' } }, p, 'zuowei', secret);
    expect(d).toMatchObject({ status: 200, result: { seat: 'A-12' }, name: 'Seat Expo', map: 'https://img.example/seat.png', back: `/seat/21128/${pathOf(1128).split('/')[2]}/visitor` });
    expect(d.status === 200 && d.imageOrigins).toContain('https://img.example');
  });
});
