import { describe, expect, it } from 'vitest';
import { encodeId } from '../../src/lib/util/ids';
import { matchQrImagePath, matchRoute, parsePathParams, qrImagePath, routePath, type PathIds, type RouteMatch, type RouteTarget } from '../../src/lib/core/routes';
import { ALL_VARIANTS } from '../../src/lib/core/variants';

const eid = encodeId(1308);

describe('routes (spec §2.3)', () => {
  it('resolves per-event lookups from the variants table', () => {
    const m = matchRoute(`/IEAESearch/10542/${eid}/visitor`);
    expect(m?.screen).toBe('search');
    expect(m?.variant?.expoId).toBe(1308);
    expect(m && 'params' in m && m.params).toEqual({ fId: 10542, expoId: 1308, eid, ty: 'visitor' });
  });

  it('resolves the generic lookup, list and home', () => {
    expect(matchRoute(`/search/1/${eid}/visitor`)).toMatchObject({ screen: 'search', variant: null });
    expect(matchRoute(`/applyList/1/${eid}/`)).toMatchObject({ screen: 'applyList', params: { ty: '' } });
    expect(matchRoute(`/1/${eid}/exhibitor`)).toMatchObject({ screen: 'home', params: { fId: 1, expoId: 1308, ty: 'exhibitor' } });
  });

  it('resolves credential routes with encoded ids and a plain fId', () => {
    const path = `/IEAESuccess/${encodeId(10542)}/${encodeId('AB12cd34EF56')}/${eid}/10542/`;
    expect(matchRoute(path)).toMatchObject({
      screen: 'credential',
      variant: { name: 'IEAE' },
      params: { urlId: 10542, euCode: 'AB12cd34EF56', expoId: 1308, fId: 10542 },
    });
    expect(matchRoute(`/success/${encodeId(1)}/${encodeId('X1')}/${eid}/1`)).toMatchObject({ screen: 'credential', variant: null });
  });

  it('resolves form routes, including a variant\'s extra forms', () => {
    expect(matchRoute('/JakartaSupplement/1/MTE3OA/visitor')).toMatchObject({ screen: 'form', route: 'JakartaSupplement' });
    expect(matchRoute('/form/1/x/y')).toMatchObject({ screen: 'form', variant: null, rest: ['1', 'x', 'y'] });
  });

  it.each([
    '/',
    '/NopeSearch/1/MTMwOA/visitor',
    '/IEAESearch/abc/MTMwOA/visitor',
    '/IEAESearch/1/!!/visitor',
    '/IEAESearch/1/MTMwOA/visitor/extra',
    '/IEAESearch/1/MTMwOA/<script>',
    `/IEAESuccess/${encodeId(1)}/${encodeId('bad code!')}/${eid}/1`,
    `/IEAESuccess/${encodeId(1)}/${encodeId('X')}/${eid}/notdecimal`,
    '/%E0%A4%A',
    '/search/0/MTMwOA/visitor',
  ])('%s is not found', (path) => {
    expect(matchRoute(path)).toBeNull();
  });
});

describe('routePath: the inverse of matchRoute (issue 10, one place for URL shapes)', () => {
  const idsCases: PathIds[] = [
    { fId: 21308, expoId: 1308, ty: 'visitor' },
    { fId: 10542, expoId: 1308, ty: '' },
    { fId: 1, expoId: 999999999, ty: 'ex_hi-bitor' },
  ];
  const roundTrip = (t: RouteTarget) => {
    const path = routePath(t);
    const m = matchRoute(new URL(path, 'https://x.example').pathname);
    expect(m, `${path} resolves`).not.toBeNull();
    return { path, m: m as RouteMatch };
  };

  it('every variant lookup, credential and form route, and every generic screen, comes back as itself', () => {
    for (const params of idsCases) {
      for (const variant of [null, ...ALL_VARIANTS]) {
        const search = roundTrip({ screen: 'search', variant, params });
        expect(search.m).toMatchObject({ screen: 'search', variant, params: { fId: params.fId, expoId: params.expoId, ty: params.ty } });
        const credential = { urlId: params.fId, euCode: 'AB12cd_-', expoId: params.expoId, fId: params.fId };
        expect(roundTrip({ screen: 'credential', variant, params: credential }).m).toEqual({ screen: 'credential', variant, params: credential });
        for (const route of variant ? [variant.form, ...variant.extraForms] : ['form', 'proving']) {
          const { path, m } = roundTrip({ screen: 'form', route, params });
          expect(m, path).toMatchObject({ screen: 'form', variant, route });
          if (m.screen === 'form') expect(parsePathParams(m.rest), path).toMatchObject(params);
        }
      }
      expect(roundTrip({ screen: 'applyList', params }).m).toMatchObject({ screen: 'applyList', params });
      expect(roundTrip({ screen: 'home', params }).m).toMatchObject({ screen: 'home', params });
      expect(roundTrip({ screen: 'home', params, auto: true }).m).toMatchObject({ screen: 'home', params, auto: true });
    }
    for (const which of ['ticket', 'ticketForm', 'ticketSuccess', 'orderList', 'orderDetails'] as const) {
      for (const params of idsCases) expect(roundTrip({ screen: 'ticket', which, params }).m).toMatchObject({ screen: 'ticket', which, params });
    }
    expect(roundTrip({ screen: 'seat', params: idsCases[0]! }).m).toMatchObject({ screen: 'seat', params: idsCases[0] });
    expect(roundTrip({ screen: 'seatResult', which: 'zuowei' }).m).toEqual({ screen: 'seatResult', variant: null, which: 'zuowei' });
    expect(roundTrip({ screen: 'seatResult', which: 'yejinji' }).m).toEqual({ screen: 'seatResult', variant: null, which: 'yejinji' });
    expect(roundTrip({ screen: 'landing', which: 'register' }).m).toEqual({ screen: 'landing', variant: null, which: 'register' });
    expect(roundTrip({ screen: 'landing', which: 'fashion' }).m).toEqual({ screen: 'landing', variant: null, which: 'fashion' });
  });

  it('a matched path rebuilds to the same canonical path', () => {
    for (const path of ['/IEAESearch/10542/MTMwOA/visitor', '/search/21216/MTIxNg/visitor', '/applyList/21216/MTIxNg/visitor', '/21308/MTMwOA/visitor', '/auto/20380/Mzgw/visitor']) {
      const m = matchRoute(path);
      if (!m || !('params' in m) || m.screen === 'credential') throw new Error(`${path} should match a screen with ids`);
      const target: RouteTarget =
        m.screen === 'search' ? { screen: 'search', variant: m.variant, params: m.params }
        : m.screen === 'applyList' ? { screen: 'applyList', params: m.params }
        : { screen: 'home', params: m.params, ...(m.screen === 'home' && m.auto ? { auto: true as const } : {}) };
      expect(routePath(target)).toBe(path);
    }
  });

  it('a variant credential ends in "/" (spec §2.1 …/{fId}/?f=); the generic one does not', () => {
    const params = { urlId: 10542, euCode: 'A1', expoId: 1308, fId: 10542 };
    expect(routePath({ screen: 'credential', variant: ALL_VARIANTS.find((v) => v.name === 'IEAE') ?? null, params })).toBe('/IEAESuccess/MTA1NDI/QTE/MTMwOA/10542/');
    expect(routePath({ screen: 'credential', variant: null, params })).toBe('/success/MTA1NDI/QTE/MTMwOA/10542');
  });
});

describe('qrImagePath: the credential QR image carries the credential segments only (issue 13)', () => {
  const cases = [
    { urlId: 21308, euCode: 'IWHBZIMYEOZETLFI', expoId: 1308, fId: 21308 },
    { urlId: 1, euCode: 'AB12cd_-', expoId: 999999999, fId: 10542 },
  ];
  it('round-trips through matchQrImagePath, with or without ?save=1', () => {
    for (const params of cases) {
      for (const save of [false, true]) {
        const url = new URL(qrImagePath(params, { save }), 'https://x.example');
        expect(matchQrImagePath(url.pathname), url.href).toEqual(params);
        expect(url.searchParams.get('save')).toBe(save ? '1' : null);
      }
    }
  });
  it('uses the same encoded segments as the credential page', () => {
    const params = cases[0]!;
    const page = routePath({ screen: 'credential', variant: null, params });
    expect(qrImagePath(params)).toBe(`${page.replace(/^\/success/, '/qr')}.png`);
  });
  it('rejects anything else', () => {
    for (const path of ['/qr/MjEzMDg/QUJD/MTMwOA/21308', '/qr/MjEzMDg/QUJD/MTMwOA/21308.svg', '/qr/MjEzMDg/QUJD/MTMwOA/21308/x.png', '/qr/MjEzMDg/%2F%2F/MTMwOA/21308.png', '/qr/MjEzMDg/QUJD/MTMwOA/0.png', '/qr/x/QUJD/MTMwOA/21308.png']) {
      expect(matchQrImagePath(path), path).toBeNull();
    }
  });
});
