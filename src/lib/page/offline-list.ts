/**
 * The shared link offline: what the service worker (src/lib/page/sw-script.ts) shows when the
 * visitor re-opens the link they were sent (the event home `/{fId}/{eid}/{ty}`, its lookup, or
 * any other `…/{fId}/{eid}/{ty}` page of the expo) without a network: a small page listing the
 * credentials and paid e-tickets of THAT expo this phone holds offline copies of, each with when
 * it was last updated and a link to its copy. Copies of another expo are never listed.
 *
 * Each stored page names what it is in the {@link OFFLINE_COPY_HEADER} response header
 * ({@link copyMetaHeader}: the expo, credential or e-ticket, its registration codes, the expo's
 * UTC offset and the page language); the worker adds {@link OFFLINE_SAVED_HEADER} (when it stored
 * the copy). Nothing else is kept: the listing is built from the copies already held.
 *
 * The functions the worker runs ({@link readCopyMeta}, {@link expoOfLink}, {@link voidedCopies}, {@link offlineListPage})
 * are self-contained: the worker's script embeds their source, so each uses nothing outside its body.
 */

/** Response header of a page the worker may keep: what the copy is (see {@link copyMetaHeader}). */
export const OFFLINE_COPY_HEADER = 'x-offline-copy';
/** Header the worker adds to a stored copy: when it was stored (ms since the epoch). */
export const OFFLINE_SAVED_HEADER = 'x-offline-saved';

/** What a stored copy is. */
export interface CopyMeta {
  expo: number;
  kind: 'credential' | 'ticket';
  /** the registration codes it shows (one for a credential, one per ticket of an order) */
  codes: string[];
  /** the expo's UTC offset in minutes (src/lib/tickets/money.ts marketOf) */
  offset: number;
  /** the page language (a catalogue code, src/lib/core/languages.ts) */
  lang: string;
}

/**
 * The header value of a copy: a query string, ASCII only.
 * @example copyMetaHeader({ expo: 1308, kind: 'credential', codes: ['ABC'], offset: 480, lang: 'en' }) // 'e=1308&k=credential&c=ABC&o=480&l=en'
 */
export function copyMetaHeader(meta: CopyMeta): string {
  return `e=${meta.expo}&k=${meta.kind}&c=${meta.codes.map(encodeURIComponent).join(',')}&o=${meta.offset}&l=${encodeURIComponent(meta.lang)}`;
}

/**
 * Reads a copy's header; null for anything that is not one. Self-contained (embedded in the worker).
 * @example readCopyMeta('e=1308&k=ticket&c=A,B&o=480&l=thai')?.codes // ['A', 'B']
 * @example readCopyMeta(null) // null
 */
export function readCopyMeta(value: string | null | undefined): CopyMeta | null {
  if (typeof value !== 'string' || value.length > 2000) return null;
  const q = new URLSearchParams(value);
  const expo = q.get('e') ?? '';
  const kind = q.get('k');
  const offset = q.get('o') ?? '';
  const codes = (q.get('c') ?? '').split(',').filter((c) => /^[A-Za-z0-9_-]{1,64}$/.test(c));
  if (!/^\d{1,12}$/.test(expo) || (kind !== 'credential' && kind !== 'ticket') || !/^-?\d{1,4}$/.test(offset) || codes.length === 0) return null;
  return { expo: Number(expo), kind, codes, offset: Number(offset), lang: q.get('l') ?? '' };
}

/**
 * The expo a link of the `[/{name}]/{fId}/{eid}[/{ty}]` family names (src/lib/core/routes.ts:
 * the home, a lookup, the forms, the purchase pages): `eid` read as DESIGN.md says (base64url of
 * the decimal, or the plain decimal); null for any other path. Self-contained (embedded in the worker).
 * @example expoOfLink('/21308/MTMwOA/visitor') // 1308
 * @example expoOfLink('/IEAESearch/10542/MTMwOA/visitor') // 1308
 * @example expoOfLink('/success/MjEzMDg/QUJD/MTMwOA/21308') // null
 */
export function expoOfLink(pathname: string): number | null {
  const parts = pathname.split('/').filter(Boolean);
  if (parts.length > 0 && !/^\d+$/.test(parts[0] ?? '')) {
    if (!/^[A-Za-z][A-Za-z0-9_]{0,40}$/.test(parts[0] ?? '') || /^(api|qr|pass|gate|dev|custom|auth|wx)$/.test(parts[0] ?? '')) return null;
    parts.shift();
  }
  const [fId = '', eid = '', ty = '', ...extra] = parts;
  if (extra.length > 0 || !/^\d{1,12}$/.test(fId) || !/^[A-Za-z0-9_-]{0,32}$/.test(ty) || !/^[A-Za-z0-9_+/=-]{1,24}$/.test(eid)) return null;
  let text = eid;
  if (!/^\d{1,12}$/.test(eid)) {
    try {
      const b64 = eid.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
      text = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    } catch {
      return null;
    }
  }
  return /^\d{1,12}$/.test(text) && Number(text) > 0 ? Number(text) : null;
}

/**
 * The stored copies a fresh answer for a kept page makes void: when the page answers 200 without
 * being kept any more (a refunded or cancelled order, a void credential) or 404/410 (the order or
 * the credential is gone), every copy of the same order or credential goes, not only the URL just
 * asked: an order is kept under two pages (`/orderDetails/…?orderNo=` and `/ticketSuccess/…?orderNo=`),
 * a credential under any of its routes and queries, and the offline list must not list what the
 * network just said is over (issue 23 review). Any other answer (5xx, 429, 403) says nothing about
 * the copy: none goes. URLs are path and query; `stored` holds only kept pages. Self-contained
 * (embedded in the worker).
 * @example voidedCopies('/orderDetails/21216/MTIxNg/visitor?orderNo=A', 200, false, ['/ticketSuccess/21216/MTIxNg/visitor?orderNo=A']) // ['/ticketSuccess/21216/MTIxNg/visitor?orderNo=A']
 * @example voidedCopies('/success/a/b/c/1', 503, false, ['/success/a/b/c/1']) // []
 */
export function voidedCopies(answered: string, status: number, kept: boolean, stored: readonly string[]): string[] {
  if (kept || !(status === 200 || status === 404 || status === 410)) return [];
  // what a copy is a copy of: an order (its expo's path and its number) or a credential (its four segments)
  const identity = (url: string): string | null => {
    let u: URL;
    try {
      u = new URL(url, 'https://copy.invalid');
    } catch {
      return null;
    }
    const parts = u.pathname.split('/').filter(Boolean);
    const orderNo = u.searchParams.get('orderNo');
    if (parts[0] === 'orderDetails' || parts[0] === 'ticketSuccess') return orderNo ? `order:${parts.slice(1).join('/')}?${orderNo}` : null;
    return parts.length === 5 ? `credential:${parts.slice(1).join('/')}` : null;
  };
  const gone = identity(answered);
  if (gone === null) return [];
  return stored.filter((url) => identity(url) === gone);
}

/** One stored copy as the worker read it from its cache. */
export interface StoredCopy {
  /** the copy's path and query (same origin) */
  url: string;
  meta: CopyMeta;
  /** when the worker stored it (ms) */
  savedAt: number;
}

/** The offline page's words in one language (catalogue namespace `offlineLink`). */
export interface OfflineWords {
  title: string;
  intro: string;
  /** `{{code}}` */
  credential: string;
  /** `{{codes}}` */
  ticket: string;
  /** `{{time}}` */
  updated: string;
  retry: string;
}

/**
 * The offline page of one expo's shared link: the copies of `expo` (never another's), one entry
 * per credential or order (the newest copy when the same one was stored under two URLs), newest
 * first, each "updated 09:20" in the expo's local time (the time alone on the expo's day of `now`,
 * date and time before it: zh and tw year-month-day, the others day/month/year, as
 * src/lib/expo/entry.ts says it online) and linked to its copy; null when this phone holds none
 * (the browser's own offline page then shows). `words` by catalogue code; `htmlLang` the page's
 * `lang` attribute. Every text is escaped. Self-contained (embedded in the worker).
 * @example offlineListPage([], 1308, 'en', 0, {}, {}) // null
 */
export function offlineListPage(
  copies: readonly StoredCopy[],
  expo: number,
  lang: string,
  now: number,
  words: Readonly<Record<string, OfflineWords>>,
  htmlLangs: Readonly<Record<string, string>>,
): { html: string; entries: { href: string; label: string; updated: string }[] } | null {
  const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
  const fill = (template: string, vars: Record<string, string>) => template.replace(/\{\{(\w+)\}\}/g, (m, k: string) => (k in vars ? (vars[k] ?? '') : m));
  const w = words[lang] ?? words.zh ?? words.en;
  if (!w) return null;
  const newest = new Map<string, StoredCopy>();
  for (const copy of copies) {
    if (copy.meta.expo !== expo || !copy.url.startsWith('/')) continue;
    const key = `${copy.meta.kind}:${copy.meta.codes.join(',')}`;
    const had = newest.get(key);
    if (!had || had.savedAt < copy.savedAt) newest.set(key, copy);
  }
  if (newest.size === 0) return null;
  const local = (ms: number, offset: number) => new Date(ms + offset * 60_000).toISOString();
  const entries = [...newest.values()]
    .sort((a, b) => b.savedAt - a.savedAt)
    .map((copy) => {
      const at = local(copy.savedAt, copy.meta.offset);
      const day = at.slice(0, 10);
      const hhmm = at.slice(11, 16);
      const date = lang === 'zh' || lang === 'tw' ? day : `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
      const when = day === local(now, copy.meta.offset).slice(0, 10) ? hhmm : `${date} ${hhmm}`;
      const label = copy.meta.kind === 'credential' ? fill(w.credential, { code: copy.meta.codes[0] ?? '' }) : fill(w.ticket, { codes: copy.meta.codes.join(', ') });
      return { href: copy.url, label, updated: fill(w.updated, { time: when }) };
    });
  const items = entries.map((e) => `<li><a href="${esc(e.href)}" data-offline-copy>${esc(e.label)}</a> <span data-updated>${esc(e.updated)}</span></li>`).join('');
  const html =
    `<!doctype html><html lang="${esc(htmlLangs[lang] ?? 'zh-CN')}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${esc(w.title)}</title><style>body{font-family:system-ui,sans-serif;margin:0;padding:1rem;line-height:1.5;color:#111;background:#f6f7f9}` +
    `main{max-width:30rem;margin:0 auto;background:#fff;border-radius:.75rem;padding:1rem 1.25rem}h1{font-size:1.25rem;margin:0 0 .5rem}ul{list-style:none;padding:0;margin:1rem 0}` +
    `li{padding:.6rem 0;border-bottom:1px solid #e5e7eb;overflow-wrap:anywhere}li a{display:inline-block;min-height:44px;box-sizing:border-box;padding:.6rem 0;font-weight:600}span{display:block;color:#555;font-size:.875rem}</style></head>` +
    `<body><main data-offline-list><h1>${esc(w.title)}</h1><p>${esc(w.intro)}</p><ul>${items}</ul><p><a href="">${esc(w.retry)}</a></p></main></body></html>`;
  return { html, entries };
}

/**
 * The catalogue code of a page's `Content-Language` (src/lib/core/languages.ts htmlLang's inverse); null for any other.
 * @example langOfContent('th', { thai: 'th' }) // 'thai'
 */
export function langOfContent(value: string | null | undefined, htmlLangs: Readonly<Record<string, string>>): string | null {
  for (const [code, tag] of Object.entries(htmlLangs)) if (tag === value) return code;
  return null;
}
