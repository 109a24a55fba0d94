/**
 * The phone country/region picker's list (spec §2.1, §3): about 230 entries of ITU-T E.164
 * calling codes with Chinese and English names. The picker shows `${code} ${name}`, and
 * "the area code is the first word of the chosen entry" (spec §2.1).
 *
 * Order (spec §3): mainland China, Hong Kong, Macau, Taiwan, Vietnam, Thailand and Indonesia
 * first, for the events' own visitors; then the rest by English name. One entry per calling code
 *: territories that share one (+1, +7, +44, +61, +262, +590, +599 …) are named together
 * in that entry and found by each name; NANP members with their own four-digit code (+1242
 * Bahamas) keep their own entry.
 */
import type { Lang } from '../core/languages';

/** One picker entry. */
export interface Country {
  /** `+` and the ITU calling code, e.g. `+86`. */
  readonly code: string;
  /** Chinese (simplified) name. */
  readonly zh: string;
  /** Traditional Chinese name, as written in Taiwan. */
  readonly tw: string;
  /** English name. */
  readonly en: string;
  /** ISO 3166 region codes of the territories named (the full list has them; a packed one does not). */
  readonly regions?: readonly string[];
  /** The name in the page's language when it is not Chinese or English (a packed list carries it). */
  readonly local?: string;
}

/** A picker entry with the text the picker shows in the page language. */
export interface CountryOption extends Country {
  /** `${code} ${name}`: its first word is the area code. */
  readonly text: string;
}


/** Languages whose country names come from CLDR (country-names.ts); zh, tw and en names are the list's own. */
const CLDR_LANGS: ReadonlySet<Lang> = new Set(['thai', 'vn', 'id', 'ms']);

/** True when the page language's country names come from CLDR (Thai, Vietnamese, Indonesian, Malay). */
export function hasCldrNames(lang: Lang): boolean {
  return CLDR_LANGS.has(lang);
}

/**
 * The entry's name in a language: the list's simplified Chinese for zh, traditional for tw;
 * for every other language the entry's `local` name (Thai, Vietnamese, Indonesian and Malay
 * names from CLDR, set on the server by country-names.ts withLocalNames), else English.
 * @example countryName(COUNTRIES[5], 'en') // 'Thailand'
 * @example countryName({ ...COUNTRIES[5], local: 'ไทย' }, 'thai') // 'ไทย'
 */
export function countryName(country: Country, lang: Lang): string {
  if (lang === 'zh') return country.zh;
  if (lang === 'tw') return country.tw;
  return (CLDR_LANGS.has(lang) ? country.local : undefined) ?? country.en;
}

/**
 * The text of a picker entry.
 * @example countryEntryText({ code: '+86', zh: '中国大陆', tw: '中國大陸', en: 'Mainland China' }, 'en') // '+86 Mainland China'
 */
export function countryEntryText(country: Country, lang: Lang): string {
  return `${country.code} ${countryName(country, lang)}`;
}

const AREA_CODE = /^\+\d{1,4}$/;

/**
 * The area code of a chosen entry: its first word (spec §2.1), or null when that is not a
 * calling code (`+` and 1-4 digits).
 * @example areaCodeOf('+66 Thailand') // '+66'
 * @example areaCodeOf('Thailand') // null
 */
export function areaCodeOf(entryText: string | null | undefined): string | null {
  const first = (entryText ?? '').trim().split(/\s+/)[0] ?? '';
  return AREA_CODE.test(first) ? first : null;
}

/** Case- and accent-insensitive form for matching ('Côte' matches 'cote'). */
function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * The entries matching what the visitor typed into the picker's search box (spec §2.1):
 * digits (with or without `+`) match the start of the calling code; any other text matches
 * anywhere in a Chinese (simplified or traditional), the English or the page language's name
 * (`local`, Thai 'ไทย'), ignoring case and accents. An empty query
 * matches everything. Picker order is kept.
 * @example searchCountries(COUNTRIES, '85', 'en').map((c) => c.text) // ['+852 Hong Kong', '+853 Macau', '+855 Cambodia', '+856 Laos', '+850 North Korea']
 * @example searchCountries(COUNTRIES, '泰', 'zh')[0]?.text // '+66 泰国'
 */
export function searchCountries(list: readonly Country[], query: string, lang: Lang): CountryOption[] {
  const q = fold(query.trim());
  const digits = /^\+?\d+$/.test(q) ? q.replace(/^\+/, '') : null;
  const matches = (c: Country): boolean =>
    q === '' ||
    (digits !== null
      ? c.code.slice(1).startsWith(digits)
      : fold(c.zh).includes(q) || fold(c.tw).includes(q) || fold(c.en).includes(q) || (c.local !== undefined && fold(c.local).includes(q)));
  return list.filter(matches).map((c) => ({ ...c, text: countryEntryText(c, lang) }));
}

/**
 * The list as one compact string for an island prop: `code|name|en` lines, where `name` is the
 * entry's name in the page's language: Chinese in the page's script (traditional on tw pages,
 * simplified on zh and en pages), or on a Thai, Vietnamese, Indonesian or Malay page its CLDR
 * name, computed here on the server (the browser gets no CLDR code and no Chinese names there).
 * One name besides English per entry keeps the lookup page within its HTML budget.
 * Names never contain `|` or a line break (a test checks).
 */
export function packCountries(list: readonly Country[], lang: Lang = 'zh'): string {
  const name = (c: Country): string => (CLDR_LANGS.has(lang) ? countryName(c, lang) : lang === 'tw' ? c.tw : c.zh);
  return list.map((c) => `${c.code}|${name(c)}|${c.en}`).join('\n');
}

/**
 * The inverse of packCountries for the same page language: its one Chinese name serves zh and tw;
 * on a Thai, Vietnamese, Indonesian or Malay page the name is `local` and the entry has no
 * Chinese names (''). Malformed lines are skipped.
 */
export function unpackCountries(packed: string, lang: Lang = 'zh'): Country[] {
  const local = CLDR_LANGS.has(lang);
  const out: Country[] = [];
  for (const line of packed.split('\n')) {
    const [code, name, en, extra] = line.split('|');
    if (code && name && en && extra === undefined && AREA_CODE.test(code)) {
      out.push(local ? { code, zh: '', tw: '', en, local: name } : { code, zh: name, tw: name, en });
    }
  }
  return out;
}

/**
 * A phone typed in international form ('+66 81 234 5678'): the listed calling code it starts
 * with (the longest, so '+1 242…' is the Bahamas' +1242) and the national number after it,
 * without spaces, dashes, dots or brackets. Null when the phone is not in that form or starts
 * with no listed code. Calling codes are prefix-free but for the NANP (+1 and its members'
 * four-digit entries), which the longest match settles.
 * @example splitInternational('+66 81 234 5678', ['+66', '+86']) // { areaCode: '+66', phone: '812345678' }
 * @example splitInternational('0812345678', ['+66']) // null
 */
export function splitInternational(phone: string, codes: readonly string[]): { areaCode: string; phone: string } | null {
  const m = /^\+(\d+)$/.exec(phone.trim().replace(/[\s\-.()]/g, ''));
  const digits = m?.[1];
  if (digits === undefined) return null;
  let best = '';
  for (const code of codes) {
    const d = code.slice(1);
    if (d.length > best.length && digits.length > d.length && digits.startsWith(d)) best = d;
  }
  return best === '' ? null : { areaCode: `+${best}`, phone: digits.slice(best.length) };
}

/**
 * A lookup form's values with a phone typed in international form read as its calling code and
 * national number (the number says its country, whatever the picker shows); other values as they
 * are. Applied before validation (spec §5), in the island and in the action alike.
 * @example withInternational({ checkType: 1, areaCode: '', phone: '+66 81 234 5678' }, ['+66']) // { checkType: 1, areaCode: '+66', phone: '812345678' }
 */
export function withInternational<T extends { checkType: number; areaCode?: string | null | undefined; phone?: string | null | undefined }>(
  values: T,
  codes: readonly string[],
): T {
  const split = values.checkType === 1 && typeof values.phone === 'string' ? splitInternational(values.phone, codes) : null;
  return split === null ? values : { ...values, ...split };
}
