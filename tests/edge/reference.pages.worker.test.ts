/**
 * The reference upstream's articles and channels in workerd on D1 (docs/upstream.md "Articles",
 * "Channels"): paging and its bounds (page below 1, past the last, past 1000), huge page sizes
 * clamped to 50, malformed numbers refused, unknown expos and channels not found, a channel of
 * another expo not found; and both calls through the edge's client in-process.
 */
import { describe, expect, it } from 'vitest';
import { PagesPath } from '../../src/lib/contract';
import { upstreamFor } from '../../functions/upstream';
import { call, raw, testEnv } from './reference.helpers';

interface ArticlePage {
  total: number;
  page: number;
  pageSize: number;
  list: { id: number; title: string; summary: string; coverImg: string; publishTime: string; url: string }[];
}

const articles = async (expoId: number, query: Record<string, string> = {}) => {
  const r = await call(PagesPath.getArticleList, { expoId, query });
  return { code: r.code, data: r.data as ArticlePage };
};

describe('getArticleList on D1 (reference upstream)', () => {
  it('pages the 23 seeded articles of 1308, newest first, 10 by default', async () => {
    const first = await articles(1308, { expoId: '1308' });
    expect(first.code).toBe(200);
    expect(first.data).toMatchObject({ total: 23, page: 1, pageSize: 10 });
    expect(first.data.list.map((a) => a.id)).toEqual([9001, 9002, 9003, 9004, 9005, 9006, 9007, 9008, 9009, 9010]);
    expect(first.data.list[0]).toEqual({
      id: 9001,
      title: '国际能源展开幕 IEAE opens its doors',
      summary: '三天展期，九个展馆，四百家展商。Three days, nine halls, four hundred exhibitors.',
      coverImg: '/logo.jpg',
      publishTime: '2026-11-20 09:00:00',
      url: 'https://expo.example/1308/news/9001',
    });
    const third = await articles(1308, { page: '3' });
    expect(third.data.list.map((a) => a.id)).toEqual([9021, 9022, 9023]);
  });

  it('bounds: page 0 is page 1, past the last is empty with the real total, past 1000 is 1000', async () => {
    expect((await articles(1308, { page: '0' })).data).toMatchObject({ page: 1, list: expect.arrayContaining([expect.objectContaining({ id: 9001 })]) });
    expect((await articles(1308, { page: '4' })).data).toEqual({ total: 23, page: 4, pageSize: 10, list: [] });
    expect((await articles(1308, { page: '999999999999' })).data).toMatchObject({ page: 1000, list: [] });
  });

  it('clamps huge page sizes to 50 and tiny ones to 1, never refusing them', async () => {
    const huge = await articles(1308, { pageSize: '100000000' });
    expect(huge.code).toBe(200);
    expect(huge.data).toMatchObject({ pageSize: 50, total: 23 });
    expect(huge.data.list).toHaveLength(23);
    const extra = Array.from({ length: 60 }, (_, i) =>
      testEnv.DB.prepare("INSERT INTO articles (id, expo_id, title, publish_time) VALUES (?, 1216, ?, '2026-01-01 00:00:00')").bind(80_000 + i, `Bulk ${i}`),
    );
    await testEnv.DB.batch(extra);
    expect((await articles(1216, { pageSize: '999' })).data.list).toHaveLength(50);
    expect((await articles(1216, { pageSize: '0' })).data).toMatchObject({ pageSize: 1, total: 60 });
  });

  it('an expo without articles: an empty page; an unknown expo, malformed numbers, another expo: refused', async () => {
    expect((await articles(1108)).data).toEqual({ total: 0, page: 1, pageSize: 10, list: [] });
    expect((await call(PagesPath.getArticleList, { expoId: 424242 })).code).toBe(404);
    expect((await call(PagesPath.getArticleList, {})).code).toBe(400);
    for (const query of [{ page: '-1' }, { page: '1.5' }, { pageSize: 'ten' }, { page: '' }, { expoId: '1108' }]) {
      expect((await call(PagesPath.getArticleList, { expoId: 1308, query })).code, JSON.stringify(query)).toBe(400);
    }
    // POST is not this call
    expect((await call(PagesPath.getArticleList, { expoId: 1308, body: {} })).code).toBe(404);
  });

  it('40 reads at once all answer the same page', async () => {
    const all = await Promise.all(Array.from({ length: 40 }, () => articles(1308, { page: '2' })));
    expect(new Set(all.map((r) => JSON.stringify(r.data))).size).toBe(1);
    expect(all[0]?.data.list.map((a) => a.id)).toEqual([9011, 9012, 9013, 9014, 9015, 9016, 9017, 9018, 9019, 9020]);
  });
});

describe('queryCustomerChannelId on D1 (reference upstream)', () => {
  it('answers the seeded channel with its customer url and images', async () => {
    const r = await call(PagesPath.queryCustomerChannelId, { expoId: 1308, query: { id: '7001' } });
    expect(r).toMatchObject({
      code: 200,
      data: {
        id: 7001,
        channelName: '合作媒体通道 Media partner channel',
        expoId: 1308,
        customerUrls: { id: 21308, longUrl: 'https://expo.example/1308/21308', headImgUrl: '/logo.jpg,javascript:alert(1),/logo.jpg' },
      },
    });
  });

  it('an unknown channel, one of another expo, a malformed id: not found or refused', async () => {
    expect((await call(PagesPath.queryCustomerChannelId, { expoId: 1308, query: { id: '7999' } })).code).toBe(404);
    expect((await call(PagesPath.queryCustomerChannelId, { expoId: 1108, query: { id: '7001' } })).code).toBe(404);
    expect((await call(PagesPath.queryCustomerChannelId, { expoId: 424242, query: { id: '7001' } })).code).toBe(404);
    for (const id of ['', 'x', '-1', '0', '1e3', '9'.repeat(40)]) {
      expect((await call(PagesPath.queryCustomerChannelId, { expoId: 1308, query: { id } })).code, id).toBe(400);
    }
    expect((await raw(`/custom${PagesPath.queryCustomerChannelId}`, { expoId: 1308 })).status).toBe(200);
  });
});

describe('the edge client reads both calls from the reference in-process', () => {
  it('getArticleList and queryCustomerChannelId through upstreamFor(env)', async () => {
    const up = upstreamFor(testEnv);
    const page = await up.getArticleList({ expoId: 1308, page: 3, pageSize: 10 });
    expect(page).toMatchObject({ ok: true, data: { total: 23, list: [{ id: 9021 }, { id: 9022 }, { id: 9023 }] } });
    const channel = await up.queryCustomerChannelId({ expoId: 1308, id: 7001 });
    expect(channel).toMatchObject({ ok: true, data: { name: '合作媒体通道 Media partner channel', urlsId: 21308 } });
    expect(await up.queryCustomerChannelId({ expoId: 1308, id: 7999 })).toMatchObject({ ok: false, code: 404 });
  });
});
