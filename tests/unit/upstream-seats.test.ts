/**
 * The seat and health calls of the upstream client (functions/upstream/calls/seats.ts,
 * health.ts) against a fake organiser: where each call goes (the auth host for seats, with
 * UPSTREAM_AUTH_URL), what it sends, and that odd replies are read defensively (docs/upstream.md
 * "Records": missing, null, numbers as strings) and never crash.
 */
import { describe, expect, it } from 'vitest';
import { createUpstream } from '../../functions/upstream/client';

interface Seen {
  method: string;
  url: URL;
  expoId: string | null;
  form: FormData | null;
}

function fake(data: unknown, code: unknown = 200) {
  const seen: Seen[] = [];
  const up = createUpstream({
    baseUrl: 'https://organiser.example/api',
    authBaseUrl: 'https://auth.example/root/',
    timeoutMs: 1000,
    fetch: async (req) => {
      const form = req.method === 'POST' ? await req.formData() : null;
      seen.push({ method: req.method, url: new URL(req.url), expoId: req.headers.get('expoId'), form });
      return new Response(JSON.stringify({ code, msg: 'm', data }), { headers: { 'content-type': 'application/json' } });
    },
  });
  return { up, seen };
}

describe('seat calls', () => {
  it('go to {UPSTREAM_AUTH_URL}/auth with the expoId header and the contract params', async () => {
    const { up, seen } = fake(['A', 'B']);
    await up.getUserCompanyList({ expoId: 1128, keywords: '华信', type: 1, userName: '张伟' });
    await up.pageActivityType({ expoId: 1128 });
    await up.selectUserSeat({ expoId: 1128, userName: '王芳', typeId: 1132 });
    expect(seen.map((s) => `${s.method} ${s.url.origin}${s.url.pathname}`)).toEqual([
      'GET https://auth.example/root/auth/getUserCompanyList',
      'GET https://auth.example/root/auth/pageActivityType',
      'GET https://auth.example/root/auth/selectUserSeat',
    ]);
    expect(seen[0]?.expoId).toBe('1128');
    expect(Object.fromEntries(seen[0]?.url.searchParams ?? [])).toEqual({ expoId: '1128', keywords: '华信', type: '1', userName: '张伟' });
    expect(Object.fromEntries(seen[1]?.url.searchParams ?? [])).toEqual({ expoId: '1128', activityName: '', classification: '10' });
    expect(Object.fromEntries(seen[2]?.url.searchParams ?? [])).toEqual({ expoId: '1128', userName: '王芳', phone: '', typeId: '1132' });
  });

  it('without an auth host, use UPSTREAM_URL', async () => {
    const seen: string[] = [];
    const up = createUpstream({
      baseUrl: 'https://organiser.example',
      timeoutMs: 1000,
      fetch: async (req) => {
        seen.push(new URL(req.url).pathname);
        return Response.json({ code: 200, msg: null, data: { count: '2' } });
      },
    });
    expect(await up.checkUserByName({ expoId: 1, userName: 'x' })).toMatchObject({ ok: true, data: { count: 2 } });
    expect(seen).toEqual(['/auth/checkUserByName']);
  });

  it('read odd replies defensively', async () => {
    const many = Array.from({ length: 30 }, (_, i) => `Co ${i}`);
    const list = await fake([' A ', 'A', null, 7, ...many]).up.getUserCompanyList({ expoId: 1, keywords: 'Co', type: 2 });
    expect(list.ok && list.data.slice(0, 3)).toEqual(['A', 'Co 0', 'Co 1']);
    expect(list.ok && list.data.length).toBe(20);
    expect(await fake({ not: 'a list' }).up.getUserCompanyList({ expoId: 1, keywords: 'Co', type: 2 })).toMatchObject({ ok: true, data: [] });
    expect(await fake(null).up.checkUserByName({ expoId: 1, userName: 'x' })).toMatchObject({ data: { count: 0 } });
    expect(await fake({ count: -3 }).up.checkUserByName({ expoId: 1, userName: 'x' })).toMatchObject({ data: { count: 0 } });
    expect(await fake({ userName: 'a', company: 'b' }).up.getUserSeatDetail({ expoId: 1, userName: 'a', companyName: 'b' })).toMatchObject({ ok: true, data: null });
    expect(await fake({ userName: 'a', company: null, seat: 12 }).up.getUserSeatDetail({ expoId: 1, userName: 'a', companyName: 'b' })).toMatchObject({
      data: { userName: 'a', company: '', seat: '12' },
    });
    expect(await fake([{ id: '5', activityName: 'X' }, { id: null, activityName: 'Y' }, { id: 6 }, 'junk']).up.pageActivityType({ expoId: 1 })).toMatchObject({
      data: [{ id: 5, activityName: 'X' }],
    });
    expect(await fake([{ userName: 'a', seat: 'S', seatNumber: 3 }, { userName: 'b' }]).up.selectUserSeat({ expoId: 1, userName: 'a', typeId: 1 })).toMatchObject({
      data: [{ id: null, userName: 'a', company: '', seat: 'S', seatNumber: '3' }],
    });
    for (const odd of [null, {}, { image: [] }, { image: [{ ImgUrl: 'x' }] }, { image: [{ ImgUrl: [42] }] }]) {
      expect(await fake(odd).up.getImage({ expoId: 1, imageName: 'seat' })).toMatchObject({ ok: true, data: { url: null } });
    }
    expect(await fake({ image: [{ ImgUrl: ['https://cdn.example/m.png'] }] }).up.getImage({ expoId: 1, imageName: 'seat' })).toMatchObject({
      data: { url: 'https://cdn.example/m.png' },
    });
  });

  it('a refusal is a value with its message', async () => {
    expect(await fake(null, '500').up.getUserSeatDetail({ expoId: 1, userName: 'a', companyName: 'b' })).toEqual({ ok: false, kind: 'refused', code: 500, msg: 'm' });
  });
});

describe('health calls', () => {
  it('upload multipart to /custom/health/uploadEpidemicPreventionInfo; delete with DELETE', async () => {
    const { up, seen } = fake({ id: '9', url: 'https://x/y.jpg' });
    const r = await up.uploadHealth({ expoId: 2012, euCode: 'ABC', kind: 2, file: new Blob([new Uint8Array([0xff, 0xd8, 0xff])]), fileName: 'a.jpg' });
    expect(r).toMatchObject({ ok: true, data: { id: 9, url: 'https://x/y.jpg' } });
    expect(seen[0]?.url.pathname).toBe('/api/custom/health/uploadEpidemicPreventionInfo');
    expect(seen[0]?.form?.get('kind')).toBe('2');
    expect(seen[0]?.form?.get('euCode')).toBe('ABC');
    expect(seen[0]?.form?.get('file')).toBeInstanceOf(Blob);
    const d = fake(null);
    expect(await d.up.deleteHealth({ expoId: 2012, euCode: 'ABC', id: 9 })).toMatchObject({ ok: true });
    expect(d.seen[0]?.method).toBe('DELETE');
    expect(Object.fromEntries(d.seen[0]?.url.searchParams ?? [])).toEqual({ expoId: '2012', euCode: 'ABC', id: '9' });
  });

  it('list drops rows without an id or a known kind', async () => {
    const { up } = fake([{ id: 1, kind: '3', url: 'u', createTime: 't' }, { id: 2, kind: 7 }, { kind: 1 }, null]);
    expect(await up.listHealth({ expoId: 1, euCode: 'A' })).toMatchObject({ ok: true, data: [{ id: 1, kind: 3, url: 'u', createTime: 't' }] });
    expect(await fake('nope').up.listHealth({ expoId: 1, euCode: 'A' })).toMatchObject({ ok: true, data: [] });
  });
});
