/**
 * The articles and channel calls (docs/upstream.md "Articles", "Channels"; spec §7
 * `expoInfo/getArticleList`, `queryCustomerChannelId`): plain params and data, read loosely.
 * `pageSize` is clamped here too, so the edge never asks for more than the contract allows.
 */
import type { UpstreamCore } from '../core';
import { ARTICLE_PAGE_MAX, ARTICLE_PAGE_SIZE_MAX, ArticlePage, ChannelData, PagesPath, isSuccessCode } from '../contract';
import type { UpstreamResult } from '../result';

export interface PagesCalls {
  /** `GET /expoInfo/getArticleList`: one page of the expo's articles, `{ total, list }`. */
  getArticleList(p: { expoId: number; page: number; pageSize: number }): Promise<UpstreamResult<ArticlePage>>;
  /** `GET /customFrom/queryCustomerChannelId`: a channel, its customer url and its images; null when the reply names none. */
  queryCustomerChannelId(p: { expoId: number; id: number }): Promise<UpstreamResult<ChannelData>>;
}

const clamp = (n: number, lo: number, hi: number) => (Number.isFinite(n) ? Math.min(hi, Math.max(lo, Math.trunc(n))) : lo);

/** The articles and channel calls on the shared core. */
export function pagesCalls(core: UpstreamCore): PagesCalls {
  const { call, read, ok, refused } = core;
  return {
    async getArticleList({ expoId, page, pageSize }) {
      const path = PagesPath.getArticleList;
      const query = {
        expoId: String(expoId),
        page: String(clamp(page, 1, ARTICLE_PAGE_MAX)),
        pageSize: String(clamp(pageSize, 1, ARTICLE_PAGE_SIZE_MAX)),
      };
      const env = await call(path, expoId, { method: 'GET', query });
      return isSuccessCode(env.code) ? ok(env, read(path, ArticlePage, env.data)) : refused(env);
    },
    async queryCustomerChannelId({ expoId, id }) {
      const path = PagesPath.queryCustomerChannelId;
      const env = await call(path, expoId, { method: 'GET', query: { id: String(id) } });
      return isSuccessCode(env.code) ? ok(env, read(path, ChannelData, env.data)) : refused(env);
    },
  };
}
