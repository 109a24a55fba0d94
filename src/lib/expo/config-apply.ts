/**
 * Config application (spec §4 "Config application", §3 constants): what a loaded customer
 * config does to a page: the language it renders in, the image and the document title; and
 * what an ended expo shows (spec §4 "Expo end time passed"). Pure: no Astro, React or Hono.
 *
 * "Forces" means: the page renders in that language whatever the `_h5_lang` cookie says. The
 * cookie is NOT rewritten: it is the visitor's own choice, kept for the other events they open
 * (one cookie serves every expo on this site), and a forced page would otherwise change the
 * language of the next, unforced one.
 */
import type { Lang } from '../core/languages';
import { exposWith } from './expos';

export { pageImage } from './view';

/** Spec §3 "English events". */
export const ENGLISH_EXPO_IDS: ReadonlySet<number> = exposWith('english');
/** Spec §3 "Thai 1179": the Bangkok event opens in Thai for a visitor who chose no language. */
export const THAI_EXPO_IDS: ReadonlySet<number> = exposWith('thai');

/**
 * Spec §3 "an all-expo list of 16 ids (contents not shown)": signType 4 pages of these expos
 * keep the visitor's language. Our choice: the 16 expos of spec §2.2/§2.4 that have their own
 * variant (they carry their own languages and the language menu), i.e. the §2.2 table plus
 * Baigou (976), the image page (1142) and the two-tab expo (1177).
 */
export const ALL_EXPO_IDS: ReadonlySet<number> = exposWith('allExpoList');

/** Expo 1308 renders in Chinese except for these configs (spec §2.2, §4). */
export const IEAE_EXPO_ID = 1308;
export const IEAE_SPECIAL_WX_IDS: ReadonlySet<number> = new Set([5959, 6309]);

/** The config fields language application reads. */
export interface LangConfig {
  id?: number | null;
  signType?: number | null;
  languageType?: number | null;
}

/** Why a page renders in a language (for tests and logs). */
export type LangReason = 'ieae-chinese' | 'sign-type-2' | 'sign-type-4' | 'english-expo' | 'thai-expo' | 'visitor' | 'route';

export interface LangDecision {
  lang: Lang;
  /** true when the page ignores the cookie */
  forced: boolean;
  reason: LangReason;
}

interface LangRule {
  reason: Exclude<LangReason, 'visitor' | 'route'>;
  when: (expoId: number, wx: LangConfig) => boolean;
  lang: (wx: LangConfig) => Lang;
  /** false: applies only when the visitor has chosen no language (no cookie) */
  force: boolean;
}

/**
 * The rules, first match wins (spec §4 lists signType first; 1308 is the narrower rule and wins).
 * "Listed English expos use Thai strings with English locale": the legacy shipped those events'
 * English text under its Thai message table; our en.json holds real English, so these events
 * simply default to English (the visitor's own choice of language still stands).
 */
export const LANG_RULES: readonly LangRule[] = [
  {
    reason: 'ieae-chinese',
    when: (expoId, wx) => expoId === IEAE_EXPO_ID && !IEAE_SPECIAL_WX_IDS.has(wx.id ?? -1),
    lang: () => 'zh',
    force: true,
  },
  { reason: 'sign-type-2', when: (_e, wx) => wx.signType === 2, lang: () => 'en', force: true },
  {
    reason: 'sign-type-4',
    when: (expoId, wx) => wx.signType === 4 && !ALL_EXPO_IDS.has(expoId),
    lang: (wx) => (wx.languageType == null || wx.languageType === 1 ? 'zh' : 'en'),
    force: true,
  },
  { reason: 'english-expo', when: (expoId) => ENGLISH_EXPO_IDS.has(expoId), lang: () => 'en', force: false },
  { reason: 'thai-expo', when: (expoId) => THAI_EXPO_IDS.has(expoId), lang: () => 'thai', force: false },
];

/**
 * The language a page of this expo renders in.
 * @param cookieLang the `_h5_lang` cookie's language, or null when the visitor has none
 * @example pageLang({ expoId: 2002, wx: { signType: 2 }, cookieLang: 'zh' }) // { lang: 'en', forced: true, reason: 'sign-type-2' }
 */
export function pageLang(input: { expoId: number; wx: LangConfig | null; cookieLang: Lang | null }): LangDecision {
  const wx = input.wx ?? {};
  for (const rule of LANG_RULES) {
    if (!rule.when(input.expoId, wx)) continue;
    if (!rule.force && input.cookieLang !== null) break;
    return { lang: rule.lang(wx), forced: rule.force, reason: rule.reason };
  }
  return { lang: input.cookieLang ?? 'zh', forced: false, reason: 'visitor' };
}

/** The document title (spec §4 "Document title from formTitle"), else the fallback. */
export function documentTitle(wx: { formTitle?: string | null } | null, fallback: string): string {
  return wx?.formTitle?.trim() || fallback;
}

// ---- Expo ended (spec §4) ----

/**
 * Expo-local time: `endTime` is "YYYY-MM-DD HH:mm:ss" in the expo's own zone (docs/upstream.md),
 * and the wire carries no zone. We read it as UTC+8 (China Standard Time, the organisers'
 * zone); an event elsewhere closes at most a few hours early or late.
 */
export const EXPO_UTC_OFFSET_MINUTES = 8 * 60;

/**
 * The instant an `endTime` stands for, in ms; null when it is missing or not a date.
 * @example endInstant('2024-06-30 18:00:00') // Date.UTC(2024, 5, 30, 10)
 */
export function endInstant(endTime: string | null | undefined, offsetMinutes = EXPO_UTC_OFFSET_MINUTES): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(endTime?.trim() ?? '');
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = m;
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  return Number.isNaN(utc) ? null : utc - offsetMinutes * 60_000;
}

/** Whether the expo has ended at `now` (ms). */
export function expoEnded(endTime: string | null | undefined, now: number): boolean {
  const end = endInstant(endTime);
  return end !== null && now > end;
}

/** What an ended expo's page shows (spec §4): a notice, or (1042) the form. */
export type EndedOutcome =
  { kind: 'notice'; key: 'error.openingSoon' | 'error.expoOver' } | { kind: 'redirect-form' } | { kind: 'none' };

/** Per-expo outcomes (spec §4 "expo 343 … expo 1042 …"); every other expo: the generic tip. */
const ENDED_BY_EXPO: ReadonlyMap<number, EndedOutcome> = new Map<number, EndedOutcome>([
  ...[...exposWith('endedOpeningSoon')].map((id): [number, EndedOutcome] => [id, { kind: 'notice', key: 'error.openingSoon' }]),
  ...[...exposWith('endedGoesToForm')].map((id): [number, EndedOutcome] => [id, { kind: 'redirect-form' }]),
]);

/**
 * The outcome for a page: nothing while the expo runs; the notice (an alert without a confirm
 * button); for 1042 the form, unless the page is already a form.
 */
export function endedOutcome(input: {
  expoId: number;
  endTime: string | null | undefined;
  now: number;
  onFormPage: boolean;
}): EndedOutcome {
  if (!expoEnded(input.endTime, input.now)) return { kind: 'none' };
  const outcome = ENDED_BY_EXPO.get(input.expoId) ?? { kind: 'notice', key: 'error.expoOver' };
  if (outcome.kind === 'redirect-form' && input.onFormPage) return { kind: 'none' };
  return outcome;
}
