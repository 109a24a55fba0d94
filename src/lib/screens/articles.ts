/**
 * The expo's articles (spec §2.3 `/article/{fId}/{eid}/{ty}`, §7 `expoInfo/getArticleList`):
 * one page of the list, each row linking to its http(s) address (no other scheme is linked),
 * paged by plain links (`?page=`), so the page needs no JavaScript. Cover images on organiser
 * hosts are admitted by the page's CSP (their origins ride in `imageOrigins`).
 * src/components/screens/ArticleListScreen.astro renders it. Pure over the ports.
 */
import { ARTICLE_PAGE_SIZE, articleView, pageParam, paging, type ArticleView, type Paging } from '../content/articles';
import { variantByExpoId } from '../core/variants';
import { routePath, type PathParams } from '../core/routes';
import { configImageUrls, imageOrigins } from '../util/image-origins';
import type { ScreenPage, ScreenPorts } from './page';
import { defineScreen } from './define';

export interface ArticleListData {
  kind: 'article';
  params: PathParams;
  title: string;
  name: string | null;
  /** `ok`: the page's rows (maybe none past the last page); `empty`: the expo has no article; `unavailable`: the call failed */
  state: 'ok' | 'empty' | 'unavailable';
  rows: ArticleView[];
  paging: Paging;
  prevHref: string | null;
  nextHref: string | null;
  firstHref: string;
  /** the expo's lookup */
  searchHref: string;
  imageOrigins: string[];
}

/** @example (await loadArticles(page, ports, params)).rows[0]?.href // 'https://expo.example/1308/news/9001' */
export async function loadArticles(page: ScreenPage, ports: ScreenPorts, params: PathParams): Promise<ArticleListData> {
  const n = pageParam(page.url.searchParams.get('page'));
  let reply: Awaited<ReturnType<ScreenPorts['getArticleList']>> | null;
  try {
    reply = await ports.getArticleList({ expoId: params.expoId, page: n, pageSize: ARTICLE_PAGE_SIZE });
  } catch {
    reply = null;
  }
  const data = reply?.ok ? reply.data : null;
  const rows = (data?.list ?? []).slice(0, ARTICLE_PAGE_SIZE).map(articleView);
  const p = paging({ page: n, size: ARTICLE_PAGE_SIZE, shown: rows.length, total: data?.total ?? null });
  const base = routePath({ screen: 'article', params });
  const href = (k: number) => (k === 1 ? base : `${base}?page=${k}`);
  const state = data === null ? 'unavailable' : rows.length === 0 && n === 1 ? 'empty' : 'ok';
  const name = page.view.name;
  const title = page.t('pages.articlesTitle');
  const covers = rows.flatMap((r) => (r.image ? [r.image] : []));
  return {
    kind: 'article',
    params,
    title: name ? `${title} · ${name}` : title,
    name,
    state,
    rows,
    paging: p,
    prevHref: p.prev === null ? null : href(p.prev),
    nextHref: p.next === null ? null : href(p.next),
    firstHref: base,
    searchHref: routePath({ screen: 'search', variant: variantByExpoId(params.expoId), params }),
    imageOrigins: imageOrigins([...configImageUrls(page.config), ...covers]),
  };
}

/** The expo's articles (spec §2.3 `/article`): public. */
export const articleScreen = defineScreen({
  name: 'article',
  components: { article: 'ArticleListScreen' },
  load: (m, page, ports) => loadArticles(page, ports, m.params),
  personal: false,
  missingIsNotFound: false,
  prepare: {},
});
