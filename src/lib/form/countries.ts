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
import { htmlLang, type Lang } from '../page/languages';

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


/** Languages whose names come from CLDR (`Intl.DisplayNames`); zh, tw and en names are the list's own. */
const CLDR_LANGS: ReadonlySet<Lang> = new Set(['thai', 'vn', 'id', 'ms']);

/**
 * Regions whose CLDR long name is an administrative title ("Hong Kong SAR China",
 * "เขตปกครองพิเศษฮ่องกงแห่งสาธารณรัฐประชาชนจีน"): the short name is the one people type.
 * Elsewhere the short name is an abbreviation ("AS" for the United States), so the long one is used.
 */
const SHORT_NAMED: ReadonlySet<string> = new Set(['HK', 'MO', 'PS']);

const displayNames = new Map<string, Intl.DisplayNames>();
function regionName(region: string, lang: Lang): string | undefined {
  const style = SHORT_NAMED.has(region) ? 'short' : 'long';
  const key = `${lang} ${style}`;
  let names = displayNames.get(key);
  if (names === undefined) {
    names = new Intl.DisplayNames([htmlLang(lang)], { type: 'region', style, fallback: 'none' });
    displayNames.set(key, names);
  }
  return names.of(region);
}

/**
 * The entry's name in a language: the list's simplified Chinese for zh, traditional for tw,
 * English for en; Thai, Vietnamese, Indonesian and Malay names come from CLDR
 * (`Intl.DisplayNames`, in Node and workerd), computed on the server. A region CLDR does not
 * name keeps the English name.
 * @example countryName(COUNTRIES[5], 'thai') // 'ไทย'
 */
export function countryName(country: Country, lang: Lang): string {
  if (lang === 'zh') return country.zh;
  if (lang === 'tw') return country.tw;
  if (!CLDR_LANGS.has(lang)) return country.en;
  if (country.local !== undefined) return country.local;
  const regions = country.regions;
  if (regions === undefined) return country.en;
  const english = country.en.split(' / ');
  return regions.map((r, i) => regionName(r, lang) ?? english[i] ?? r).join(' / ');
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
 * The list as one compact string for an island prop: `code|chinese|en` lines, where `chinese`
 * is the page's Chinese script (traditional on tw pages, simplified elsewhere): the page ships
 * one Chinese name per entry, not two (the lookup page's HTML budget). On a Thai, Vietnamese,
 * Indonesian or Malay page a fourth field holds the name in that language (computed here, on
 * the server: the browser gets the names of the page's language only, and no CLDR code).
 * Names never contain `|` or a line break (a test checks).
 */
export function packCountries(list: readonly Country[], lang: Lang = 'zh'): string {
  const local = CLDR_LANGS.has(lang);
  return list
    .map((c) => `${c.code}|${lang === 'tw' ? c.tw : c.zh}|${c.en}${local ? `|${countryName(c, lang)}` : ''}`)
    .join('\n');
}

/** The inverse of packCountries (its one Chinese name serves zh and tw); malformed lines are skipped. */
export function unpackCountries(packed: string): Country[] {
  const out: Country[] = [];
  for (const line of packed.split('\n')) {
    const [code, zh, en, local, extra] = line.split('|');
    if (code && zh && en && local !== '' && extra === undefined && AREA_CODE.test(code)) {
      out.push(local === undefined ? { code, zh, tw: zh, en } : { code, zh, tw: zh, en, local });
    }
  }
  return out;
}

/**
 * The calling code of an expo's own market, by the currency it sells in, when that market is not
 * among the spec's first seven entries (spec §3 lists China, Hong Kong, Macau, Taiwan, Vietnam,
 * Thailand and Indonesia first; THB, IDR and VND events keep that order).
 */
const MARKET_CALLING_CODES: Readonly<Record<string, string>> = { MYR: '+60', SGD: '+65' };

/**
 * The picker order for an expo: its own market's entry first (Malaysia +60 for an event selling
 * in MYR, Singapore +65 in SGD), then the list in its order (spec §3's first seven next).
 * @example pickerOrder(COUNTRIES, 'MYR')[0]?.en // 'Malaysia'
 * @example pickerOrder(COUNTRIES, 'CNY')[0]?.en // 'Mainland China'
 */
export function pickerOrder(list: readonly Country[], currency: string): readonly Country[] {
  const code = MARKET_CALLING_CODES[currency];
  const market = code === undefined ? undefined : list.find((c) => c.code === code);
  return market === undefined ? list : [market, ...list.filter((c) => c !== market)];
}

/**
 * A phone typed in international form ('+66 81 234 5678'): the listed calling code it starts
 * with (the longest, so '+1 242…' is the Bahamas' +1242) and the national number after it,
 * without spaces, dashes, dots or brackets. Null when the phone is not in that form or starts
 * with no listed code. ITU calling codes are prefix-free, so the split is unambiguous.
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
