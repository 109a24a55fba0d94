/**
 * The site booking calls of the upstream client (functions/upstream/calls/sites.ts) against a
 * fake organiser: paths under /custom with the expoId header, plain params and bodies, replies
 * read defensively (numeric strings taken, bad rows dropped, non-lists empty), 20201/20202 as
 * refusals with their code.
 */
import { describe, expect, it } from 'vitest';
import { createUpstream } from '../../functions/upstream/client';
import { createAesKeyCache } from '../../functions/upstream/aes-key-cache';
import { SiteCode, SitePath } from '../../src/lib/contract';

interface Seen {
  method: string;
  path: string;
  query: Record<string, string>;
  expoId: string | null;
  body: unknown;
}

function fakeUpstream(replies: Record<string, unknown>) {
  const seen: Seen[] = [];
  const fetch = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const path = url.pathname.replace(/^\/api\/custom/, '');
    seen.push({ method: req.method, path, query: Object.fromEntries(url.searchParams), expoId: req.headers.get('expoId'), body: req.method === 'POST' ? await req.json() : null });
    return Response.json(replies[path] ?? { code: 404, msg: 'unknown call', data: null });
  };
  const up = createUpstream({ baseUrl: 'https://organiser.example/api', fetch, timeoutMs: 2000, keyCache: createAesKeyCache() });
  return { up, seen };
}

describe('site booking calls (docs/upstream.md "Site booking")', () => {
  it('lists types and dates, reading loosely and dropping rows that do not fit', async () => {
    const { up, seen } = fakeUpstream({
      [SitePath.selectSiteTypeList]: { code: 200, msg: 'success', data: [{ id: '501', name: 'Tour', note: null }, { id: -1, name: 'bad' }, { name: 'no id' }, 'junk'] },
      [SitePath.selectSiteDateList]: { code: 200, msg: 'success', data: [{ id: 5101, date: '2026-12-01', timeRange: '09:00-10:00', capacity: '20', booked: 3 }, { id: 5102, date: '', capacity: 1, booked: 0 }] },
    });
    expect(await up.selectSiteTypeList({ expoId: 1308 })).toMatchObject({ ok: true, data: [{ id: 501, name: 'Tour', note: '' }] });
    expect(await up.selectSiteDateList({ expoId: 1308, typeId: 501 })).toMatchObject({ ok: true, data: [{ id: 5101, date: '2026-12-01', timeRange: '09:00-10:00', capacity: 20, booked: 3 }] });
    expect(seen.map((s) => [s.method, s.path, s.expoId])).toEqual([
      ['GET', SitePath.selectSiteTypeList, '1308'],
      ['GET', SitePath.selectSiteDateList, '1308'],
    ]);
    expect(seen[1]?.query).toEqual({ expoId: '1308', typeId: '501' });
  });

  it('a success whose data is not a list reads as an empty list', async () => {
    const { up } = fakeUpstream({ [SitePath.selectSiteTypeList]: { code: 200, msg: 'success', data: null }, [SitePath.selectExpoUserSiteId]: { code: 200, msg: '', data: { not: 'a list' } } });
    expect(await up.selectSiteTypeList({ expoId: 1308 })).toMatchObject({ ok: true, data: [] });
    expect(await up.selectExpoUserSiteId({ expoId: 1308, euCode: 'A' })).toMatchObject({ ok: true, data: [] });
  });

  it('books with a plain JSON body; 20201 and 20202 are refusals with their code', async () => {
    for (const [code, expected] of [
      [200, { ok: true, data: { id: 7 } }],
      [SiteCode.FULL, { ok: false, kind: 'refused', code: 20201 }],
      [SiteCode.ALREADY_BOOKED, { ok: false, kind: 'refused', code: 20202 }],
    ] as const) {
      const { up, seen } = fakeUpstream({ [SitePath.addExpoUserSite]: { code, msg: 'm', data: code === 200 ? { id: '7' } : null } });
      expect(await up.addExpoUserSite({ expoId: 1308, euCode: 'IWHBZIMYEOZETLFI', siteDateId: 5101 })).toMatchObject(expected);
      expect(seen[0]).toMatchObject({ method: 'POST', path: SitePath.addExpoUserSite, expoId: '1308', body: { expoId: 1308, euCode: 'IWHBZIMYEOZETLFI', siteDateId: 5101 } });
    }
  });

  it('a booking success without an id is bad data (thrown), never a half success', async () => {
    const { up } = fakeUpstream({ [SitePath.addExpoUserSite]: { code: 200, msg: 'success', data: { id: 'x' } } });
    await expect(up.addExpoUserSite({ expoId: 1308, euCode: 'A', siteDateId: 1 })).rejects.toMatchObject({ kind: 'bad-data' });
  });

  it('cancels with a plain JSON body', async () => {
    const { up, seen } = fakeUpstream({ [SitePath.deleteExpoUserSite]: { code: 200, msg: 'success', data: null } });
    expect(await up.deleteExpoUserSite({ expoId: 1308, euCode: 'A', id: 9 })).toMatchObject({ ok: true });
    expect(seen[0]?.body).toEqual({ expoId: 1308, euCode: 'A', id: 9 });
  });
});
