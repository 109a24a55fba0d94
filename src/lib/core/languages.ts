/**
 * The product's languages and the rules around them (spec §1): the `_h5_lang` cookie, its
 * 60-day lifetime, the zh fallback and the landing-page dropdown (Chinese 1, English 2, local 3).
 * Pure: no Astro, React or Hono.
 */

/** Language codes as the legacy product spells them (spec §1); also the `src/i18n/<code>.json` names. */
export const LANGS = ['zh', 'en', 'thai', 'vn', 'id', 'tw', 'ms'] as const;

/** One of {@link LANGS}. */
export type Lang = (typeof LANGS)[number];

/** Default and fallback language (spec §1). */
export const DEFAULT_LANG: Lang = 'zh';

/** Name of the cookie that keeps the language (spec §1). */
export const LANG_COOKIE = '_h5_lang';

/** The dropdown stores the language for 60 days (spec §1, §9), in seconds for `Max-Age`. */
export const LANG_COOKIE_MAX_AGE_S = 60 * 24 * 60 * 60;

const LANG_SET: ReadonlySet<string> = new Set(LANGS);

/** True when `x` is one of the language codes. */
export function isLang(x: unknown): x is Lang {
  return typeof x === 'string' && LANG_SET.has(x);
}

/**
 * The language for a `_h5_lang` cookie value: the code itself when known, otherwise zh
 * (spec §1: "default zh", Chinese is the fallback). Surrounding blanks are ignored.
 * @example resolveLang('thai') // 'thai'
 * @example resolveLang('fr') // 'zh'
 */
export function resolveLang(cookieValue: string | undefined | null): Lang {
  const value = cookieValue?.trim();
  return isLang(value) ? value : DEFAULT_LANG;
}

/** BCP 47 tag for the HTML `lang` attribute of each code (the legacy codes are not BCP 47). */
const HTML_LANG: Readonly<Record<Lang, string>> = {
  zh: 'zh-CN',
  en: 'en',
  thai: 'th',
  vn: 'vi',
  id: 'id',
  tw: 'zh-TW',
  ms: 'ms',
};

/**
 * The HTML `lang` attribute for a language code.
 * @example htmlLang('vn') // 'vi'
 */
export function htmlLang(lang: Lang): string {
  return HTML_LANG[lang];
}

/** Each language's name in that language, for the language menu. */
export const LANG_NAMES: Readonly<Record<Lang, string>> = {
  zh: '中文',
  en: 'English',
  thai: 'ไทย',
  vn: 'Tiếng Việt',
  id: 'Bahasa Indonesia',
  tw: '繁體中文',
  ms: 'Bahasa Melayu',
};

/** A landing-page dropdown option: the legacy numeric value and the language it selects. */
export interface DropdownOption {
  readonly value: 1 | 2 | 3;
  readonly lang: Lang;
}

/**
 * The landing-page language dropdown of spec §1: Chinese is 1, English 2 and the event's
 * local language 3. There is no third option when the event has no local language or when
 * it is Chinese or English (already listed).
 * @example dropdownOptions('thai') // [{value:1,lang:'zh'},{value:2,lang:'en'},{value:3,lang:'thai'}]
 */
export function dropdownOptions(localLang: Lang | null): DropdownOption[] {
  const options: DropdownOption[] = [
    { value: 1, lang: 'zh' },
    { value: 2, lang: 'en' },
  ];
  if (localLang !== null && localLang !== 'zh' && localLang !== 'en') {
    options.push({ value: 3, lang: localLang });
  }
  return options;
}

/**
 * The languages the menu offers: only what the page will show, and always what it is showing.
 * A page whose language is forced (spec §2.3's language routes, spec §4's forced expos) offers
 * none; a page shown in a language outside its options (the site-wide cookie says Thai on an
 * event whose options are Chinese and English) lists that language too, so the menu names it.
 * `localLang` undefined: every language; null or a language: the landing dropdown of spec §1.
 * @example menuLangs({ localLang: null, current: 'thai', forced: false }) // ['zh', 'en', 'thai']
 */
export function menuLangs(p: { localLang: Lang | null | undefined; current: Lang; forced: boolean }): Lang[] {
  if (p.forced) return [];
  const options = p.localLang === undefined ? [...LANGS] : dropdownOptions(p.localLang).map((o) => o.lang);
  return options.includes(p.current) ? options : [...options, p.current];
}

/**
 * The language a dropdown value selects, or null for an unknown value (e.g. 3 without a
 * local language). Lets the API turn a posted `1|2|3` into a cookie value.
 * @example langForDropdownValue(3, 'vn') // 'vn'
 */
export function langForDropdownValue(value: unknown, localLang: Lang | null): Lang | null {
  const n = typeof value === 'string' ? Number(value.trim()) : value;
  return dropdownOptions(localLang).find((o) => o.value === n)?.lang ?? null;
}
