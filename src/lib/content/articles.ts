/**
 * The expo's articles (spec §2.3 `/article`, §7 `expoInfo/getArticleList`; docs/upstream.md
 * "Articles"): what a row shows and how the list pages without JavaScript (links). Pure.
 */
import { httpUrl, imageSrc } from './links';

/** Articles on one page of the list. */
export const ARTICLE_PAGE_SIZE = 10;
/** The highest page number a link may ask for (the contract's own bound). */
export const ARTICLE_PAGE_MAX = 1000;

/** An article as the upstream client reads it (src/lib/contract/pages.ts). */
export interface ArticleIn {
  id: number | null;
  title: string;
  summary: string;
  coverImg: string;
  publishTime: string;
  url: string;
}

/** An article as the page shows it: a link only to an http(s) address, an image only where allowed. */
export interface ArticleView {
  key: string;
  title: string;
  summary: string;
  /** `YYYY-MM-DD` (a machine-readable date for `<time>`), or null when the upstream sent none */
  date: string | null;
  image: string | null;
  href: string | null;
}

const DATE = /^(\d{4}-\d{2}-\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2})?)?/;

/**
 * The day of a `publishTime` (`YYYY-MM-DD HH:mm:ss`, expo-local like every time of the contract),
 * or null when it is not one.
 * @example articleDate('2026-11-20 09:00:00') // '2026-11-20'
 */
export function articleDate(publishTime: string): string | null {
  const m = DATE.exec(publishTime.trim());
  if (!m?.[1]) return null;
  const [y, mo, d] = m[1].split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d ? m[1] : null;
}

/**
 * An article row as shown.
 * @example articleView({ id: 1, title: 'T', summary: '', coverImg: '', publishTime: '', url: 'javascript:x' }, 0).href // null
 */
export function articleView(a: ArticleIn, index: number): ArticleView {
  return {
    key: a.id === null ? `i${index}` : String(a.id),
    title: a.title,
    summary: a.summary,
    date: articleDate(a.publishTime),
    image: imageSrc(a.coverImg),
    href: httpUrl(a.url),
  };
}

/**
 * The page a `?page=` asks for: a whole number from 1 to {@link ARTICLE_PAGE_MAX}; anything else is page 1.
 * @example pageParam('3') // 3
 * @example pageParam('-1') // 1
 */
export function pageParam(raw: string | null): number {
  const text = (raw ?? '').trim();
  if (!/^\d{1,7}$/.test(text)) return 1;
  return Math.min(ARTICLE_PAGE_MAX, Math.max(1, Number(text)));
}

/** Which neighbours a page links to. */
export interface Paging {
  page: number;
  prev: number | null;
  next: number | null;
  /** the number of pages, when the upstream sent a total */
  last: number | null;
}

/**
 * The list's paging: a next page when the total says there is one (without a total: when this
 * page is full), a previous page from page 2 on.
 * @example paging({ page: 2, size: 10, shown: 10, total: 23 }) // { page: 2, prev: 1, next: 3, last: 3 }
 */
export function paging(p: { page: number; size: number; shown: number; total: number | null }): Paging {
  const last = p.total === null ? null : Math.max(1, Math.ceil(p.total / p.size));
  const more = last === null ? p.shown >= p.size : p.page < last;
  return {
    page: p.page,
    prev: p.page > 1 ? (last === null ? p.page - 1 : Math.min(p.page - 1, last)) : null,
    next: more && p.page < ARTICLE_PAGE_MAX ? p.page + 1 : null,
    last,
  };
}
