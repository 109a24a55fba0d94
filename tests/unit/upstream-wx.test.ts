/**
 * The messaging-app calls on the upstream core (docs/upstream.md "Messaging app"): the paths under
 * `{UPSTREAM_URL}/wx`, the `expoId` header, the replies read loosely, and an HTTP error or a reply
 * that is not an envelope read as "no login" (null), while a timeout is thrown like every call's.
 */
import { describe, expect, it } from 'vitest';
import { wxCalls } from '../../functions/upstream/calls/wx';
import { createCore } from '../../functions/upstream/core';
import { isUpstreamError } from '../../functions/upstream/errors';

function port(answer: (req: Request) => Response | Promise<Response>, timeoutMs = 1000) {
  const seen: Request[] = [];
  const wx = wxCalls(
    createCore({
      baseUrl: 'https://org.example/',
      timeoutMs,
      fetch: async (req) => {
        seen.push(req);
        return answer(req);
      },
    }),
  );
  return { wx, seen };
}
const envelope = (code: number, data: unknown) => Response.json({ code, msg: 'm', data });

describe('messaging-app calls', () => {
  it('getwxAppId: GET {UPSTREAM_URL}/wx/getwxAppId with the expoId header and param', async () => {
    const { wx, seen } = port(() => envelope(200, ' wxAPP1 '));
    expect(await wx.appId(1308)).toBe('wxAPP1');
    const url = new URL(seen[0]!.url);
    expect(url.origin + url.pathname).toBe('https://org.example/wx/getwxAppId');
    expect(url.searchParams.get('expoId')).toBe('1308');
    expect(seen[0]!.headers.get('expoId')).toBe('1308');
  });

  it('getOpenId: sends code, eId, fId, isUserClass (empty when unknown) and reads the login loosely', async () => {
    const { wx, seen } = port(() => envelope(200, { code: '1', openId: 'o-1', user: 'EUCODE', expo: 1308, wx: '21308' }));
    const login = await wx.silentLogin({ code: 'c0de', expoId: 1308, fId: null, isUserClass: 2 });
    expect(login).toEqual({ code: 1, openId: 'o-1', user: 'EUCODE', expo: 1308, wx: 21308 });
    const q = new URL(seen[0]!.url).searchParams;
    expect(new URL(seen[0]!.url).pathname).toBe('/wx/getOpenId');
    expect([q.get('code'), q.get('eId'), q.get('fId'), q.get('isUserClass')]).toEqual(['c0de', '1308', '', '2']);
  });

  it('a refusal, an HTTP error or a body that is not an envelope is null', async () => {
    expect(await port(() => envelope(500, 'x')).wx.appId(1)).toBeNull();
    expect(await port(() => new Response('no', { status: 502 })).wx.appId(1)).toBeNull();
    expect(await port(() => Response.json({ nope: true })).wx.silentLogin({ code: 'c', expoId: 1, fId: 1, isUserClass: null })).toBeNull();
    expect(await port(() => envelope(200, 'not an object')).wx.silentLogin({ code: 'c', expoId: 1, fId: 1, isUserClass: null })).toBeNull();
  });

  it('no reply within the timeout is thrown, as for every call', async () => {
    const { wx } = port(() => new Promise<Response>(() => undefined), 20);
    const e = await wx.appId(1).catch((x: unknown) => x);
    expect(isUpstreamError(e) && e.kind).toBe('timeout');
  });
});
