import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LANG,
  LANGS,
  LANG_COOKIE,
  LANG_COOKIE_MAX_AGE_S,
  LANG_NAMES,
  dropdownOptions,
  htmlLang,
  isLang,
  langForDropdownValue,
  menuLangs,
  resolveLang,
} from '../../src/lib/core/languages';

describe('languages (spec §1)', () => {
  it('lists the seven legacy codes, zh first', () => {
    expect(LANGS).toEqual(['zh', 'en', 'thai', 'vn', 'id', 'tw', 'ms']);
    expect(DEFAULT_LANG).toBe('zh');
  });

  it('keeps the language in _h5_lang for 60 days', () => {
    expect(LANG_COOKIE).toBe('_h5_lang');
    expect(LANG_COOKIE_MAX_AGE_S).toBe(5_184_000);
  });

  it.each(LANGS)('recognises %s', (lang) => {
    expect(isLang(lang)).toBe(true);
    expect(resolveLang(lang)).toBe(lang);
  });

  it.each([undefined, null, '', 'fr', 'ZH', 'th', 'vi', 'zh-CN', '__proto__', 'toString'])(
    'falls back to zh for %s',
    (value) => {
      expect(resolveLang(value)).toBe('zh');
    },
  );

  it('ignores blanks around the cookie value', () => {
    expect(resolveLang(' en ')).toBe('en');
  });

  it('rejects non-strings', () => {
    expect(isLang(1)).toBe(false);
    expect(isLang(null)).toBe(false);
    expect(isLang({})).toBe(false);
  });

  it('maps codes to BCP 47 for the html lang attribute', () => {
    expect(LANGS.map(htmlLang)).toEqual(['zh-CN', 'en', 'th', 'vi', 'id', 'zh-TW', 'ms']);
  });

  it('names every language in itself, distinctly', () => {
    expect(LANG_NAMES).toEqual({
      zh: '中文',
      en: 'English',
      thai: 'ไทย',
      vn: 'Tiếng Việt',
      id: 'Bahasa Indonesia',
      tw: '繁體中文',
      ms: 'Bahasa Melayu',
    });
  });

  describe('landing dropdown: Chinese 1, English 2, local 3', () => {
    it('adds the local language as option 3', () => {
      expect(dropdownOptions('thai')).toEqual([
        { value: 1, lang: 'zh' },
        { value: 2, lang: 'en' },
        { value: 3, lang: 'thai' },
      ]);
      expect(dropdownOptions('tw').at(2)).toEqual({ value: 3, lang: 'tw' });
    });

    it.each([null, 'zh', 'en'] as const)('has no third option when local is %s', (local) => {
      expect(dropdownOptions(local)).toEqual([
        { value: 1, lang: 'zh' },
        { value: 2, lang: 'en' },
      ]);
    });

    it('turns a posted value into a language', () => {
      expect(langForDropdownValue(1, 'vn')).toBe('zh');
      expect(langForDropdownValue('2', 'vn')).toBe('en');
      expect(langForDropdownValue('3', 'vn')).toBe('vn');
      expect(langForDropdownValue(3, null)).toBeNull();
      expect(langForDropdownValue('', 'vn')).toBeNull();
      expect(langForDropdownValue('x', 'vn')).toBeNull();
    });
  });

  describe('the menu offers what the page will show and names what it shows', () => {
    it('a forced page offers nothing (a choice it would ignore)', () => {
      expect(menuLangs({ localLang: undefined, current: 'zh', forced: true })).toEqual([]);
      expect(menuLangs({ localLang: 'thai', current: 'en', forced: true })).toEqual([]);
    });
    it('every language without an event, the landing options with one', () => {
      expect(menuLangs({ localLang: undefined, current: 'zh', forced: false })).toEqual([...LANGS]);
      expect(menuLangs({ localLang: 'thai', current: 'en', forced: false })).toEqual(['zh', 'en', 'thai']);
    });
    it('a page shown in a language outside its options lists that language too', () => {
      expect(menuLangs({ localLang: null, current: 'thai', forced: false })).toEqual(['zh', 'en', 'thai']);
      expect(menuLangs({ localLang: 'vn', current: 'ms', forced: false })).toEqual(['zh', 'en', 'vn', 'ms']);
    });
  });
});
