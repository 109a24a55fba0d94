/**
 * The i18n runtime: plain i18next over the seven inline catalogues (DESIGN.md "Language").
 *
 * Not astro-i18next: it answers 500 on every server-rendered route on workerd (STACK.md "i18n").
 * i18next is initialised synchronously (`initAsync: false`) with the JSON files bundled in,
 * so a translator is ready on the first request with no file system and no fetch.
 * This runs on the server only: pages hand islands the few strings they need ({@link pick}).
 */
import i18next, { type i18n as I18n } from 'i18next';
import { DEFAULT_LANG, LANGS, htmlLang, type Lang } from '../lib/core/languages';
import en from './en.json';
import id from './id.json';
import ms from './ms.json';
import thai from './thai.json';
import tw from './tw.json';
import vn from './vn.json';
import zh from './zh.json';

/** Every key of the English file, plural forms included (`site.placesLeft_one`, `_other`). */
type CatalogueKey = keyof typeof en;

/** Plural suffixes (i18next, CLDR categories). English has `one` and `other`; th, vi, id, ms, zh only `other`. */
type PluralSuffix = 'one' | 'other';

/** A key written in plural forms, by its base name (`site.placesLeft` for `site.placesLeft_other`). */
type PluralBase<K> = K extends `${infer B}_other` ? B : never;

/**
 * Every key a caller may ask for; en.json is the reference, so a misspelled key fails typecheck.
 * A plural key is asked for by its base name with a `count` variable:
 * `t('site.placesLeft', { count: 3 })` picks `site.placesLeft_one` or `_other` by the language's rules.
 */
export type TranslationKey = Exclude<CatalogueKey, `${string}_${PluralSuffix}`> | PluralBase<CatalogueKey>;

/**
 * One language's catalogue: a string for every key; `_one` forms are optional, because a
 * language with one plural form (Thai, Vietnamese, Indonesian, Malay, Chinese) has only `_other`.
 */
export type Messages = Readonly<
  Record<Exclude<CatalogueKey, `${string}_one`>, string> & Partial<Record<Extract<CatalogueKey, `${string}_one`>, string>>
>;

/** Values for `{{var}}` placeholders. */
export type TranslationVars = Readonly<Record<string, string | number>>;

/** A translator bound to one language. */
export type Translate<K extends string = TranslationKey> = (key: K, vars?: TranslationVars) => string;

/**
 * All catalogues by language. Typed as `Messages`, so a file that lacks a key of en.json
 * fails typecheck as well as tests/unit/i18n.test.ts.
 */
export const MESSAGES: Readonly<Record<Lang, Messages>> = { zh, en, thai, vn, id, tw, ms };

/** True when `key` is a catalogue key; use it to narrow computed keys like `class.${n}`. */
export function isTranslationKey(key: string): key is TranslationKey {
  return (Object.hasOwn(en, key) && !/_(?:one|other)$/.test(key)) || Object.hasOwn(en, `${key}_other`);
}

/**
 * Builds a `createT` over any set of catalogues (one i18next instance, created here, once).
 * The app uses {@link createT}; tests use this to prove the fallback with a partial catalogue.
 */
export function createTranslator<K extends string>(
  // Catalogue keys are not the keys callers ask for: a plural key is asked for by its base name.
  resources: Readonly<Partial<Record<Lang, Readonly<Partial<Record<string, string>>>>>>,
): (lang: Lang) => Translate<K> {
  const instance: I18n = i18next.createInstance();
  // i18next picks plural forms with Intl.PluralRules(language code); the legacy codes are not
  // BCP 47 ('thai' is refused, 'vn' and 'tw' resolve to English rules), so the catalogues are
  // registered under their BCP 47 tags (th, vi, zh-TW…) and each language gets its own rules.
  const tag = (lang: Lang): string => htmlLang(lang);
  void instance.init({
    initAsync: false,
    resources: Object.fromEntries(
      Object.entries(resources).map(([lang, messages]) => [tag(lang as Lang), { translation: messages }]),
    ),
    lng: tag(DEFAULT_LANG),
    fallbackLng: tag(DEFAULT_LANG),
    supportedLngs: LANGS.map(tag),
    // 'zh-TW' must not also look under 'zh' (no such catalogue): each tag is exact.
    load: 'currentOnly',
    // Keys are flat and contain dots ('search.phone'); they are not paths into nested objects.
    keySeparator: false,
    nsSeparator: false,
    // An empty string in a catalogue counts as missing, so the zh text shows instead.
    returnEmptyString: false,
    interpolation: {
      // Astro escapes every expression when it renders ({t('x')} in a template), and React
      // does the same for islands' props; escaping here as well would show `&amp;` to users.
      escapeValue: false,
    },
  });
  const cache = new Map<Lang, Translate<K>>();
  return (lang) => {
    let translate = cache.get(lang);
    if (translate === undefined) {
      const fixed = instance.getFixedT(tag(lang));
      // `replace` keeps caller variables apart from i18next's own options (lng, ns…); only a
      // numeric `count` is handed to i18next as well, to choose the plural form.
      translate = (key, vars) => {
        const k: string = key;
        if (vars === undefined) return String(fixed(k));
        const count = vars['count'];
        return String(typeof count === 'number' ? fixed(k, { replace: vars, count }) : fixed(k, { replace: vars }));
      };
      cache.set(lang, translate);
    }
    return translate;
  };
}

/**
 * The translator for a language; missing keys fall back to zh (spec §1).
 * Cheap to call per request: the instance and each language's translator are made once.
 * @example createT('en')('search.countdown', { n: 59 }) // 'Resend in 59 s'
 * @example createT('en')('site.placesLeft', { count: 1 }) // '1 place left'
 */
export const createT: (lang: Lang) => Translate = createTranslator<TranslationKey>(MESSAGES);

/**
 * The small object of strings a page passes to an island as props (islands carry no i18n
 * runtime: DESIGN.md "Language").
 * @example pick(t, ['search.sendCode', 'search.reget']) // { 'search.sendCode': 'Get code', ... }
 */
export function pick<K extends TranslationKey>(t: Translate, keys: readonly K[]): Record<K, string> {
  const strings = {} as Record<K, string>;
  for (const key of keys) strings[key] = t(key);
  return strings;
}
