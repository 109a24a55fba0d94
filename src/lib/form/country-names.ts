/**
 * Country names in the page's language and the picker's order for an expo, on the server
 * (DESIGN.md "Language": islands get strings, not i18n data). Thai, Vietnamese, Indonesian and
 * Malay names come from CLDR through `Intl.DisplayNames` (in Node and workerd), by each entry's
 * ISO 3166 regions (country-list.ts): no name table is shipped, and the browser receives the
 * names of the page's language only (countries.ts packCountries). Not imported by islands.
 */
import { htmlLang, type Lang } from '../core/languages';
import { hasCldrNames, type Country } from './countries';

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

/** The CLDR name of an entry: its regions' names joined like the English ones; English where CLDR has none. */
function cldrName(country: Country, lang: Lang): string {
  const regions = country.regions;
  if (regions === undefined) return country.en;
  const english = country.en.split(' / ');
  return regions.map((r, i) => regionName(r, lang) ?? english[i] ?? r).join(' / ');
}

const localized = new WeakMap<readonly Country[], Map<Lang, readonly Country[]>>();

/**
 * The list with each entry's `local` name in the page language (Thai, Vietnamese, Indonesian,
 * Malay); the list itself for zh, tw and en. Computed once per list and language.
 * @example withLocalNames(COUNTRIES, 'thai')[5]?.local // 'ไทย'
 */
export function withLocalNames(list: readonly Country[], lang: Lang): readonly Country[] {
  if (!hasCldrNames(lang)) return list;
  let byLang = localized.get(list);
  if (byLang === undefined) {
    byLang = new Map();
    localized.set(list, byLang);
  }
  let named = byLang.get(lang);
  if (named === undefined) {
    named = Object.freeze(list.map((c) => Object.freeze({ ...c, local: cldrName(c, lang) })));
    byLang.set(lang, named);
  }
  return named;
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
