/**
 * The expo's articles and its channels on D1 (docs/upstream.md "Articles", "Channels"; spec §7
 * `expoInfo/getArticleList`, `queryCustomerChannelId`, payloads our reading). Plain params.
 * Bounds: `page` below 1 reads as 1 and above ARTICLE_PAGE_MAX as that; `pageSize` is clamped
 * to 1..ARTICLE_PAGE_SIZE_MAX, so no request reads more than one bounded page. A channel of
 * another expo than the header's is not found.
 */
import type { Context } from 'hono';
import { z } from 'zod';
import { RefCode, ok, reply } from '../envelope';
import type { RefEnv } from '../expo';
import { DecimalId, boundedWhole, parseInput } from '../inputs';
import { ARTICLE_PAGE_MAX, ARTICLE_PAGE_SIZE_DEFAULT, ARTICLE_PAGE_SIZE_MAX } from '../rules';

const ArticlesQuery = z.object({
  expoId: DecimalId.optional(),
  page: boundedWhole(1, ARTICLE_PAGE_MAX, 1),
  pageSize: boundedWhole(1, ARTICLE_PAGE_SIZE_MAX, ARTICLE_PAGE_SIZE_DEFAULT),
});
const ChannelQuery = z.object({ id: DecimalId });

interface ArticleRow {
  id: number;
  title: string;
  summary: string;
  coverImg: string;
  publishTime: string;
  url: string;
}

/** `GET /expoInfo/getArticleList` `expoId, page, pageSize`: `{ total, page, pageSize, list }`, newest first. */
export async function getArticleList(c: Context<RefEnv>): Promise<Response> {
  const input = parseInput(ArticlesQuery, c.req.query());
  if (!input.ok) return reply(c, RefCode.BAD_INPUT, input.msg);
  const { expoId, page, pageSize } = input.value;
  if (expoId !== undefined && expoId !== c.var.expo.id)
    return reply(c, RefCode.BAD_INPUT, 'bad input: expoId is not the expoId header');
  const db = c.env.DB;
  const [count, rows] = await db.batch([
    db.prepare('SELECT count(*) AS n FROM articles WHERE expo_id = ?').bind(c.var.expo.id),
    db
      .prepare(
        'SELECT id, title, summary, cover_img AS coverImg, publish_time AS publishTime, url FROM articles WHERE expo_id = ? ORDER BY publish_time DESC, id DESC LIMIT ? OFFSET ?',
      )
      .bind(c.var.expo.id, pageSize, (page - 1) * pageSize),
  ]);
  const total = (count?.results[0] as { n: number } | undefined)?.n ?? 0;
  return ok(c, { total, page, pageSize, list: (rows?.results ?? []) as ArticleRow[] });
}

interface ChannelRow {
  id: number;
  urls_id: number;
  channel_name: string;
  head_img_url: string;
  long_url: string | null;
  url_img: string | null;
}

/** `GET /customFrom/queryCustomerChannelId` `id`: `{ id, channelName, expoId, customerUrls: { id, longUrl, headImgUrl } }`. */
export async function queryCustomerChannelId(c: Context<RefEnv>): Promise<Response> {
  const input = parseInput(ChannelQuery, c.req.query());
  if (!input.ok) return reply(c, RefCode.BAD_INPUT, input.msg);
  const row = await c.env.DB.prepare(
    `SELECT ch.id, ch.urls_id, ch.channel_name, ch.head_img_url, u.long_url, u.head_img_url AS url_img
       FROM channels ch JOIN customer_urls u ON u.expo_id = ch.expo_id AND u.id = ch.urls_id
      WHERE ch.id = ? AND ch.expo_id = ?`,
  )
    .bind(input.value.id, c.var.expo.id)
    .first<ChannelRow>();
  if (!row) return reply(c, RefCode.NOT_FOUND, `channel ${input.value.id} does not exist for expo ${c.var.expo.id}`);
  return ok(c, {
    id: row.id,
    channelName: row.channel_name,
    expoId: c.var.expo.id,
    // The channel's own images, else its customer url's.
    customerUrls: {
      id: row.urls_id,
      longUrl: row.long_url,
      headImgUrl: row.head_img_url !== '' ? row.head_img_url : row.url_img,
    },
  });
}
