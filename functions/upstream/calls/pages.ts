/**
 * The articles and channel calls (docs/upstream.md "Articles", "Channels"; spec §7
 * `expoInfo/getArticleList`, `queryCustomerChannelId`): plain params and data, read loosely.
 * `pageSize` is clamped here too, so the edge never asks for more than the contract allows.
 */
import type { UpstreamCore } from '../core';
import { ARTICLE_PAGE_MAX, ARTICLE_PAGE_SIZE_MAX, ArticlePage, ChannelData, PagesPath, isSuccessCode } from '../../../src/lib/contract';
import type { PagesCalls } from '../../../src/lib/contract';

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
