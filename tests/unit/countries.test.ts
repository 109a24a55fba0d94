import { describe, expect, it } from 'vitest';
import { CALLING_CODES, COUNTRIES } from '../../src/lib/form/country-list';
import {
  areaCodeOf,
  countryEntryText,
  countryName,
  packCountries,
  searchCountries,
  splitInternational,
  withInternational,
  unpackCountries,
  type Country,
} from '../../src/lib/form/countries';
import { pickerOrder, withLocalNames } from '../../src/lib/form/country-names';
import { validateLookup, validateSendCode } from '../../src/lib/lookup/validation';
import { LANGS, htmlLang } from '../../src/lib/core/languages';

/** An entry as the island gets it back from the packed prop: no region codes. */
const plain = ({ regions: _regions, ...c }: Country): Country => c;

describe('the country/region list (spec §2.1, §3)', () => {
  it('has about 230 entries', () => {
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(220);
    expect(COUNTRIES.length).toBeLessThanOrEqual(260);
  });

  it('starts with China, Hong Kong, Macau, Taiwan, Vietnam, Thailand and Indonesia', () => {
    expect(COUNTRIES.slice(0, 7).map(plain)).toEqual([
      { code: '+86', zh: '中国大陆', tw: '中國大陸', en: 'Mainland China' },
      { code: '+852', zh: '中国香港', tw: '香港', en: 'Hong Kong' },
      { code: '+853', zh: '中国澳门', tw: '澳門', en: 'Macau' },
      { code: '+886', zh: '中国台湾', tw: '台灣', en: 'Taiwan' },
      { code: '+84', zh: '越南', tw: '越南', en: 'Vietnam' },
      { code: '+66', zh: '泰国', tw: '泰國', en: 'Thailand' },
      { code: '+62', zh: '印度尼西亚', tw: '印尼', en: 'Indonesia' },
    ]);
  });

  it('lists the rest in English alphabetical order', () => {
    const rest = COUNTRIES.slice(7).map((c) => c.en);
    const collator = new Intl.Collator('en', { sensitivity: 'base' });
    expect(rest).toEqual([...rest].sort(collator.compare));
  });

  it('has one entry per calling code (issue 14: no two +61 rows), over the whole list', () => {
    const seen = new Map<string, string>();
    for (const c of COUNTRIES) {
      expect(seen.get(c.code), `${c.code} ${c.en} and ${seen.get(c.code) ?? ''}`).toBeUndefined();
      seen.set(c.code, c.en);
    }
    expect(seen.size).toBe(COUNTRIES.length);
  });

  it('names every territory once, in every script, and a merged entry names the same territories in each', () => {
    for (const script of ['zh', 'tw', 'en'] as const) {
      const names = COUNTRIES.flatMap((c) => c[script].split(' / '));
      const twice = names.filter((n, i) => names.indexOf(n) !== i);
      expect(twice, `${script} names listed twice`).toEqual([]);
    }
    for (const c of COUNTRIES) {
      const parts = c.en.split(' / ').length;
      expect(c.zh.split(' / ').length, c.en).toBe(parts);
      expect(c.tw.split(' / ').length, c.en).toBe(parts);
    }
  });

  it('names the territories that share a code in one entry, the main one first', () => {
    const at = (code: string) => COUNTRIES.filter((c) => c.code === code).map((c) => c.en);
    expect(at('+61')).toEqual(['Australia / Christmas Island / Cocos (Keeling) Islands']);
    expect(at('+1')).toEqual(['United States / Canada']);
    expect(at('+44')).toEqual(['United Kingdom / Guernsey / Isle of Man / Jersey']);
    expect(at('+7')).toEqual(['Russia / Kazakhstan']);
  });

  it('has traditional names as written in Taiwan, none left in simplified form', () => {
    const tw = (code: string) => COUNTRIES.find((c) => c.code === code)?.tw;
    expect(tw('+61')?.startsWith('澳洲')).toBe(true);
    expect(tw('+64')).toBe('紐西蘭');
    expect(tw('+39')?.startsWith('義大利')).toBe(true);
    expect(tw('+86')).toBe('中國大陸');
    // Characters that exist only in simplified Chinese never appear in a traditional name.
    const simplifiedOnly = /[国门亚兰尔罗马维丽岛属达乌纳图华荣]/;
    for (const c of COUNTRIES) expect(c.tw, c.en).not.toMatch(simplifiedOnly);
  });

  it('writes every code as + and 1-4 digits, and every name non-empty without surrounding blanks', () => {
    for (const c of COUNTRIES) {
      expect(c.code).toMatch(/^\+\d{1,4}$/);
      expect(c.zh).toMatch(/^\S(.*\S)?$/);
      expect(c.tw).toMatch(/^\S(.*\S)?$/);
      expect(c.en).toMatch(/^\S(.*\S)?$/);
    }
  });

  it.each([
    ['Singapore', '+65'],
    ['Malaysia', '+60'],
    ['Japan', '+81'],
    ['South Korea', '+82'],
    ['United States', '+1'],
    ['Canada', '+1'],
    ['United Kingdom', '+44'],
    ['Russia', '+7'],
    ['Kazakhstan', '+7'],
    ['Bahamas', '+1242'],
    ['Philippines', '+63'],
    ['India', '+91'],
    ['Australia', '+61'],
  ])('knows %s as %s (ITU-T E.164)', (en, code) => {
    expect(COUNTRIES.find((c) => c.en.split(' / ').includes(en))?.code).toBe(code);
  });

  it('cannot be changed by a caller', () => {
    expect(Object.isFrozen(COUNTRIES)).toBe(true);
    expect(Object.isFrozen(COUNTRIES[0])).toBe(true);
  });
});

describe('entry text and area code (spec §2.1: the area code is the first word)', () => {
  const china = COUNTRIES[0]!;
  it('names the entry in the page language', () => {
    expect(countryName(china, 'zh')).toBe('中国大陆');
    expect(countryName(china, 'tw')).toBe('中國大陸');
    expect(countryName(china, 'en')).toBe('Mainland China');
    expect(countryName(china, 'thai')).toBe('Mainland China');
    expect(countryName(withLocalNames(COUNTRIES, 'thai')[0]!, 'thai')).toBe('จีน');
    expect(countryEntryText(china, 'zh')).toBe('+86 中国大陆');
  });

  it.each([
    ['+86 中国大陆', '+86'],
    ['+66 Thailand', '+66'],
    ['  +1242 Bahamas ', '+1242'],
    ['+852\tHong Kong', '+852'],
    ['+44', '+44'],
  ])('%j → %s', (text, code) => {
    expect(areaCodeOf(text)).toBe(code);
  });

  it.each([undefined, null, '', '   ', 'Thailand', '66 Thailand', '+ 66 Thailand', '+12345 X', '+6a6 X'])(
    '%j has no area code',
    (text) => {
      expect(areaCodeOf(text)).toBeNull();
    },
  );

  it('round-trips every entry', () => {
    for (const c of COUNTRIES) {
      expect(areaCodeOf(countryEntryText(c, 'en'))).toBe(c.code);
      expect(areaCodeOf(countryEntryText(c, 'zh'))).toBe(c.code);
      expect(areaCodeOf(countryEntryText(c, 'tw'))).toBe(c.code);
    }
  });
});

describe('searchCountries', () => {
  const codes = (q: string) => searchCountries(COUNTRIES, q, 'en').map((c) => c.code);
  const names = (q: string) => searchCountries(COUNTRIES, q, 'en').map((c) => c.en);

  it('returns everything, in picker order, for an empty query', () => {
    expect(searchCountries(COUNTRIES, '  ', 'en').map((c) => c.en)).toEqual(COUNTRIES.map((c) => c.en));
  });

  it('matches the start of the code digits, with or without +', () => {
    expect(codes('85')).toEqual(['+852', '+853', '+855', '+856', '+850']);
    expect(codes('+85')).toEqual(codes('85'));
    expect(codes('886')).toEqual(['+886']);
    expect(codes('86')).toEqual(['+86']);
    expect(codes('1242')).toEqual(['+1242']);
    expect(codes('99999')).toEqual([]);
  });

  it('matches English names anywhere, ignoring case and accents', () => {
    expect(names('thai')).toEqual(['Thailand']);
    expect(names('KONG')).toEqual(['Hong Kong']);
    expect(names('cote')).toEqual(["Côte d'Ivoire"]);
    expect(names('guinea')).toEqual(['Equatorial Guinea', 'Guinea', 'Guinea-Bissau', 'Papua New Guinea']);
  });

  it('matches Chinese names in any page language', () => {
    expect(names('泰国')).toEqual(['Thailand']);
    expect(names('泰')).toEqual(['Thailand', 'Guadeloupe / Saint Barthélemy / Saint Martin']);
    expect(names('聖誕')).toEqual(['Australia / Christmas Island / Cocos (Keeling) Islands']);
    expect(names('christmas')).toEqual(['Australia / Christmas Island / Cocos (Keeling) Islands']);
    expect(searchCountries(COUNTRIES, '中国', 'zh').map((c) => c.text)).toEqual([
      '+86 中国大陆',
      '+852 中国香港',
      '+853 中国澳门',
      '+886 中国台湾',
    ]);
  });

  it('gives each option the entry text of the page language', () => {
    expect(searchCountries(COUNTRIES, '66', 'zh')[0]?.text).toBe('+66 泰国');
    expect(searchCountries(COUNTRIES, '66', 'en')[0]?.text).toBe('+66 Thailand');
    expect(searchCountries(COUNTRIES, '66', 'tw')[0]?.text).toBe('+66 泰國');
  });

  it('finds nothing for text no name holds', () => {
    expect(searchCountries(COUNTRIES, 'Atlantis', 'en')).toEqual([]);
  });
});

describe('packCountries / unpackCountries (the island prop)', () => {
  it('round-trips the whole list with the Chinese names of the page', () => {
    expect(unpackCountries(packCountries(COUNTRIES))).toEqual(COUNTRIES.map((c) => ({ ...plain(c), tw: c.zh })));
    expect(unpackCountries(packCountries(COUNTRIES, 'tw'))).toEqual(COUNTRIES.map((c) => ({ ...plain(c), zh: c.tw })));
    expect(unpackCountries(packCountries(COUNTRIES, 'en'))).toEqual(COUNTRIES.map((c) => ({ ...plain(c), tw: c.zh })));
    const thai = withLocalNames(COUNTRIES, 'thai');
    expect(unpackCountries(packCountries(thai, 'thai'), 'thai')).toEqual(thai.map((c) => ({ ...plain(c), zh: '', tw: '' })));
  });
  it('ships one Chinese name per entry', () => {
    expect(packCountries(COUNTRIES, 'tw').split('\n')[0]).toBe('+86|中國大陸|Mainland China');
    expect(packCountries(COUNTRIES, 'zh').split('\n')[0]).toBe('+86|中国大陆|Mainland China');
  });
  it('no name holds the separators', () => {
    for (const c of COUNTRIES) expect(`${c.zh}${c.tw}${c.en}`).not.toMatch(/[|\n]/);
  });
  it('skips malformed lines', () => {
    expect(unpackCountries('+66|泰国|Thailand\nbad\n66|x|y\n+1|a|b|c\n+7|a|\n')).toEqual([
      { code: '+66', zh: '泰国', tw: '泰国', en: 'Thailand' },
    ]);
  });
});

describe('country names in every language (CLDR through Intl.DisplayNames)', () => {
  const CLDR = ['thai', 'vn', 'id', 'ms'] as const;
  const en = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

  it('gives every entry the ISO 3166 codes of the territories it names, one per name', () => {
    for (const c of COUNTRIES) {
      expect(c.regions?.length, c.en).toBe(c.en.split(' / ').length);
      for (const r of c.regions ?? []) expect(en.of(r), `${c.en}: ${r}`).toBeTruthy();
    }
    const all = COUNTRIES.flatMap((c) => c.regions ?? []);
    expect(new Set(all).size).toBe(all.length);
  });

  it.each(CLDR)('%s names the entries in its own language, short where CLDR\'s long name is a title', (lang) => {
    const names = withLocalNames(COUNTRIES, lang).map((c) => countryName(c, lang));
    // Latin-script languages share many names with English (Malaysia, Kenya); Thai shares none.
    const own = COUNTRIES.filter((c, i) => names[i] !== c.en).length;
    expect(own).toBeGreaterThanOrEqual(lang === 'thai' ? COUNTRIES.length : 50);
    const hk = COUNTRIES.find((c) => c.code === '+852')!;
    const hkName = countryName(withLocalNames([hk], lang)[0]!, lang);
    expect(hkName.length, hkName).toBeLessThan(15);
    for (const n of names) expect(n).toMatch(/^\S(.*\S)?$/);
  });

  it.each([
    ['thai', 'ไทย', '+66'],
    ['thai', 'มาเลเซีย', '+60'],
    ['vn', 'Thái Lan', '+66'],
    ['vn', 'Hoa Kỳ', '+1'],
    ['id', 'Singapura', '+65'],
    ['id', 'Tiongkok', '+86'],
    ['ms', 'Amerika Syarikat', '+1'],
  ] as const)('a %s visitor typing %j finds %s (the island\'s packed list)', (lang, query, code) => {
    const list = unpackCountries(packCountries(withLocalNames(COUNTRIES, lang), lang), lang);
    const found = searchCountries(list, query, lang);
    expect(found.map((c) => c.code)).toContain(code);
    expect(found.find((c) => c.code === code)?.text).toMatch(new RegExp(`^\\${code} \\S`));
  });

  it('ships one name besides English per entry, in the page language (no Chinese on a Thai page)', () => {
    for (const lang of LANGS) {
      const lines = packCountries(withLocalNames(COUNTRIES, lang), lang).split('\n');
      for (const line of lines) expect(line.split('|').length, `${lang}: ${line}`).toBe(3);
      if ((CLDR as readonly string[]).includes(lang)) expect(lines.join('\n'), lang).not.toMatch(/\p{Script=Han}/u);
    }
    expect(packCountries(withLocalNames(COUNTRIES, 'thai'), 'thai').split('\n')[5]).toBe('+66|ไทย|Thailand');
    expect(withLocalNames(COUNTRIES, 'en')).toBe(COUNTRIES);
    expect(withLocalNames(COUNTRIES, 'thai')).toBe(withLocalNames(COUNTRIES, 'thai'));
    // the BCP 47 tag CLDR is asked in (the legacy codes are not BCP 47)
    expect(htmlLang('vn')).toBe('vi');
  });
});

describe('pickerOrder (spec §3 first entries, the expo\'s own market first)', () => {
  const order = (currency: string) => pickerOrder(COUNTRIES, currency).map((c) => c.code);
  const seven = ['+86', '+852', '+853', '+886', '+84', '+66', '+62'];

  it('puts Malaysia first for an event selling in MYR (1316), then the spec\'s seven', () => {
    expect(order('MYR').slice(0, 8)).toEqual(['+60', ...seven]);
  });
  it('puts Singapore first for an event selling in SGD', () => {
    expect(order('SGD').slice(0, 8)).toEqual(['+65', ...seven]);
  });
  it.each(['CNY', 'THB', 'IDR', 'VND', 'XXX'])('keeps the spec\'s order for %s', (currency) => {
    expect(order(currency)).toEqual(COUNTRIES.map((c) => c.code));
  });
  it('moves, never copies, an entry', () => {
    expect([...order('MYR')].sort()).toEqual(COUNTRIES.map((c) => c.code).sort());
  });
});

describe('splitInternational (a phone typed as +66 8…)', () => {
  it.each([
    ['+66 81 234 5678', '+66', '812345678'],
    ['+6681-234-5678', '+66', '812345678'],
    [' +86 138 0013 8000 ', '+86', '13800138000'],
    ['+1 242 359 1234', '+1242', '3591234'],
    ['+1 212 555 0100', '+1', '2125550100'],
    ['+44 (0)7911 123456', '+44', '07911123456'],
    ['+852 9123 4567', '+852', '91234567'],
  ])('%j is %s %s', (phone, areaCode, national) => {
    expect(splitInternational(phone, CALLING_CODES)).toEqual({ areaCode, phone: national });
  });
  it.each(['0812345678', '812345678', '+', '+66', '+999 1234567', '66 812345678', '+66 81x'])('%j is not read as international', (phone) => {
    expect(splitInternational(phone, CALLING_CODES)).toBeNull();
  });
});

describe('withInternational: the lookup validation reads a phone typed as +66 8… (spec §5)', () => {
  it('reads a phone typed in international form as its country, with or without a country chosen', () => {
    const codes = ['+60', '+66', '+86'];
    expect(validateSendCode(withInternational({ checkType: 1, areaCode: '', phone: '+66 81 234 5678' }, codes))).toEqual({
      ok: true,
      value: { checkType: 1, areaCode: '+66', phone: '812345678', email: '' },
    });
    // the number says its country: it wins over a picker left on the default
    expect(validateSendCode(withInternational({ checkType: 1, areaCode: '+86', phone: '+60 12-345 6789' }, codes)).value).toMatchObject({ areaCode: '+60', phone: '123456789' });
    // +86 numbers still follow the mainland mobile rule
    const cn = validateLookup(withInternational({ checkType: 1, phone: '+86 123', code: '1' }, codes), { requireCode: true });
    expect(cn.ok ? null : [cn.field, cn.key]).toEqual(['phone', 'search.codeError']);
    // in e-mail mode nothing is split
    expect(withInternational({ checkType: 2, phone: '+66812345678', email: 'a@b.co' }, codes)).toEqual({ checkType: 2, phone: '+66812345678', email: 'a@b.co' });
    expect(validateLookup(withInternational({ checkType: 1, phone: '+66812345678', code: '12' }, codes), { requireCode: true }).value).toMatchObject({ areaCode: '+66', phone: '812345678' });
  });

});
