import { env } from 'cloudflare:test';
import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import { createApp } from '../../functions/app';
import { UpstreamError, type Upstream } from '../../functions/upstream';
import type { AppEnv } from '../../functions/env';
import { guard, LOGIN_FAILED_COOKIE, OPENID_COOKIE, type WxPort } from '../../functions/middleware/guard';
import { CONTACT_COOKIE, signContact } from '../../src/lib/lookup/contact-cookie';
import { encodeId } from '../../src/lib/util/ids';
import { decodeFlash, FLASH_COOKIE } from '../../src/lib/page/flash';

/**
 * The navigation guard at the edge (spec §4, §2.3) against the seeded reference upstream:
 * every rule's redirect status and Location. createApp() has no Astro: a request the guard
 * lets through ends in Hono's own 404, which is how "proceeds" shows here.
 */
const app = createApp();
const testEnv = env as unknown as AppEnv;
const ORIGIN = 'https://expo.example';
const WECHAT_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Mobile Safari/537.36 MicroMessenger/8.0.47.2560';

function get(path: string, headers: Record<string, string> = {}, e: AppEnv = testEnv) {
  return app.request(`${ORIGIN}${path}`, { headers, redirect: 'manual' }, e);
}

async function expectRedirect(res: Response, location: string) {
  expect(res.status).toBe(302);
  expect(res.headers.get('location')).toBe(location);
  expect(res.headers.get('cache-control')).toBe('no-store');
}

async function expectProceeds(res: Response) {
  // Past the guard, nothing in createApp() answers pages: Hono's 404.
  expect(res.status).toBe(404);
  expect(res.headers.get('location')).toBeNull();
}

describe('guard rules through the Worker (seeded reference upstream)', () => {
  it('auto: expo 380 home → /auto{path}, dropping code and state', async () => {
    await expectRedirect(await get('/20380/Mzgw/visitor?code=abc&state=s&f=1'), '/auto/20380/Mzgw/visitor?f=1');
    await expectRedirect(await get('/search/20380/Mzgw/visitor'), '/auto/20380/Mzgw/visitor');
    await expectProceeds(await get('/auto/20380/Mzgw/visitor'));
  });

  it('ticket-needs-contact: ticket and order pages without the vc cookie → the lookup, then back (issue 11)', async () => {
    await expectRedirect(await get('/ticket/21216/MTIxNg/visitor'), '/search/21216/MTIxNg/visitor?next=%2Fticket%2F21216%2FMTIxNg%2Fvisitor');
    await expectRedirect(await get('/orderList/21216/MTIxNg/visitor'), '/search/21216/MTIxNg/visitor?next=%2ForderList%2F21216%2FMTIxNg%2Fvisitor');
    const vc = await signContact(
      { expoId: 1216, contact: 'one@demo.test', checkType: 2 },
      testEnv.SESSION_SECRET ?? '',
    );
    await expectProceeds(await get('/ticket/21216/MTIxNg/visitor', { cookie: `${CONTACT_COOKIE}=${vc}` }));
    // a contact verified for another expo does not count
    const other = await signContact(
      { expoId: 1308, contact: 'one@demo.test', checkType: 2 },
      testEnv.SESSION_SECRET ?? '',
    );
    await expectRedirect(
      await get('/ticket/21216/MTIxNg/visitor', { cookie: `${CONTACT_COOKIE}=${other}` }),
      '/search/21216/MTIxNg/visitor?next=%2Fticket%2F21216%2FMTIxNg%2Fvisitor',
    );
    await expectRedirect(
      await get('/ticket/21216/MTIxNg/visitor', { cookie: `${CONTACT_COOKIE}=forged.value` }),
      '/search/21216/MTIxNg/visitor?next=%2Fticket%2F21216%2FMTIxNg%2Fvisitor',
    );
  });

  it('ticket-needs-contact: a proof that ran out is said on the lookup (flash), its contact filled in; another expo\'s or a forged one says nothing (issue 30)', async () => {
    const secret = testEnv.SESSION_SECRET ?? '';
    const page = '/ticketForm/21216/MTIxNg/visitor?ticketId=2';
    const to = `/search/21216/MTIxNg/visitor?next=${encodeURIComponent(page)}`;
    const flashOf = (res: Response, at = to) => {
      const raw = res.headers.getSetCookie().find((c) => c.startsWith(`${FLASH_COOKIE}=`));
      return raw ? decodeFlash(decodeURIComponent(raw.split(';')[0]?.slice(FLASH_COOKIE.length + 1) ?? ''), at) : null;
    };
    // proved 3 hours ago: past the buyer form's window too
    const old = await signContact({ expoId: 1216, contact: 'lapsed@demo.test', checkType: 2 }, secret, Date.now() - 3 * 3600_000);
    const res = await get(page, { cookie: `${CONTACT_COOKIE}=${old}` });
    await expectRedirect(res, to);
    expect(flashOf(res)).toMatchObject({ path: to, values: { checkType: '2', email: 'lapsed@demo.test' }, notice: { tone: 'info', key: 'search.proofExpired' } });
    // the ticket list reads the 10 minutes after the proof: 11 minutes on, it has lapsed there
    const eleven = await signContact({ expoId: 1216, contact: 'lapsed@demo.test', checkType: 2 }, secret, Date.now() - 11 * 60_000);
    const list = await get('/ticket/21216/MTIxNg/visitor', { cookie: `${CONTACT_COOKIE}=${eleven}` });
    expect(flashOf(list, '/search/21216/MTIxNg/visitor?next=%2Fticket%2F21216%2FMTIxNg%2Fvisitor')?.notice?.key).toBe('search.proofExpired');
    const other = await signContact({ expoId: 1308, contact: 'lapsed@demo.test', checkType: 2 }, secret, Date.now() - 3 * 3600_000);
    expect(flashOf(await get(page, { cookie: `${CONTACT_COOKIE}=${other}` }))).toBeNull();
    expect(flashOf(await get(page, { cookie: `${CONTACT_COOKIE}=forged.value` }))).toBeNull();
    expect(flashOf(await get(page))).toBeNull();
  });

  it('ended-form: expo 1042 (ended) → /form/{path}, not on a form page', async () => {
    await expectRedirect(await get('/21042/MTA0Mg/visitor'), '/form/21042/MTA0Mg/visitor');
    await expectRedirect(await get('/search/21042/MTA0Mg/visitor'), '/form/21042/MTA0Mg/visitor');
    await expectProceeds(await get('/form/21042/MTA0Mg/visitor'));
    // other ended expos render (their notice is the page's)
    await expectProceeds(await get('/22005/MjAwNQ/visitor'));
  });

  it('exhibitor-form: visitor type exhibitor on home and lookup → /form', async () => {
    await expectRedirect(await get('/22001/MjAwMQ/exhibitor'), '/form/22001/MjAwMQ/exhibitor');
    await expectRedirect(await get('/search/22001/MjAwMQ/exhibitor'), '/form/22001/MjAwMQ/exhibitor');
  });

  it('activity-proving: the generic form of a url with an activity → /proving', async () => {
    await expectRedirect(await get('/form/22001/MjAwMQ/visitor'), '/proving/22001/MjAwMQ/visitor');
    await expectProceeds(await get('/form/22002/MjAwMg/visitor'));
    await expectProceeds(await get('/proving/22001/MjAwMQ/visitor'));
  });

  it('skip-page and non-pages: landing, seat results, API, static files, POST', async () => {
    await expectProceeds(await get('/CMEF'));
    await expectProceeds(await get(`/zuoweiSuccess?userName=a&eid=${encodeId(380)}`));
    expect((await get('/api/health')).status).toBe(200);
    await expectProceeds(await get('/20380/Mzgw/logo.jpg'));
    const post = await app.request(`${ORIGIN}/20380/Mzgw/visitor`, { method: 'POST', redirect: 'manual' }, testEnv);
    expect(post.status).toBe(404);
  });

  it('the reference upstream has no messaging app: no OAuth, no silent login, pages render', async () => {
    await expectProceeds(await get('/22001/MjAwMQ/visitor', { 'user-agent': WECHAT_UA }));
    await expectProceeds(await get('/22001/MjAwMQ/visitor?code=abc', { 'user-agent': WECHAT_UA }));
  });

  it('upstream down: the request proceeds, never an error page (spec §2.3)', async () => {
    const down = new Hono<{ Bindings: AppEnv }>();
    const fail = () => Promise.reject(new UpstreamError('network', 'connection refused', { path: '/x' }));
    const upstream = new Proxy({} as Upstream, { get: () => fail });
    const wx: WxPort = { appId: fail, silentLogin: fail };
    down.use(guard({ upstream: () => upstream, wx: () => wx }));
    down.get('*', (c) => c.text('page'));
    for (const path of ['/form/22001/MjAwMQ/visitor', '/21042/MTA0Mg/visitor', '/22001/MjAwMQ/visitor']) {
      const res = await down.request(
        `${ORIGIN}${path}`,
        { headers: { 'user-agent': WECHAT_UA }, redirect: 'manual' },
        testEnv,
      );
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('page');
    }
  });
});

describe('messaging-app login through the middleware (fake wx port)', () => {
  function appWith(wx: WxPort) {
    const a = new Hono<{ Bindings: AppEnv }>();
    a.use(guard({ wx: () => wx }));
    a.get('*', (c) => c.text('page'));
    return (path: string, headers: Record<string, string> = {}) =>
      a.request(`${ORIGIN}${path}`, { headers, redirect: 'manual' }, testEnv);
  }
  const cookies = (res: Response) => res.headers.getSetCookie();

  it('OAuth: inside the app without openid or code → authorisation page with scope base and the URL without code', async () => {
    const wx: WxPort = { appId: vi.fn(async () => 'wxAPP123'), silentLogin: vi.fn(async () => null) };
    const res = await appWith(wx)('/22001/MjAwMQ/visitor?f=1', { 'user-agent': WECHAT_UA });
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('location') ?? '');
    expect(to.origin + to.pathname).toBe('https://open.weixin.qq.com/connect/oauth2/authorize');
    expect(to.searchParams.get('appid')).toBe('wxAPP123');
    expect(to.searchParams.get('scope')).toBe('snsapi_base');
    expect(to.searchParams.get('redirect_uri')).toBe(`${ORIGIN}/22001/MjAwMQ/visitor?f=1`);
    expect(to.hash).toBe('#wechat_redirect');
    // an ordinary browser, or no app id: the page
    expect(await (await appWith(wx)('/22001/MjAwMQ/visitor')).text()).toBe('page');
    const noApp: WxPort = { appId: vi.fn(async () => null), silentLogin: vi.fn(async () => null) };
    expect(await (await appWith(noApp)('/22001/MjAwMQ/visitor', { 'user-agent': WECHAT_UA })).text()).toBe('page');
    // with an openid cookie: no new login
    expect(
      await (
        await appWith(wx)('/22001/MjAwMQ/visitor', { 'user-agent': WECHAT_UA, cookie: `${OPENID_COOKIE}=o1` })
      ).text(),
    ).toBe('page');
  });

  it('silent login: a user → the credential page, openid kept in a cookie', async () => {
    const wx: WxPort = {
      appId: vi.fn(async () => null),
      silentLogin: vi.fn(async () => ({ code: 1, openId: 'o1', user: 'EU1', expo: 1308, wx: 21308 })),
    };
    const res = await appWith(wx)('/21308/MTMwOA/visitor?code=c1&state=STATE');
    await expectRedirect(res, `/IEAESuccess/${encodeId(21308)}/${encodeId('EU1')}/${encodeId(1308)}/21308/?f=`);
    expect(cookies(res).some((c) => c.startsWith(`${OPENID_COOKIE}=o1;`) && /HttpOnly/i.test(c))).toBe(true);
    expect(wx.silentLogin).toHaveBeenCalledWith({ code: 'c1', expoId: 1308, fId: 21308, isUserClass: 0 });
  });

  it('silent login: openid without user → the same page without code', async () => {
    const wx: WxPort = {
      appId: vi.fn(async () => null),
      silentLogin: vi.fn(async () => ({ code: 0, openId: 'o2', user: null, expo: 2001, wx: 22001 })),
    };
    const res = await appWith(wx)('/22001/MjAwMQ/visitor?code=c1&f=1');
    await expectRedirect(res, '/22001/MjAwMQ/visitor?f=1');
    expect(cookies(res).some((c) => c.startsWith(`${OPENID_COOKIE}=o2;`))).toBe(true);
  });

  it('silent login failure clears openid and code, and stops the OAuth round from looping', async () => {
    const wx: WxPort = {
      appId: vi.fn(async () => 'wxAPP123'),
      silentLogin: vi.fn(async () => Promise.reject(new Error('down'))),
    };
    const res = await appWith(wx)('/22001/MjAwMQ/visitor?code=bad', { 'user-agent': WECHAT_UA });
    await expectRedirect(res, '/22001/MjAwMQ/visitor');
    expect(cookies(res).some((c) => c.startsWith(`${OPENID_COOKIE}=;`) && /Max-Age=0/i.test(c))).toBe(true);
    expect(cookies(res).some((c) => c.startsWith(`${LOGIN_FAILED_COOKIE}=1;`))).toBe(true);
    const next = await appWith(wx)('/22001/MjAwMQ/visitor', {
      'user-agent': WECHAT_UA,
      cookie: `${LOGIN_FAILED_COOKIE}=1`,
    });
    expect(await next.text()).toBe('page');
  });

  it.each(['//evil.com/x?eid=1308&code=1', '/\\evil.com/x?eid=1308&code=1', '//evil.com/?eid=1308&code=1'])(
    'never redirects %s to another host (issue 9 hole 11)',
    async (path) => {
      for (const wx of [
        { appId: vi.fn(async () => null), silentLogin: vi.fn(async () => ({ code: 0, openId: 'o', user: null, expo: 1308, wx: 1 })) },
        { appId: vi.fn(async () => null), silentLogin: vi.fn(async () => Promise.reject(new Error('down'))) },
      ] satisfies WxPort[]) {
        const res = await appWith(wx)(path);
        const location = res.headers.get('location');
        if (location !== null) {
          expect(location).toMatch(/^\/(?![/\\])/);
          expect(new URL(location, ORIGIN).origin).toBe(ORIGIN);
        }
      }
    },
  );

  it('exhibitors skip messaging-app login', async () => {
    const wx: WxPort = { appId: vi.fn(async () => 'wxAPP123'), silentLogin: vi.fn(async () => null) };
    const res = await appWith(wx)('/form/22001/MjAwMQ/exhibitor?code=c', { 'user-agent': WECHAT_UA });
    expect(await res.text()).toBe('page');
    expect(wx.silentLogin).not.toHaveBeenCalled();
  });
});
