/**
 * Wording rules of the catalogues: properties a native editor asked for, asserted over the
 * files rather than re-typed values (src/i18n/README.md). Each rule names what it protects.
 */
import { describe, expect, it } from 'vitest';
import { MESSAGES, createT } from '../../src/i18n/index';
import { LANGS, htmlLang, type Lang } from '../../src/lib/core/languages';

const cat = (lang: Lang): Readonly<Record<string, string | undefined>> => MESSAGES[lang];
const en = cat('en');
const value = (lang: Lang, key: string): string => cat(lang)[key] ?? '';
const placeholders = (v: string): string[] => [...v.matchAll(/\{\{\s*([^}\s]+)\s*\}\}/g)].map((m) => m[1] ?? '').sort();
/** Keys whose English text matches `re`: the keys that speak of one concept. */
const keysAbout = (re: RegExp): string[] => Object.keys(en).filter((k) => re.test(en[k] ?? ''));
/** Keys of `lang` whose value matches `re`, as `key: value` for a readable failure. */
const offending = (lang: Lang, re: RegExp, keys: readonly string[] = Object.keys(en)): string[] =>
  keys.filter((k) => re.test(value(lang, k))).map((k) => `${k}: ${value(lang, k)}`);

describe('English source', () => {
  it('idType 4 and 5 are the Mainland Travel Permits (for Taiwan / for Hong Kong and Macao residents), not a "return permit"', () => {
    expect(en['idType.4']).toMatch(/Mainland Travel Permit/);
    expect(en['idType.4']).toMatch(/Taiwan/);
    expect(en['idType.5']).toMatch(/Mainland Travel Permit/);
    expect(en['idType.5']).toMatch(/Hong Kong/);
    expect(en['idType.5']).not.toMatch(/return/i);
  });

  it('class 8 names a person, not an act ("ticket holder")', () => {
    expect(en['class.8']).toMatch(/holder/i);
    expect(en['class.8']).not.toMatch(/purchase/i);
  });

  it('"办证" is getting a pass, not applying for a permit', () => {
    expect(en['home.permit']).not.toMatch(/permit/i);
    expect(en['home.permit']).toMatch(/pass/i);
  });

  it('the buyer title is a phrase, not "Buyer Register"', () => {
    expect(en['search.buyerTitle']).not.toMatch(/Register\b/);
    expect(en['search.buyerTitle']).toMatch(/registration/i);
  });

  it('speaks of an e-mail address, not a "mailbox"', () => {
    expect(offending('en', /mailbox/i)).toEqual([]);
  });

  it('the send button during the wait shows the countdown and does not say the code is being got', () => {
    expect(placeholders(en['search.countdown'] ?? '')).toEqual(['n']);
    expect(en['search.countdown']).not.toMatch(/getting|get/i);
  });

  it('joins no "please" sentence to another with a comma', () => {
    expect(offending('en', /, please (?:try|reload|check)\b/i)).toEqual([]);
  });
});

describe('plural forms (i18next `_one`/`_other` with `count`)', () => {
  const pluralBases = Object.keys(en).filter((k) => k.endsWith('_other')).map((k) => k.slice(0, -'_other'.length));

  it('"{{n}} places left" is written in plural forms', () => {
    expect(pluralBases).toContain('site.placesLeft');
    expect(en['site.placesLeft']).toBeUndefined();
  });

  it.each(LANGS)('%s has exactly the plural forms its language has, each with the same placeholders', (lang) => {
    const categories = new Intl.PluralRules(htmlLang(lang)).resolvedOptions().pluralCategories;
    for (const base of pluralBases) {
      const forms = Object.keys(cat(lang)).filter((k) => k.startsWith(`${base}_`)).map((k) => k.slice(base.length + 1)).sort();
      // A language with one form (Thai, Vietnamese, Indonesian, Malay, Chinese) writes only `_other`.
      expect(forms, `${lang} ${base}`).toEqual(['one', 'other'].filter((c) => categories.includes(c as Intl.LDMLPluralRule)));
      for (const form of forms) expect(placeholders(value(lang, `${base}_${form}`)), `${lang} ${base}_${form}`).toEqual(['count']);
    }
  });

  it.each(LANGS)('%s picks its form by count (no key shown, no English rules for a one-form language)', (lang) => {
    const t = createT(lang);
    for (const base of pluralBases) {
      for (const count of [0, 1, 2, 21]) {
        const text = t(base as 'site.placesLeft', { count });
        expect(text, `${lang} ${base} ${count}`).toContain(String(count));
        expect(text).not.toContain(base);
      }
      if (lang !== 'en') expect(t(base as 'site.placesLeft', { count: 1 })).toBe(value(lang, `${base}_other`).replace('{{count}}', '1'));
    }
    if (lang === 'en') {
      expect(t('site.placesLeft', { count: 1 })).not.toBe(t('site.placesLeft', { count: 2 }).replace('2', '1'));
    }
  });
});

describe('ID documents 4 and 5 in every language are the mainland travel permits', () => {
  /** The word for "the mainland" (or the document's usual short name) in each language. */
  const MAINLAND: Readonly<Record<Lang, RegExp>> = {
    zh: /来往(大陆|内地)通行证/,
    en: /Mainland Travel Permit/,
    thai: /จีนแผ่นดินใหญ่/,
    vn: /Đại lục/i,
    id: /Tiongkok Daratan/i,
    tw: /台胞證|來往(大陸|內地)通行證/,
    ms: /Tanah Besar China/i,
  };
  /** "Return home" readings that name another document (回乡证, a permit to go back to Hong Kong). */
  const RETURN: Readonly<Record<Lang, RegExp>> = {
    zh: /回乡/,
    en: /return/i,
    thai: /กลับ/,
    vn: /hồi hương/i,
    id: /kembali/i,
    tw: /回鄉/,
    ms: /pulang/i,
  };
  it.each(LANGS)('%s', (lang) => {
    for (const key of ['idType.4', 'idType.5']) {
      expect(value(lang, key), `${lang} ${key}`).toMatch(MAINLAND[lang]);
      expect(value(lang, key), `${lang} ${key}`).not.toMatch(RETURN[lang]);
    }
  });
});

describe('per-language fixes', () => {
  it('zh and tw address the visitor as 您, never 你', () => {
    expect(offending('zh', /你/)).toEqual([]);
    expect(offending('tw', /你/)).toEqual([]);
  });

  it('ms: the credential is not "kelayakan" (eligibility) and the contact not "kenalan" (an acquaintance)', () => {
    expect(offending('ms', /kelayakan/i)).toEqual([]);
    expect(offending('ms', /kenalan/i)).toEqual([]);
  });

  it('th: idType 5 is not read as a permit to return to Hong Kong', () => {
    expect(value('thai', 'idType.5')).not.toMatch(/กลับ|ภูมิลำเนา/);
  });

  it('id: no literal phrasings ("kredensial", "mengambil kode")', () => {
    expect(offending('id', /kredensial/i)).toEqual([]);
    expect(offending('id', /mengambil\s+kode/i)).toEqual([]);
  });

  it('class 8 names a person in every language but the spec\'s Chinese (购票 is the spec\'s word)', () => {
    const ACT: Partial<Record<Lang, RegExp>> = { thai: /^ซื้อ/, vn: /^Mua/i, id: /^Pembelian/i, ms: /^Pembelian/i };
    for (const [lang, re] of Object.entries(ACT) as [Lang, RegExp][]) expect(value(lang, 'class.8'), lang).not.toMatch(re);
  });

  it('"办证" is a pass in every language, not a permit', () => {
    const PERMIT: Partial<Record<Lang, RegExp>> = { thai: /ใบอนุญาต/, vn: /giấy phép/i, id: /izin/i, ms: /permit/i };
    for (const [lang, re] of Object.entries(PERMIT) as [Lang, RegExp][]) expect(value(lang, 'home.permit'), lang).not.toMatch(re);
  });
});

describe('one word per concept in each language', () => {
  /**
   * concept → language → the term used, and the variants that must not appear. `about` selects the
   * keys by their English text (the keys that speak of the concept); without it the whole file.
   */
  const TERMS: readonly { concept: string; lang: Lang; about?: RegExp; term?: RegExp; not: RegExp }[] = [
    { concept: 'ticket', lang: 'thai', about: /\btickets?\b/i, term: /ตั๋ว/, not: /บัตร/ },
    { concept: 'discount code', lang: 'tw', about: /discount code/i, term: /優惠碼/, not: /折扣碼/ },
    { concept: 'discount code', lang: 'tw', not: /折扣碼/ },
    // 行動支付 (mobile payment) is a fixed name in Taiwan; paying is 付款 everywhere else.
    { concept: 'payment', lang: 'tw', not: /(?<!行動)支付/ },
    { concept: 'registration', lang: 'id', about: /\bregistration\b/i, term: /pendaftaran/i, not: /registrasi/i },
    { concept: 'registration', lang: 'id', not: /registrasi/i },
    { concept: 'privacy', lang: 'vn', about: /privacy/i, term: /quyền riêng tư/i, not: /bảo mật/i },
    { concept: 'contact', lang: 'ms', about: /\bcontact\b(?! the)/i, not: /kenalan|(?<!maklumat )hubungan (?:lain|itu)|dengan hubungan\b/i },
  ];
  it.each(TERMS.map((row) => [`${row.lang}: ${row.concept}${row.about ? ` (keys about ${row.about.source})` : ' (whole file)'}`, row] as const))(
    '%s',
    (_name, row) => {
      const keys = row.about ? keysAbout(row.about) : Object.keys(en);
      expect(keys.length).toBeGreaterThan(0);
      expect(offending(row.lang, row.not, keys), `${row.lang} uses a variant`).toEqual([]);
      if (row.term) {
        const missing = keys.filter((k) => !row.term?.test(value(row.lang, k))).map((k) => `${k}: ${value(row.lang, k)}`);
        expect(missing, `${row.lang} keys about ${row.concept} without the term`).toEqual([]);
      }
    },
  );
});

describe('the send-code button (spec §4 "getting now (n)")', () => {
  /** What says "the code is being fetched" in each language other than the spec's Chinese. */
  const GETTING: Readonly<Record<Exclude<Lang, 'zh'>, RegExp>> = {
    en: /getting|get/i,
    thai: /กำลัง/,
    vn: /đang|lấy/i,
    id: /sedang|mengambil/i,
    tw: /正在/,
    ms: /sedang|mendapatkan/i,
  };
  it('zh keeps the spec\'s wording', () => {
    expect(value('zh', 'search.countdown')).toBe('正在获取({{n}})');
  });
  it.each(Object.entries(GETTING) as [Exclude<Lang, 'zh'>, RegExp][])('%s says when a new code can be asked for, with the countdown', (lang, re) => {
    expect(value(lang, 'search.countdown')).not.toMatch(re);
    expect(placeholders(value(lang, 'search.countdown'))).toEqual(['n']);
  });
  // At 320 px the button holds about 16 Latin or 8 Thai/Chinese characters a line; two lines at most.
  it.each(LANGS)('%s: the sending and waiting labels fit the button (short)', (lang) => {
    const wide = lang === 'zh' || lang === 'tw';
    for (const key of ['search.sending', 'search.countdown', 'search.reget', 'search.sendCode']) {
      const text = value(lang, key).replace('{{n}}', '59');
      expect(text.length, `${lang} ${key}: ${text}`).toBeLessThanOrEqual(wide ? 12 : 24);
    }
  });
});

describe('a text that names a control takes its label from the control\'s own key', () => {
  it('the bypass note names the send button as the button reads, in every language ($t nesting)', () => {
    for (const lang of LANGS) {
      const t = createT(lang);
      expect(t('search.bypassProve'), lang).toContain(t('search.sendCode'));
      expect(t('search.bypassProve'), lang).not.toContain('$t(');
    }
  });
});
