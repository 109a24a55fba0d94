/**
 * The haisi route family (spec §2.3 routes, §4 guard, §7 calls; docs/upstream.md "Haisi"): the
 * eight routes, the incomplete-link page, the links the family builds, the forced language and
 * the calls it makes.
 */
import { describe, expect, it } from 'vitest';
import { encodeId } from '../../src/lib/util/ids';
import { matchRoute, routePath } from '../../src/lib/core/routes';
import { ALL_VARIANTS, variantByExpoId, variantByName, variantByRoute, type Variant } from '../../src/lib/core/variants';
import { lookupCall, pageRouteLang, registerCall, routeLang } from '../../src/lib/expo/haisi';
import { formPath, parseSuccessParams, successPath } from '../../src/lib/lookup/lookup';
import { resolveFormPage } from '../../src/lib/form/page';
import { applyConfig, configKey } from '../../src/lib/page/load';
import { pageInfo } from '../../src/lib/page/guard';
import { loadIncomplete } from '../../src/lib/screens/incomplete';
import { page } from './screens-helpers';

const HAISI_EXPO = 2616;
const eid = encodeId(HAISI_EXPO);
const ids = `22616/${eid}/visitor`;
const must = (name: string): Variant => {
  const v = variantByName(name);
  if (!v) throw new Error(name);
  return v;
};
const zh = must('haisi');
const en = must('haisiEn');

describe('the haisi routes (spec §2.3)', () => {
  it.each([
    ['haisi', 'search', 'haisi'],
    ['haisiEn', 'search', 'haisiEn'],
    ['haisiSearch', 'search', 'haisi'],
    ['haisiSearchEn', 'search', 'haisiEn'],
    ['haisiForm', 'form', 'haisi'],
    ['haisiFormEn', 'form', 'haisiEn'],
  ])('/%s/{fId}/{eid}/{ty} is the %s screen of %s', (route, screen, family) => {
    const m = matchRoute(`/${route}/${ids}`);
    expect(m).toMatchObject({ screen, variant: { name: family } });
  });

  it.each([
    ['haisiSuccess', 'haisi'],
    ['haisiSuccessEn', 'haisiEn'],
  ])('/%s/{urlId}/{euCode}/{eid}/{fId}/ is the credential of %s, for any expo', (route, family) => {
    const m = matchRoute(`/${route}/${encodeId(22616)}/${encodeId('AB12')}/${eid}/22616/`);
    expect(m).toMatchObject({ screen: 'credential', variant: { name: family }, params: { urlId: 22616, euCode: 'AB12', expoId: HAISI_EXPO, fId: 22616 } });
  });

  it.each(['haisi', 'haisiEn', 'haisiSearch', 'haisiSearchEn', 'haisiForm', 'haisiFormEn', 'haisiSuccess', 'haisiSuccessEn'])('/%s without parameters is the incomplete-link page, not 404', (route) => {
    expect(matchRoute(`/${route}`)).toMatchObject({ screen: 'incomplete', route });
    expect(matchRoute(`/${route}/`)).toMatchObject({ screen: 'incomplete', route });
  });

  it('broken parameters stay not found', () => {
    expect(matchRoute('/haisi/abc')).toBeNull();
    expect(matchRoute(`/haisiSearch/22616/${eid}/visitor/extra`)).toBeNull();
    // the spelling is the spec's: the suffix comes last
    expect(matchRoute(`/haisiEnSearch/${ids}`)).toBeNull();
  });

  it('the family serves any expo: no expo id of its own, never chosen by expo id', () => {
    expect([zh.expoId, en.expoId]).toEqual([null, null]);
    expect(ALL_VARIANTS.filter((v) => v.family)).toHaveLength(2);
    expect(variantByExpoId(HAISI_EXPO)).toBeNull();
    expect(variantByRoute('haisi')).toMatchObject({ kind: 'home' });
  });

  it('links stay in the family and its language', () => {
    const params = { fId: 22616, expoId: HAISI_EXPO, ty: 'visitor' };
    expect(routePath({ screen: 'search', variant: en, params })).toBe(`/haisiSearchEn/${ids}`);
    expect(routePath({ screen: 'familyHome', variant: en, params })).toBe(`/haisiEn/${ids}`);
    expect(routePath({ screen: 'incomplete', route: 'haisiForm' })).toBe('/haisiForm');
    expect(formPath(zh, ids)).toBe(`/haisiForm/${ids}`);
    const credential = successPath({ variant: en, urlId: 22616, euCode: 'AB12', expoId: HAISI_EXPO, fId: 22616, f: '' });
    expect(credential).toBe(`/haisiSuccessEn/${encodeId(22616)}/${encodeId('AB12')}/${eid}/22616/?f=`);
    expect(parseSuccessParams({ urlId: encodeId(22616), euCode: encodeId('AB12'), expoId: eid, fId: '22616' }, en)).toMatchObject({ expoId: HAISI_EXPO });
  });

  it('its form resolves for the expo its link names', () => {
    expect(resolveFormPage('haisiFormEn', ids.split('/'), en)).toMatchObject({ kind: 'form', params: { expoId: HAISI_EXPO, fId: 22616 } });
    expect(resolveFormPage('haisiForm', [], zh)).toBeNull();
  });

  it('spec §4: the guard reads haisi and haisiEn as pages that load no form config', () => {
    expect(pageInfo(new URL(`https://x/haisi/${ids}`)).noConfig).toBe(true);
    expect(pageInfo(new URL(`https://x/haisiEn/${ids}`)).noConfig).toBe(true);
    expect(pageInfo(new URL(`https://x/haisiSearch/${ids}`)).noConfig).toBe(false);
  });
});

describe('the family language (forced by the route)', () => {
  it('haisi… is Chinese, haisi…En English, other routes force nothing', () => {
    expect(routeLang(zh)).toBe('zh');
    expect(routeLang(en)).toBe('en');
    expect(routeLang(variantByName('IEAE'))).toBeNull();
    expect(routeLang(null)).toBeNull();
  });

  it('the page of a route: its variant, or on the shared selection list the family the lookup named', () => {
    const at = (path: string) => pageRouteLang(matchRoute(new URL(path, 'https://x').pathname), new URL(path, 'https://x'));
    expect(at(`/haisiFormEn/${ids}`)).toBe('en');
    expect(at('/haisiSearch')).toBe('zh');
    expect(at(`/applyList/${ids}?v=haisiEn&f=`)).toBe('en');
    expect(at(`/applyList/${ids}?v=IEAE&f=`)).toBeNull();
    expect(at(`/applyList/${ids}`)).toBeNull();
    expect(at('/nope/x')).toBeNull();
  });

  it('wins over the cookie and over the config', () => {
    const key = configKey(matchRoute(`/haisiSearchEn/${ids}`)!);
    const view = applyConfig({ key, config: { customerWx: { signType: 1, languageType: 1 } }, cookieLang: 'thai', now: 0, onFormPage: false, routeLang: 'en' });
    expect(view.lang).toEqual({ lang: 'en', forced: true, reason: 'route' });
    // the incomplete-link page loads no config, and is still in the family's language
    expect(configKey(matchRoute('/haisiEn')!)).toBeNull();
    expect(applyConfig({ key: null, config: null, cookieLang: 'zh', now: 0, onFormPage: false, routeLang: 'en' }).lang.lang).toBe('en');
  });

  it('the incomplete-link page says so and leads to the site root', () => {
    const match = matchRoute('/haisiEn');
    expect(match).toMatchObject({ screen: 'incomplete', variant: en, route: 'haisiEn', missing: ['fId', 'eid'] });
    const data = loadIncomplete(page('/haisiEn'), 'haisiEn', ['fId', 'eid']);
    expect(data).toMatchObject({ kind: 'incomplete', title: 'pages.incompleteTitle', missing: ['pages.missingFId', 'pages.missingEid'], homeHref: '/' });
  });
});

describe('the calls (spec §7, our reading)', () => {
  it('the family looks up with queryHaiPhone, every other page with the contact lookups', () => {
    expect(lookupCall(zh)).toBe('queryHaiPhone');
    expect(lookupCall(en)).toBe('queryHaiPhone');
    expect(lookupCall(variantByName('IEAE'))).toBe('queryUserExpoId');
    expect(lookupCall(null)).toBe('queryUserExpoId');
  });

  it.each([
    ['haisi', false, 'addHaiUserInfo'],
    ['haisiEn', false, 'addHaiUserInfoNew'],
    ['haisi', true, 'addHaiExpoUserNew'],
    ['haisiEn', true, 'addHaiExpoUserNew'],
    ['IEAE', false, 'addUserInfo'],
    ['IEAE', true, 'addUserInfo'],
  ])('%s, update %s: %s', (name, update, call) => {
    expect(registerCall(must(name), update)).toBe(call);
  });

  it('the generic form registers with addUserInfo', () => {
    expect(registerCall(null, false)).toBe('addUserInfo');
  });
});
