/**
 * The i18n runtime: plain i18next over the seven inline catalogues (DESIGN.md "Language").
 *
 * Not astro-i18next: it answers 500 on every server-rendered route on workerd (STACK.md "i18n").
 * i18next is initialised synchronously (`initAsync: false`) with the JSON files bundled in,
 * so a translator is ready on the first request with no file system and no fetch.
 * This runs on the server only: pages hand islands the few strings they need ({@link pick}).
 */
import i18next, { type i18n as I18n } from 'i18next';
import { DEFAULT_LANG, LANGS, type Lang } from '../lib/page/languages';
import en from './en.json';
import id from './id.json';
import ms from './ms.json';
import thai from './thai.json';
import tw from './tw.json';
import vn from './vn.json';
import zh from './zh.json';

/** Every key of the catalogue; en.json is the reference, so a misspelled key fails typecheck. */
export type TranslationKey = keyof typeof en;

/** One language's catalogue: a string for every key. */
export type Messages = Readonly<Record<TranslationKey, string>>;

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
  return Object.hasOwn(en, key);
}

/**
 * Builds a `createT` over any set of catalogues (one i18next instance, created here, once).
 * The app uses {@link createT}; tests use this to prove the fallback with a partial catalogue.
 */
export function createTranslator<K extends string>(
  resources: Readonly<Partial<Record<Lang, Readonly<Record<K, string>>>>>,
): (lang: Lang) => Translate<K> {
  const instance: I18n = i18next.createInstance();
  void instance.init({
    initAsync: false,
    resources: Object.fromEntries(
      Object.entries(resources).map(([lang, messages]) => [lang, { translation: messages }]),
    ),
    lng: DEFAULT_LANG,
    fallbackLng: DEFAULT_LANG,
    supportedLngs: [...LANGS],
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
      const fixed = instance.getFixedT(lang);
      // `replace` keeps caller variables apart from i18next's own options (lng, ns, count…).
      translate = (key, vars) => {
        const k: string = key;
        return String(vars === undefined ? fixed(k) : fixed(k, { replace: vars }));
      };
      cache.set(lang, translate);
    }
    return translate;
  };
}

/**
 * The translator for a language; missing keys fall back to zh (spec §1).
 * Cheap to call per request: the instance and each language's translator are made once.
 * @example createT('en')('search.countdown', { n: 59 }) // 'Getting now (59)'
 */
export const createT: (lang: Lang) => Translate = createTranslator(MESSAGES);

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
