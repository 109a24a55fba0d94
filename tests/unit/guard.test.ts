import { describe, expect, it, vi } from 'vitest';
import {
  GUARD_RULES,
  oauthUrl,
  pageInfo,
  runGuard,
  successUrl,
  type GuardFacts,
  type GuardPorts,
  type SilentLogin,
} from '../../src/lib/page/guard';
import { encodeId } from '../../src/lib/util/ids';

const ORIGIN = 'https://expo.example';
const home = (expoId: number, fId = 20000 + expoId, ty = 'visitor') => `/${fId}/${encodeId(expoId)}/${ty}`;

function facts(path: string, more: Partial<GuardFacts> = {}): GuardFacts {
  const url = new URL(path, ORIGIN);
  return {
    url,
    page: pageInfo(url),
    userAgent: 'Mozilla/5.0',
    hasVerifiedContact: false,
    openId: null,
    loginAvailable: true,
    loginFailedRecently: false,
    now: Date.UTC(2025, 0, 1),
    ...more,
  };
}

function ports(more: Partial<GuardPorts> = {}): GuardPorts {
  return {
    config: vi.fn(async () => ({ activity: false, isUserClass: 0, endTime: '2099-01-01 00:00:00' })),
    appId: vi.fn(async () => null),
    silentLogin: vi.fn(async () => null),
    ...more,
  };
}

const rule = (name: string) => {
  const r = GUARD_RULES.find((x) => x.name === name);
  if (!r) throw new Error(name);
  return r;
};

describe('pageInfo', () => {
  it('reads the home, generic and variant pages', () => {
    expect(pageInfo(new URL(home(1308, 21308), ORIGIN))).toMatchObject({
      kind: 'home',
      expoId: 1308,
      fId: 21308,
      ty: 'visitor',
      basePath: '/21308/MTMwOA/visitor',
    });
    expect(pageInfo(new URL('/search/22001/MjAwMQ/visitor', ORIGIN))).toMatchObject({
      kind: 'search',
      expoId: 2001,
      basePath: '/22001/MjAwMQ/visitor',
    });
    expect(pageInfo(new URL('/IEAESearch/21308/MTMwOA/visitor', ORIGIN))).toMatchObject({
      kind: 'other',
      expoId: 1308,
    });
    expect(pageInfo(new URL('/form/22001/MjAwMQ/visitor', ORIGIN))).toMatchObject({
      kind: 'form',
      genericForm: true,
      expoId: 2001,
    });
    expect(pageInfo(new URL('/ticket/21216/MTIxNg/visitor', ORIGIN))).toMatchObject({ kind: 'ticket', expoId: 1216 });
    expect(pageInfo(new URL('/auto/20380/Mzgw/visitor', ORIGIN))).toMatchObject({ kind: 'other', expoId: 380 });
  });

  it('channel: the id parameter; otherwise the query eid', () => {
    expect(pageInfo(new URL('/channel/MjAwMQ', ORIGIN))).toMatchObject({ expoId: 2001, noConfig: true });
    expect(pageInfo(new URL('/article?eid=MjAwMQ', ORIGIN))).toMatchObject({ expoId: 2001 });
    expect(pageInfo(new URL('/', ORIGIN)).expoId).toBeNull();
  });
});

describe('guard rules one by one (spec §4, §2.3)', () => {
  it('skip-page: landing, seat and urgent-query success pages', async () => {
    for (const path of [
      '/CMEF',
      `/zuoweiSuccess?userName=a&eid=${encodeId(380)}`,
      `/successYeJinJi?expoId=1&eid=${encodeId(380)}`,
    ]) {
      const f = facts(path);
      expect(rule('skip-page').when(f)).toBe(true);
      expect(await runGuard(f, ports())).toMatchObject({ kind: 'proceed', rule: 'skip-page' });
    }
  });

  it('no-expo: pages without an expo proceed', async () => {
    expect(await runGuard(facts('/'), ports())).toMatchObject({ kind: 'proceed', rule: 'no-expo' });
  });

  it('ticket-needs-contact: ticket and order pages without the verified contact go to the lookup and back (issue 11)', async () => {
    for (const route of ['ticket', 'ticketForm', 'order', 'orderList', 'orderDetails', 'ticketSuccess']) {
      const out = await runGuard(facts(`/${route}/21216/MTIxNg/visitor?orderNo=T1`), ports());
      expect(out).toMatchObject({
        kind: 'redirect',
        location: `/search/21216/MTIxNg/visitor?next=${encodeURIComponent(`/${route}/21216/MTIxNg/visitor?orderNo=T1`)}`,
        rule: 'ticket-needs-contact',
      });
    }
    expect(rule('ticket-needs-contact').when(facts('/ticket/21216/MTIxNg/visitor', { hasVerifiedContact: true }))).toBe(
      false,
    );
  });

  it('ticket-needs-contact: a proof that ran out is said on the lookup, its contact filled in; without one, nothing is said (issue 30)', async () => {
    const page = '/ticketForm/21216/MTIxNg/visitor?ticketId=2';
    const lapsed = await runGuard(facts(page, { lapsed: { expoId: 1216, contact: '+66812345678', checkType: 1, areaCode: '+66' } }), ports());
    expect(lapsed).toMatchObject({
      kind: 'redirect',
      location: `/search/21216/MTIxNg/visitor?next=${encodeURIComponent(page)}`,
      notice: { key: 'search.proofExpired', values: { checkType: '1', areaCode: '+66', phone: '812345678' } },
    });
    const none = await runGuard(facts(page), ports());
    expect(none).toMatchObject({ kind: 'redirect' });
    expect(none.kind === 'redirect' ? none.notice : 'proceed').toBeUndefined();
  });

  it('auto: expo 380 on the home screen and its generic lookup, dropping code and state', async () => {
    const out = await runGuard(facts(`${home(380)}?code=x&state=y&f=1`, { loginAvailable: false }), ports());
    expect(out).toMatchObject({ kind: 'redirect', location: '/auto/20380/Mzgw/visitor?f=1', rule: 'auto' });
    expect(await runGuard(facts('/search/20380/Mzgw/visitor'), ports())).toMatchObject({
      location: '/auto/20380/Mzgw/visitor',
    });
    expect(rule('auto').when(facts('/auto/20380/Mzgw/visitor'))).toBe(false);
    expect(rule('auto').when(facts(home(2001)))).toBe(false);
  });

  describe('silent-login', () => {
    const login = (r: SilentLogin | null) => ports({ silentLogin: vi.fn(async () => r) });
    const base: SilentLogin = { code: 0, openId: 'o1', user: null, expo: 2001, wx: 22001 };

    it('applies only with a code, without an openid, not for exhibitors, and only when the upstream has the calls', () => {
      const r = rule('silent-login');
      expect(r.when(facts(`${home(2001)}?code=c`))).toBe(true);
      expect(r.when(facts(`${home(2001)}?code=c`, { openId: 'o' }))).toBe(false);
      expect(r.when(facts(`${home(2001, 22001, 'exhibitor')}?code=c`))).toBe(false);
      expect(r.when(facts(`${home(2001)}?code=c`, { loginAvailable: false }))).toBe(false);
      expect(r.when(facts(home(2001)))).toBe(false);
    });

    it('failure clears openid and code and redirects to the base path', async () => {
      for (const p of [login(null), ports({ silentLogin: vi.fn(async () => Promise.reject(new Error('down'))) })]) {
        const out = await runGuard(facts(`${home(2001)}?code=c&state=s&f=2`), p);
        expect(out).toMatchObject({
          kind: 'redirect',
          location: '/22001/MjAwMQ/visitor?f=2',
          openId: null,
          loginFailed: true,
          rule: 'silent-login',
        });
      }
    });

    it('result 1 with a user goes to the credential page', async () => {
      const out = await runGuard(
        facts(`${home(1308, 21308)}?code=c`),
        login({ code: 1, openId: 'o1', user: 'EU1', expo: 1308, wx: 21308 }),
      );
      expect(out).toMatchObject({
        kind: 'redirect',
        location: `/IEAESuccess/${encodeId(21308)}/${encodeId('EU1')}/${encodeId(1308)}/21308/?f=`,
        openId: 'o1',
      });
    });

    // spec §4 "If status equals 1 the user is pushed to the success URL": status = the reply's code 1, succUrl = successfulUrl.
    it('result 1 with a user goes to the organiser\'s http(s) successfulUrl when the config has one', async () => {
      const withUrl = (successfulUrl: string | null) =>
        ports({
          silentLogin: vi.fn(async () => ({ code: 1, openId: 'o1', user: 'EU1', expo: 1308, wx: 21308 })),
          config: vi.fn(async () => ({ activity: false, isUserClass: 0, endTime: null, successfulUrl })),
        });
      const out = await runGuard(facts(`${home(1308, 21308)}?code=c`), withUrl(' https://expo.example.org/thanks?x=1 '));
      expect(out).toMatchObject({ kind: 'redirect', location: 'https://expo.example.org/thanks?x=1', openId: 'o1', external: true });
      for (const bad of [null, '', 'javascript:alert(1)', '//evil.example/x', 'ftp://x.example/', '/relative']) {
        const normal = await runGuard(facts(`${home(1308, 21308)}?code=c`), withUrl(bad));
        expect(normal).toMatchObject({ kind: 'redirect', location: `/IEAESuccess/${encodeId(21308)}/${encodeId('EU1')}/${encodeId(1308)}/21308/?f=` });
        expect(normal.kind === 'redirect' && normal.external).toBeUndefined();
      }
      // code 0 (status not 1) never goes to the success URL
      const zero = ports({
        silentLogin: vi.fn(async () => ({ code: 0, openId: 'o1', user: 'EU1', expo: 1308, wx: 21308 })),
        config: vi.fn(async () => ({ activity: false, isUserClass: 0, endTime: null, successfulUrl: 'https://expo.example.org/thanks' })),
      });
      expect(await runGuard(facts(`${home(1308, 21308)}?code=c`), zero)).toMatchObject({ location: '/21308/MTMwOA/visitor' });
    });

    it('successUrl keeps only absolute http(s) URLs', () => {
      expect(successUrl('http://a.example/x')).toBe('http://a.example/x');
      expect(successUrl('HTTPS://A.example')).toBe('https://a.example/');
      expect(successUrl(`https://a.example/${'x'.repeat(2100)}`)).toBeNull();
      expect(successUrl('data:text/html,hi')).toBeNull();
      expect(successUrl(undefined)).toBeNull();
    });

    it('openid without user keeps the openid and drops the code', async () => {
      const out = await runGuard(facts(`${home(2001)}?code=c&f=1`), login(base));
      expect(out).toMatchObject({ kind: 'redirect', location: '/22001/MjAwMQ/visitor?f=1', openId: 'o1' });
    });
  });

  describe('oauth', () => {
    const wechat = 'Mozilla/5.0 (Linux; Android 14) MicroMessenger/8.0.47';
    it('only inside the messaging app, without openid or code, and when the upstream gives an app id', async () => {
      const p = ports({ appId: vi.fn(async () => 'wx123') });
      const out = await runGuard(facts(`${home(2001)}?f=1`, { userAgent: wechat }), p);
      expect(out).toMatchObject({ kind: 'redirect', rule: 'oauth' });
      expect(out.kind === 'redirect' && out.location).toBe(oauthUrl('wx123', `${ORIGIN}/22001/MjAwMQ/visitor?f=1`));
      expect(out.kind === 'redirect' && new URL(out.location).searchParams.get('scope')).toBe('snsapi_base');
      expect(await runGuard(facts(home(2001)), p)).toMatchObject({ kind: 'proceed' });
      expect(await runGuard(facts(home(2001), { userAgent: wechat, openId: 'o' }), p)).toMatchObject({
        kind: 'proceed',
      });
      expect(await runGuard(facts(home(2001), { userAgent: wechat, loginFailedRecently: true }), p)).toMatchObject({
        kind: 'proceed',
      });
      expect(await runGuard(facts(home(2001, 22001, 'exhibitor'), { userAgent: wechat }), p)).not.toMatchObject({
        rule: 'oauth',
      });
    });

    it('no app id (or a failing upstream, or an odd one): the page renders', async () => {
      for (const appId of [
        async () => null,
        async () => Promise.reject(new Error('down')),
        async () => 'x" onload=1',
      ]) {
        expect(await runGuard(facts(home(2001), { userAgent: wechat }), ports({ appId: vi.fn(appId) }))).toMatchObject({
          kind: 'proceed',
        });
      }
    });
  });

  it('ended-form: expo 1042 past its end goes to /form/{path} unless on a form', async () => {
    const ended = ports({
      config: vi.fn(async () => ({ activity: false, isUserClass: 0, endTime: '2024-01-01 00:00:00' })),
    });
    expect(await runGuard(facts(home(1042)), ended)).toMatchObject({
      kind: 'redirect',
      location: '/form/21042/MTA0Mg/visitor',
      rule: 'ended-form',
    });
    expect(rule('ended-form').when(facts('/form/21042/MTA0Mg/visitor'))).toBe(false);
    expect(await runGuard(facts(home(1042)), ports())).toMatchObject({ kind: 'proceed' });
  });

  it('exhibitor-form: exhibitor type on home and lookup goes to /form', async () => {
    expect(await runGuard(facts(home(2001, 22001, 'exhibitor')), ports())).toMatchObject({
      location: '/form/22001/MjAwMQ/exhibitor',
      rule: 'exhibitor-form',
    });
    expect(await runGuard(facts('/search/22001/MjAwMQ/exhibitor'), ports())).toMatchObject({
      location: '/form/22001/MjAwMQ/exhibitor',
    });
    expect(rule('exhibitor-form').when(facts('/form/22001/MjAwMQ/exhibitor'))).toBe(false);
  });

  it('activity-proving: the generic form goes to /proving when the config has an activity', async () => {
    const withActivity = ports({ config: vi.fn(async () => ({ activity: true, isUserClass: 0, endTime: null })) });
    expect(await runGuard(facts('/form/22001/MjAwMQ/visitor'), withActivity)).toMatchObject({
      location: '/proving/22001/MjAwMQ/visitor',
      rule: 'activity-proving',
    });
    expect(await runGuard(facts('/form/22002/MjAwMg/visitor'), ports())).toMatchObject({ kind: 'proceed' });
    expect(rule('activity-proving').when(facts('/IEAEForm/21308/MTMwOA/visitor'))).toBe(false);
    // a failing config load: the page renders (spec §2.3)
    expect(
      await runGuard(
        facts('/form/22001/MjAwMQ/visitor'),
        ports({ config: vi.fn(async () => Promise.reject(new Error('down'))) }),
      ),
    ).toMatchObject({ kind: 'proceed' });
  });

  it('loads no config where none is needed', async () => {
    const p = ports();
    await runGuard(facts(home(2001)), p);
    expect(p.config).not.toHaveBeenCalled();
  });
});
