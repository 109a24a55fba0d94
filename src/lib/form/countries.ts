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
import type { Lang } from '../page/languages';

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
}

/** A picker entry with the text the picker shows in the page language. */
export interface CountryOption extends Country {
  /** `${code} ${name}`: its first word is the area code. */
  readonly text: string;
}


/** Simplified Chinese names for zh, traditional for tw, English for every other language. */
export function countryName(country: Country, lang: Lang): string {
  return lang === 'zh' ? country.zh : lang === 'tw' ? country.tw : country.en;
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
 * anywhere in a Chinese (simplified or traditional) or the English name, ignoring case and accents. An empty query
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
      : fold(c.zh).includes(q) || fold(c.tw).includes(q) || fold(c.en).includes(q));
  return list.filter(matches).map((c) => ({ ...c, text: countryEntryText(c, lang) }));
}

/**
 * The list as one compact string for an island prop: `code|chinese|en` lines, where `chinese`
 * is the page's Chinese script (traditional on tw pages, simplified elsewhere): the page ships
 * one Chinese name per entry, not two (the lookup page's HTML budget). Names never contain `|`
 * or a line break (a test checks).
 */
export function packCountries(list: readonly Country[], lang: Lang = 'zh'): string {
  return list.map((c) => `${c.code}|${lang === 'tw' ? c.tw : c.zh}|${c.en}`).join('\n');
}

/** The inverse of packCountries (its one Chinese name serves zh and tw); malformed lines are skipped. */
export function unpackCountries(packed: string): Country[] {
  const out: Country[] = [];
  for (const line of packed.split('\n')) {
    const [code, zh, en, extra] = line.split('|');
    if (code && zh && en && extra === undefined && AREA_CODE.test(code)) out.push({ code, zh, tw: zh, en });
  }
  return out;
}
