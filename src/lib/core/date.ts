/**
 * The registration form's date field in the page language: a text field read in
 * the page language's order, not `<input type="date">`, which Chromium, Safari and the
 * messaging apps' in-app browsers draw in the phone's own locale (mm/dd/yyyy on a Chinese or
 * Thai page) whatever the page's `lang`. Chinese pages write year-month-day (2026-05-20,
 * 2026年5月20日), every other language day/month/year (20/05/2026). A four-digit first part is
 * always a year, so ISO dates are read on every page. Thai pages count years in the Buddhist era
 * (BE = CE + 543, 2569 = 2026): a Thai page reads a year above 2400 as BE (no visitor types a
 * Gregorian year that far ahead, and no BE year of a living person is below it) and any other
 * as Gregorian, and writes dates back in BE. The upstream receives `YYYY-MM-DD` (Gregorian).
 */
import type { Lang } from './languages';

/** Year-month-day languages; the others write day/month/year. */
const YMD: readonly Lang[] = ['zh', 'tw'];

/** The Buddhist era runs 543 years ahead (Thai calendars). */
const BUDDHIST_OFFSET = 543;

/** Languages whose pages count years in the Buddhist era. */
const BUDDHIST: readonly Lang[] = ['thai'];

/** On a Buddhist-era page, a typed year above this is a BE year; at or below it, Gregorian. */
const BUDDHIST_FROM = 2400;

/**
 * The Gregorian year of a year typed on a page of `lang`.
 * @example gregorianYear(2569, 'thai') // 2026
 * @example gregorianYear(2026, 'thai') // 2026
 * @example gregorianYear(2569, 'en') // 2569
 */
export function gregorianYear(year: number, lang: Lang): number {
  return BUDDHIST.includes(lang) && year > BUDDHIST_FROM ? year - BUDDHIST_OFFSET : year;
}

/**
 * The year a page of `lang` writes for a Gregorian year.
 * @example displayYear(2026, 'thai') // 2569
 * @example displayYear(2026, 'vn') // 2026
 */
export function displayYear(year: number, lang: Lang): number {
  return BUDDHIST.includes(lang) ? year + BUDDHIST_OFFSET : year;
}

/**
 * Reads a typed date in the page language; `YYYY-MM-DD`, or null when it is not a date.
 * Separators: `/`, `-`, `.`, spaces, and 年 月 日.
 * @example parseDate('20/05/2026', 'en') // '2026-05-20'
 * @example parseDate('2026年5月20日', 'zh') // '2026-05-20'
 * @example parseDate('20/05/2569', 'thai') // '2026-05-20'
 */
export function parseDate(text: string, lang: Lang): string | null {
  const p = text.trim().split(/[\s./\-年月日]+/).filter(Boolean);
  const [a = '', b = '', c = ''] = p;
  const ymd = a.length === 4 || (YMD.includes(lang) && c.length !== 4);
  const [y, m, d] = (ymd ? [a, b, c] : [c, b, a]).map(Number) as [number, number, number];
  const year = gregorianYear(y, lang);
  const t = new Date(Date.UTC(year, m - 1, d));
  const ok = p.length === 3 && /^\d{4}$/.test(ymd ? a : c) && /^\d\d?$/.test(b) && /^\d\d?$/.test(ymd ? c : a);
  // The date must exist (no 31/02) and have a four-digit year from 1000.
  return ok && year >= 1000 && t.getUTCMonth() === m - 1 && t.getUTCDate() === d ? t.toISOString().slice(0, 10) : null;
}

/**
 * A stored `YYYY-MM-DD` written the page language's way (other text is returned as it is).
 * @example formatDate('2026-05-20', 'en') // '20/05/2026'
 * @example formatDate('2026-05-20', 'tw') // '2026-05-20'
 * @example formatDate('2026-05-20', 'thai') // '20/05/2569'
 */
export function formatDate(value: string, lang: Lang): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m || YMD.includes(lang)) return value;
  return `${m[3]}/${m[2]}/${displayYear(Number(m[1]), lang)}`;
}
