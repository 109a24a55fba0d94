import { describe, expect, it } from 'vitest';
import { encodeId } from '../../src/lib/ids';
import { matchRoute } from '../../src/lib/routes';

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
      screen: 'success',
      variant: { name: 'IEAE' },
      params: { urlId: 10542, euCode: 'AB12cd34EF56', expoId: 1308, fId: 10542 },
    });
    expect(matchRoute(`/success/${encodeId(1)}/${encodeId('X1')}/${eid}/1`)).toMatchObject({ screen: 'success', variant: null });
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
