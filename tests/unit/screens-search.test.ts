import { describe, expect, it } from 'vitest';
import { SENT_TO_COOKIE } from '../../src/lib/lookup/resend';
import { loadSearch } from '../../src/lib/screens/search';
import { flash, page, paramsOf, pathOf } from './screens-helpers';

const path = `/search${pathOf(1308)}`;
const params = paramsOf(1308);

describe('loadSearch (the lookup screen)', () => {
  it('offers both modes on a generic lookup and keeps the page as the way back', () => {
    const d = loadSearch(page(`${path}?f=x`), { params, variant: null });
    expect(d.form.modes).toEqual(['email', 'phone']);
    expect(d.form.hidden).toMatchObject({ expoId: '1308', urlId: '21308', back: `${path}?f=x`, f: 'x' });
    expect(d.form.notice).toBeNull();
    expect(d.challenge).toBeNull();
  });

  it('types in again what a refused post flashed, with the field error and the notice', () => {
    const f = flash(path, {
      values: { checkType: '2', email: 'a@b.example' },
      error: { field: 'email', key: 'search.emailInvalid', text: null },
      notice: { tone: 'error', key: 'limit.send', vars: { n: 3 }, text: 'upstream words' },
    });
    const d = loadSearch(page(path, { flash: f }), { params, variant: null });
    expect(d.form.values.email).toBe('a@b.example');
    expect(d.form.error).toEqual({ field: 'email', message: 'search.emailInvalid' });
    expect(d.form.notice).toEqual({ tone: 'error', message: 'limit.send{"n":3}\nupstream words' });
  });

  it('says search.otherError when the config failed, and shows no flash behind the pledge', () => {
    expect(loadSearch(page(path, { configFailed: true }), { params, variant: null }).form.notice).toEqual({ tone: 'error', message: 'search.otherError' });
    // spec §8: with JavaScript it is also the toast, shown once the island hydrates
    expect(loadSearch(page(path, { configFailed: true }), { params, variant: null }).form.toast).toBe('search.otherError');
    expect(loadSearch(page(path), { params, variant: null }).form.toast).toBeNull();
    const d = loadSearch(page(path, { pledge: true, flash: flash(path, { values: { email: 'x@y.z' } }), challenge: { siteKey: 'k', scriptUrl: 'https://c.example/a.js' } }), { params, variant: null });
    expect(d.form.values.email).toBe('');
    expect(d.challenge).toBeNull();
  });

  it('ignores a sent-to cookie of another expo, and takes the e-mail-only mode from the config', () => {
    const d = loadSearch(page(path, { cookies: { [SENT_TO_COOKIE]: 'garbage' }, config: { customerWx: { queryMethod: 2 } } }), { params, variant: null });
    expect(d.form.values).toEqual({ areaCode: '', phone: '', email: '', code: '' });
    expect(d.form.modes).toEqual(['email']);
  });

  it('hands the country list in the page language, the expo\'s own market first (1316 sells in MYR: Malaysia)', () => {
    const first = (expoId: number, lang: 'en' | 'thai' | 'ms') =>
      loadSearch(page(`/search${pathOf(expoId)}`, { lang }), { params: paramsOf(expoId), variant: null }).form.countries.split('\n').slice(0, 2);
    expect(first(1308, 'en')).toEqual(['+86|中国大陆|Mainland China', '+852|中国香港|Hong Kong']);
    expect(first(1179, 'thai')).toEqual(['+86|จีน|Mainland China', '+852|ฮ่องกง|Hong Kong']);
    expect(first(1316, 'ms')).toEqual(['+60|Malaysia|Malaysia', '+86|China|Mainland China']);
  });

  it('keeps the share tags and the image a home gives', () => {
    const share = { title: 'T', description: 'D', url: 'https://expo.example/', image: 'https://img.example/a.png' };
    const d = loadSearch(page(path), { params, variant: null, share, image: null });
    expect(d.share).toBe(share);
    expect(d.image).toBeNull();
  });
});
