/**
 * The registration form's date field in the page language (issue 14): a text field read in
 * the page language's order, not `<input type="date">`, which Chromium, Safari and the
 * messaging apps' in-app browsers draw in the phone's own locale (mm/dd/yyyy on a Chinese or
 * Thai page) whatever the page's `lang`. Chinese pages write year-month-day (2026-05-20,
 * 2026年5月20日), every other language day/month/year (20/05/2026). A four-digit first part is
 * always a year, so ISO dates are read on every page; a Thai page also reads Buddhist-era years
 * (2569 = 2026). The upstream receives `YYYY-MM-DD`.
 */
import type { Lang } from './languages';

/** Year-month-day languages; the others write day/month/year. */
const YMD: ReadonlySet<Lang> = new Set<Lang>(['zh', 'tw']);

/** The Buddhist era runs 543 years ahead (Thai calendars). */
const BUDDHIST_OFFSET = 543;

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD` for a calendar date that exists, else null. */
function iso(y: number, m: number, d: number): string | null {
  const t = new Date(Date.UTC(y, m - 1, d));
  const ok = y >= 1000 && y <= 9999 && t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
  return ok ? `${y}-${pad(m)}-${pad(d)}` : null;
}

/**
 * Reads a typed date in the page language; `YYYY-MM-DD`, or null when it is not a date.
 * Separators: `/`, `-`, `.`, spaces, and 年 月 日.
 * @example parseDate('20/05/2026', 'en') // '2026-05-20'
 * @example parseDate('2026年5月20日', 'zh') // '2026-05-20'
 * @example parseDate('20/05/2569', 'thai') // '2026-05-20'
 */
export function parseDate(text: string, lang: Lang): string | null {
  const parts = text.trim().split(/[\s./\-年月日]+/).filter(Boolean);
  if (parts.length !== 3 || !parts.every((p) => /^\d{1,4}$/.test(p))) return null;
  const [a, b, c] = parts as [string, string, string];
  const ymd = a.length === 4 || (YMD.has(lang) && c.length !== 4);
  let year = Number(ymd ? a : c);
  if ((ymd ? a : c).length !== 4) return null;
  if (lang === 'thai' && year >= 2400) year -= BUDDHIST_OFFSET;
  return ymd ? iso(year, Number(b), Number(c)) : iso(year, Number(b), Number(a));
}

/**
 * A stored `YYYY-MM-DD` written the page language's way (other text is returned as it is).
 * @example formatDate('2026-05-20', 'en') // '20/05/2026'
 * @example formatDate('2026-05-20', 'tw') // '2026-05-20'
 */
export function formatDate(value: string, lang: Lang): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m || YMD.has(lang)) return value;
  return `${m[3]}/${m[2]}/${m[1]}`;
}
