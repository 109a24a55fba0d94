import { describe, expect, it } from 'vitest';
import { encodeId } from '../../src/lib/util/ids';
import { applyConfig, configKey, startPage } from '../../src/lib/page/load';
import { matchRoute } from '../../src/lib/core/routes';

const eid = (n: number) => encodeId(n);
const keyOf = (path: string) => {
  const m = matchRoute(path);
  if (!m) throw new Error(`no route for ${path}`);
  return configKey(m);
};

describe('configKey: the config each screen loads', () => {
  it('lookups, lists and homes load their own url', () => {
    expect(keyOf(`/IEAESearch/21308/${eid(1308)}/visitor`)).toEqual({ expoId: 1308, fId: 21308, ty: 'visitor' });
    expect(keyOf(`/search/21216/${eid(1216)}`)).toEqual({ expoId: 1216, fId: 21216, ty: '' });
    expect(keyOf(`/applyList/21216/${eid(1216)}/visitor`)).toEqual({ expoId: 1216, fId: 21216, ty: 'visitor' });
    expect(keyOf(`/21308/${eid(1308)}/visitor`)).toEqual({ expoId: 1308, fId: 21308, ty: 'visitor' });
  });

  it('a credential loads its urlId (spec §2.1 /{Variant}Success/{urlId}/{euCode}/{expoId}/{fId})', () => {
    expect(keyOf(`/success/${eid(21216)}/${encodeId('ABCD1234')}/${eid(1216)}/7`)).toEqual({ expoId: 1216, fId: 21216, ty: '' });
  });

  it('a form loads its own path; a form that does not exist loads nothing', () => {
    expect(keyOf(`/form/21216/${eid(1216)}/visitor`)).toEqual({ expoId: 1216, fId: 21216, ty: 'visitor' });
    expect(keyOf(`/repairForm/21216/${eid(1216)}/visitor`)).toBeNull();
  });

  it('landings load none', () => {
    expect(keyOf('/CMEF')).toBeNull();
  });
});

describe('applyConfig: spec §4 config application on any page', () => {
  const base = { now: Date.UTC(2026, 0, 1), onFormPage: false };
  const key = (expoId: number) => ({ expoId, fId: 20000 + expoId, ty: '' });

  it('expo 1308 forces Chinese over the cookie, except configs 5959 and 6309', () => {
    expect(applyConfig({ ...base, key: key(1308), config: { customerWx: { id: 61308 } }, cookieLang: 'en' }).lang).toMatchObject({ lang: 'zh', forced: true });
    expect(applyConfig({ ...base, key: key(1308), config: { customerWx: { id: 5959 } }, cookieLang: 'en' }).lang.lang).toBe('en');
  });

  it('signType 2 forces English; signType 4 gives Chinese for languageType 1 or missing, else English', () => {
    expect(applyConfig({ ...base, key: key(2002), config: { customerWx: { signType: 2 } }, cookieLang: 'zh' }).lang.lang).toBe('en');
    expect(applyConfig({ ...base, key: key(2004), config: { customerWx: { signType: 4 } }, cookieLang: 'en' }).lang.lang).toBe('zh');
    expect(applyConfig({ ...base, key: key(2004), config: { customerWx: { signType: 4, languageType: 2 } }, cookieLang: 'zh' }).lang.lang).toBe('en');
  });

  it('the visitor keeps their language where no rule forces one; no config: the cookie, else Chinese', () => {
    expect(applyConfig({ ...base, key: key(1216), config: { customerWx: { signType: 1 } }, cookieLang: 'thai' }).lang).toMatchObject({ lang: 'thai', forced: false });
    expect(applyConfig({ ...base, key: null, config: null, cookieLang: null }).lang.lang).toBe('zh');
  });

  it('the title is formTitle (trimmed), else none; the image pcBackground, else headImgUrl, else showLogo', () => {
    const v = applyConfig({
      ...base,
      key: key(1216),
      config: { customerWx: { formTitle: '  Buyers  ', headImgUrl: 'https://cdn.example/h.jpg' }, expoInfo: { showLogo: '/l.png' } },
      cookieLang: null,
    });
    expect(v.formTitle).toBe('Buyers');
    expect(v.image).toBe('https://cdn.example/h.jpg');
    expect(applyConfig({ ...base, key: key(1216), config: { customerWx: { formTitle: ' ' } }, cookieLang: null }).formTitle).toBeNull();
  });

  it('the name follows the decided language, not the cookie', () => {
    const config = { customerWx: { id: 61308 }, expoInfo: { exhiName: '国际展', exhiNameEn: 'Intl Expo' } };
    expect(applyConfig({ ...base, key: key(1308), config, cookieLang: 'en' }).name).toBe('国际展');
  });

  it('a seat result never shows the ended notice: it loads its lookup\'s config, but skips the checks (spec §4; issue 23 review)', async () => {
    const ended = { expoInfo: { endTime: '2025-01-01 00:00:00' } };
    for (const path of ['/zuoweiSuccess?fId=21128&userName=A&companyName=B&seat=1', `/successYeJinJi?fId=21128&expoId=1128&userName=A&companyName=B&seat=1`]) {
      const url = new URL(path, 'https://expo.example');
      const start = await startPage(url, undefined, 'a-secret-of-at-least-32-characters!', Date.now());
      expect(start.info.skip, path).toBe(true);
      expect(start.key?.expoId, `${path}: the lookup's config is loaded`).toBe(1128);
      const view = applyConfig({ ...base, key: start.key, config: ended, cookieLang: null, skipsChecks: start.info.skip });
      expect(view.ended, path).toEqual({ kind: 'none' });
    }
    // the same config on a page that does not skip: the notice
    expect(applyConfig({ ...base, key: key(1128), config: ended, cookieLang: null, skipsChecks: false }).ended.kind).toBe('notice');
  });

  it('an ended expo gives its notice on every page; 1042 goes to its form except on the form', () => {
    const ended = { expoInfo: { endTime: '2025-01-01 00:00:00' } };
    expect(applyConfig({ ...base, key: key(1216), config: ended, cookieLang: null }).ended).toEqual({ kind: 'notice', key: 'error.expoOver' });
    expect(applyConfig({ ...base, key: key(343), config: ended, cookieLang: null }).ended).toEqual({ kind: 'notice', key: 'error.openingSoon' });
    expect(applyConfig({ ...base, key: key(1042), config: ended, cookieLang: null }).ended.kind).toBe('redirect-form');
    expect(applyConfig({ ...base, onFormPage: true, key: key(1042), config: ended, cookieLang: null }).ended.kind).toBe('none');
    expect(applyConfig({ ...base, key: key(1216), config: { expoInfo: { endTime: '2027-01-01 00:00:00' } }, cookieLang: null }).ended.kind).toBe('none');
  });
});
