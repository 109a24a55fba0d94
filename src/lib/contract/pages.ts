/**
 * The expo's articles and the channel landing (docs/upstream.md "Articles" and "Channels"; spec
 * §2.3 `/article` and `/channel/{id}`, §7 `expoInfo/getArticleList` and `queryCustomerChannelId`).
 * Paths relative to `{UPSTREAM_URL}/custom`, plain params and data (no AES). The spec shows
 * neither payload: the shapes here are our reading. Replies are read loosely: a row that does
 * not read is dropped, a missing field is empty, a bare list stands for a page without a total.
 */
import { z } from 'zod';
import { looseInt, looseText } from './loose';
import { under } from './wire';
import type { UpstreamResult } from './result';

export const PagesPath = {
  ...under('/expoInfo', 'getArticleList'),
  ...under('/customFrom', 'queryCustomerChannelId'),
};

/** Most articles one page asks for; a larger `pageSize` is answered with this many. */
export const ARTICLE_PAGE_SIZE_MAX = 50;
/** Most pages the list goes to (a page number past it is the last one). */
export const ARTICLE_PAGE_MAX = 1000;

/** One article as the wire sends it, read loosely (the edge then keeps only http(s) links and images). */
export const ArticleRow = z
  .object({
    id: looseInt.optional().transform((v) => v ?? null),
    title: looseText(200),
    summary: looseText(1000),
    coverImg: looseText(2048),
    publishTime: looseText(40),
    url: looseText(2048),
  })
  .refine((r) => r.title !== '');
export type ArticleRow = z.infer<typeof ArticleRow>;

/** A page of articles: `{ total, list }`, or a bare array (no total); rows that do not read are dropped. */
export const ArticlePage = z.unknown().transform((v): { total: number | null; list: ArticleRow[] } => {
  const o = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  const rows: unknown = Array.isArray(v) ? v : (o?.['list'] ?? o?.['records'] ?? o?.['rows']);
  const total = o ? looseInt.safeParse(o['total']) : null;
  const list: ArticleRow[] = [];
  for (const item of Array.isArray(rows) ? rows.slice(0, ARTICLE_PAGE_SIZE_MAX) : []) {
    const r = ArticleRow.safeParse(item);
    if (r.success) list.push(r.data);
  }
  const t = total?.success ? total.data : null;
  return { total: t !== null && t >= 0 ? t : null, list };
});
export type ArticlePage = z.output<typeof ArticlePage>;

/**
 * A channel: `{ id, channelName, customerUrls: { id, longUrl, headImgUrl } }`, `headImgUrl` a
 * comma-separated image list (spec §7). Loose: `data` that is the customerUrls object itself
 * reads as a channel without a name.
 */
export const ChannelData = z.unknown().transform((v): { name: string; urlsId: number | null; longUrl: string; headImgUrl: string } | null => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const inner = o['customerUrls'];
  const urls = inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Record<string, unknown>) : o;
  const id = looseInt.safeParse(urls['id']);
  const urlsId = id.success && id.data !== null && id.data > 0 ? id.data : null;
  return {
    name: looseText(200).parse(o['channelName'] ?? o['name']),
    urlsId,
    longUrl: looseText(2048).parse(urls['longUrl']),
    headImgUrl: looseText(8000).parse(urls['headImgUrl']),
  };
});
export type ChannelData = z.output<typeof ChannelData>;

// The calls of this area as the client answers them: the one declaration the client implements and src/lib picks its ports from.
export interface PagesCalls {
  /** `GET /expoInfo/getArticleList`: one page of the expo's articles, `{ total, list }`. */
  getArticleList(p: { expoId: number; page: number; pageSize: number }): Promise<UpstreamResult<ArticlePage>>;
  /** `GET /customFrom/queryCustomerChannelId`: a channel, its customer url and its images; null when the reply names none. */
  queryCustomerChannelId(p: { expoId: number; id: number }): Promise<UpstreamResult<ChannelData>>;
}
