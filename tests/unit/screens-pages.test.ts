/**
 * The lvYun lookup and list, the articles and the channel landing (spec §2.3 "Others"): route
 * matching both ways, the pages a link without its parameters gets, the pure rules of what
 * organiser data a page may link or show, the loaders over fake ports, and the upstream
 * client's loose reading of both calls (docs/upstream.md "Articles", "Channels").
 */
import { describe, expect, it, vi } from 'vitest';
import { createUpstream } from '../../functions/upstream/client';
import { createAesKeyCache } from '../../functions/upstream/aes-key-cache';
import { PagesPath } from '../../src/lib/contract';
import { matchRoute, routePath } from '../../src/lib/core/routes';
import { pageInfo } from '../../src/lib/page/guard';
import { configKey } from '../../src/lib/page/load';
import { showDesktopBanner } from '../../src/lib/expo/shell';
import { articleDate, articleView, pageParam, paging } from '../../src/lib/content/articles';
import { httpUrl, imageList, imageSrc } from '../../src/lib/content/links';
import { loadScreen } from '../../src/lib/screens';
import { loadArticles } from '../../src/lib/screens/articles';
import { loadChannel } from '../../src/lib/screens/channel';
import { loadLvYunList, rowState } from '../../src/lib/screens/apply-list';
import { loadSearch } from '../../src/lib/screens/search';
import { forgetTarget } from '../../src/lib/security/forget';
import { contact, ok, page, paramsOf, pathOf, ports } from './screens-helpers';
import { okReply, refusedReply } from './upstream-fakes';

const deps = { credential: async () => ({ kind: 'failed' as const }), secret: 'x'.repeat(32) };

describe('routes of spec §2.3 "Others"', () => {
  it('matches the lvYun lookup and list as the generic screens, flavoured, and builds them back', () => {
    const search = matchRoute(`/lvYunSearch${pathOf(1308)}`);
    expect(search).toEqual({ screen: 'search', variant: null, params: paramsOf(1308), flavour: 'lvYun' });
    const list = matchRoute(`/lvYunList${pathOf(1308)}`);
    expect(list).toEqual({ screen: 'applyList', variant: null, params: paramsOf(1308), flavour: 'lvYun' });
    const ids = { fId: 21308, expoId: 1308, ty: 'visitor' };
    expect(routePath({ screen: 'search', variant: null, params: ids, flavour: 'lvYun' })).toBe(`/lvYunSearch${pathOf(1308)}`);
    expect(routePath({ screen: 'applyList', params: ids, flavour: 'lvYun' })).toBe(`/lvYunList${pathOf(1308)}`);
    // the plain ones are unchanged
    expect(routePath({ screen: 'applyList', params: ids })).toBe(`/applyList${pathOf(1308)}`);
  });

  it('matches the articles and the channel, and builds them back', () => {
    expect(matchRoute(`/article${pathOf(1308)}`)).toEqual({ screen: 'article', variant: null, params: paramsOf(1308) });
    expect(routePath({ screen: 'article', params: { fId: 21308, expoId: 1308, ty: 'visitor' } })).toBe(`/article${pathOf(1308)}`);
    expect(matchRoute('/channel/7001')).toEqual({ screen: 'channel', variant: null, id: 7001 });
    expect(routePath({ screen: 'channel', id: 7001, expoId: 1308 })).toBe('/channel/7001?eid=MTMwOA');
  });

  it.each([
    ['/lvYunSearch', 'lvYunSearch', ['fId', 'eid']],
    ['/lvYunList/21308', 'lvYunList', ['eid']],
    ['/article/x/MTMwOA', 'article', ['fId']],
    ['/article/21308/MTMwOA/visitor/extra', 'article', []],
    ['/channel', 'channel', ['id']],
    ['/channel/abc', 'channel', ['id']],
    ['/channel/7001/more', 'channel', []],
  ])('answers %s with a page naming what it lacks, never a 404', (path, route, missing) => {
    expect(matchRoute(path)).toEqual({ screen: 'incomplete', variant: null, route, missing });
  });

  it('keeps the lvYun lookup out of the generic lookup\'s guard rules, and the channel\'s expo from eid', () => {
    expect(pageInfo(new URL(`https://x/lvYunSearch${pathOf(1308)}`)).kind).toBe('other');
    expect(pageInfo(new URL(`https://x/search${pathOf(1308)}`)).kind).toBe('search');
    const ch = pageInfo(new URL('https://x/channel/7001?eid=MTMwOA'));
    expect(ch).toMatchObject({ expoId: 1308, noConfig: true });
    // a legacy link without eid: the id param, as spec §4 reads it
    expect(pageInfo(new URL('https://x/channel/1308')).expoId).toBe(1308);
  });

  it('loads the config of the articles and the lvYun screens, none for the channel (spec §4)', () => {
    expect(configKey(matchRoute(`/article${pathOf(1308)}`)!)).toEqual({ expoId: 1308, fId: 21308, ty: 'visitor' });
    expect(configKey(matchRoute(`/lvYunList${pathOf(1308)}`)!)).toEqual({ expoId: 1308, fId: 21308, ty: 'visitor' });
    expect(configKey(matchRoute('/channel/7001')!)).toBeNull();
    expect(configKey(matchRoute('/article')!)).toBeNull();
  });

  it('hides the desktop banner on article paths (spec §2.5)', () => {
    expect(showDesktopBanner({ expoId: 1308, pathname: `/article${pathOf(1308)}` })).toBe(false);
    expect(showDesktopBanner({ expoId: 1308, pathname: `/lvYunSearch${pathOf(1308)}` })).toBe(true);
  });

  it('forgets back to the lvYun lookup from its list', () => {
    expect(forgetTarget(`/lvYunList${pathOf(1308)}`).lookup).toBe(`/lvYunSearch${pathOf(1308)}`);
  });
});

describe('what organiser addresses a page uses', () => {
  it('links only absolute http(s) addresses', () => {
    expect(httpUrl(' https://expo.example/a ')).toBe('https://expo.example/a');
    expect(httpUrl('HTTP://expo.example/b')).toBe('http://expo.example/b');
    for (const bad of ['javascript:alert(1)', ' JavaScript:alert(1)', 'data:text/html,x', '//evil.example/x', '/local', 'https://u:p@expo.example/', 'ftp://x', '', null]) {
      expect(httpUrl(bad), String(bad)).toBeNull();
    }
  });

  it('shows http(s) images and paths on this site, and splits comma-separated lists', () => {
    expect(imageSrc('/logo.jpg')).toBe('/logo.jpg');
    expect(imageSrc('//evil.example/x.png')).toBeNull();
    expect(imageSrc('data:image/png;base64,AAAA')).toBeNull();
    expect(imageList('/a.jpg, javascript:alert(1) ,https://cdn.example/b.png,,')).toEqual(['/a.jpg', 'https://cdn.example/b.png']);
    expect(imageList(Array.from({ length: 30 }, (_, i) => `/i${i}.jpg`).join(','))).toHaveLength(10);
  });

  it('reads dates and page numbers, and pages the list', () => {
    expect(articleDate('2026-11-20 09:00:00')).toBe('2026-11-20');
    expect(articleDate('2026-02-30 09:00:00')).toBeNull();
    expect(articleDate('yesterday')).toBeNull();
    expect(pageParam('3')).toBe(3);
    expect(pageParam('0')).toBe(1);
    expect(pageParam('-2')).toBe(1);
    expect(pageParam('99999999')).toBe(1);
    expect(pageParam('5000')).toBe(1000);
    expect(paging({ page: 1, size: 10, shown: 10, total: 23 })).toEqual({ page: 1, prev: null, next: 2, last: 3 });
    expect(paging({ page: 3, size: 10, shown: 3, total: 23 })).toEqual({ page: 3, prev: 2, next: null, last: 3 });
    // past the end, "previous" is the last page
    expect(paging({ page: 9, size: 10, shown: 0, total: 23 })).toMatchObject({ prev: 3, next: null });
    // no total: a full page offers the next one
    expect(paging({ page: 2, size: 10, shown: 10, total: null })).toEqual({ page: 2, prev: 1, next: 3, last: null });
    expect(paging({ page: 2, size: 10, shown: 4, total: null }).next).toBeNull();
  });

  it('shows an article without a link when its url is not http(s)', () => {
    const v = articleView({ id: null, title: 'T', summary: 's', coverImg: 'javascript:x', publishTime: '', url: 'javascript:alert(1)' }, 4);
    expect(v).toEqual({ key: 'i4', title: 'T', summary: 's', date: null, image: null, href: null });
  });
});

const articles = (n: number, from = 1) =>
  Array.from({ length: n }, (_, i) => ({ id: from + i, title: `A${from + i}`, summary: '', coverImg: '', publishTime: '2026-11-01 09:00:00', url: `https://expo.example/${from + i}` }));

describe('loadArticles', () => {
  const params = paramsOf(1308);
  const path = `/article${pathOf(1308)}`;

  it('asks for the page of ?page= and links the neighbours; covers on other hosts enter the CSP', async () => {
    const list = [...articles(9, 11), { id: 99, title: 'cover', summary: '', coverImg: 'https://cdn.example/c.jpg', publishTime: '', url: 'javascript:alert(1)' }];
    const getArticleList = ok({ total: 23, list });
    const d = await loadArticles(page(`${path}?page=2`), ports({ getArticleList }), params);
    expect(getArticleList).toHaveBeenCalledWith({ expoId: 1308, page: 2, pageSize: 10 });
    expect(d).toMatchObject({ state: 'ok', prevHref: path, nextHref: `${path}?page=3`, imageOrigins: ['https://cdn.example'] });
    expect(d.rows.at(-1)).toMatchObject({ title: 'cover', href: null, image: 'https://cdn.example/c.jpg' });
  });

  it('says so when the expo has none, and when the call fails or throws', async () => {
    expect((await loadArticles(page(path), ports({ getArticleList: ok({ total: 0, list: [] }) }), params)).state).toBe('empty');
    expect((await loadArticles(page(path), ports(), params)).state).toBe('unavailable');
    const throws = vi.fn(async () => Promise.reject(new Error('down')));
    expect((await loadArticles(page(path), ports({ getArticleList: throws }), params)).state).toBe('unavailable');
  });

  it('past the last page: no rows, a way back', async () => {
    const d = await loadArticles(page(`${path}?page=7`), ports({ getArticleList: ok({ total: 23, list: [] }) }), params);
    expect(d).toMatchObject({ state: 'ok', rows: [], prevHref: `${path}?page=3`, nextHref: null });
  });
});

describe('loadChannel', () => {
  const channel = { name: 'Media partners', urlsId: 21308, longUrl: '', headImgUrl: '/a.jpg,javascript:alert(1),https://cdn.example/b.png' };

  it('shows the channel\'s allowed images and leads to its url\'s lookup and form (the expo\'s variant)', async () => {
    const q = ok(channel);
    const d = await loadChannel(page('/channel/7001?eid=MTMwOA'), ports({ queryCustomerChannelId: q }), 7001);
    expect(q).toHaveBeenCalledWith({ expoId: 1308, id: 7001 });
    expect(d).toMatchObject({
      state: 'ok',
      title: 'Media partners',
      images: ['/a.jpg', 'https://cdn.example/b.png'],
      lookupHref: '/IEAESearch/21308/MTMwOA',
      formHref: '/IEAEForm/21308/MTMwOA',
      imageOrigins: ['https://cdn.example'],
    });
  });

  it('says what is wrong: no eid, an unknown channel, a channel without a url, a failed call', async () => {
    const q = ok(channel);
    expect((await loadChannel(page('/channel/7001'), ports({ queryCustomerChannelId: q }), 7001)).state).toBe('noExpo');
    expect(q).not.toHaveBeenCalled();
    expect((await loadChannel(page('/channel/1?eid=MTMwOA'), ports(), 1)).state).toBe('unknown');
    expect((await loadChannel(page('/channel/1?eid=MTMwOA'), ports({ queryCustomerChannelId: ok({ ...channel, urlsId: null }) }), 1)).state).toBe('unknown');
    const throws = vi.fn(async () => Promise.reject(new Error('down')));
    expect((await loadChannel(page('/channel/1?eid=MTMwOA'), ports({ queryCustomerChannelId: throws }), 1)).state).toBe('unavailable');
  });
});

describe('the lvYun lookup and list', () => {
  const params = paramsOf(1308);

  it('its lookup posts list=lvYun, so several matches go to /lvYunList', () => {
    const d = loadSearch(page(`/lvYunSearch${pathOf(1308)}`), { params, variant: null, flavour: 'lvYun' });
    expect(d.form.hidden.list).toBe('lvYun');
    expect(loadSearch(page(`/search${pathOf(1308)}`), { params, variant: null }).form.hidden.list).toBe('');
  });

  it('lists the proven contact\'s registrations with their states', async () => {
    const vc = contact(1308, { list: [{ e: 'AAA', n: 'Li', c: 0, d: null, t: null }, { e: 'BBB', n: 'Li', c: 3, d: 'VIP', t: null }, { e: 'CCC', n: 'Li', c: 0, d: null, t: null }] });
    const credentials: Record<string, object> = { AAA: { useStatus: 1, auditStatus: 0 }, BBB: { useStatus: 0, auditStatus: 1 } };
    const queryCustomerCode = vi.fn(async ({ euCode }: { euCode: string }) => (credentials[euCode] ? okReply(credentials[euCode]) : refusedReply(500)));
    const d = await loadLvYunList(page(`/lvYunList${pathOf(1308)}`, { contact: vc }), ports({ queryCustomerCode: queryCustomerCode as never }), params);
    expect(d).toMatchObject({ status: 200, flavour: 'lvYun', searchHref: `/lvYunSearch${pathOf(1308)}`, states: { AAA: 'used', BBB: 'review' } });
    expect(d.rows.map((r) => r.e)).toEqual(['AAA', 'BBB', 'CCC']);
  });

  it('a single match (codes, no list) reads its name and class from the credential', async () => {
    const vc = contact(1308, { codes: ['ONE'] });
    const q = ok({ uname: 'Zhang', euClass: 2, euDefine: null, ticketName: null, useStatus: 2, auditStatus: 0 });
    const d = await loadLvYunList(page(`/lvYunList${pathOf(1308)}`, { contact: vc }), ports({ queryCustomerCode: q as never }), params);
    expect(d.rows).toEqual([{ e: 'ONE', n: 'Zhang', c: 2, d: null, t: null }]);
    expect(d.states).toEqual({ ONE: 'void' });
  });

  it('answers 200 with nothing to show without a proof of this expo (another expo\'s proof shows nothing)', async () => {
    const q = vi.fn();
    const d = await loadLvYunList(page(`/lvYunList${pathOf(1308)}`, { contact: contact(1108, { codes: ['X'] }) }), ports({ queryCustomerCode: q }), params);
    expect(d).toMatchObject({ status: 200, rows: [], states: {} });
    expect(q).not.toHaveBeenCalled();
  });

  it('names states in order: void, review, used, unused', () => {
    expect(rowState({ useStatus: 2, auditStatus: 1 })).toBe('void');
    expect(rowState({ useStatus: 1, auditStatus: 1 })).toBe('review');
    expect(rowState({ useStatus: null, auditStatus: null })).toBe('unused');
  });

  it('the screen table runs each loader by route', async () => {
    const p = ports({ getArticleList: ok({ total: 0, list: [] }) });
    expect((await loadScreen(matchRoute(`/article${pathOf(1308)}`), page(`/article${pathOf(1308)}`), p, deps))?.kind).toBe('article');
    expect((await loadScreen(matchRoute('/channel'), page('/channel'), p, deps))).toMatchObject({ kind: 'incomplete', missing: ['pages.missingId'] });
    expect((await loadScreen(matchRoute(`/lvYunList${pathOf(1308)}`), page(`/lvYunList${pathOf(1308)}`), p, deps))).toMatchObject({ kind: 'applyList', flavour: 'lvYun' });
  });
});

describe('the upstream client reads both calls loosely', () => {
  function fakeUpstream(replies: Record<string, unknown>) {
    const seen: { path: string; query: Record<string, string>; expoId: string | null }[] = [];
    const fetch = async (req: Request): Promise<Response> => {
      const url = new URL(req.url);
      const path = url.pathname.replace(/^\/api\/custom/, '');
      seen.push({ path, query: Object.fromEntries(url.searchParams), expoId: req.headers.get('expoId') });
      return Response.json(replies[path] ?? { code: 404, msg: 'unknown call', data: null });
    };
    return { up: createUpstream({ baseUrl: 'https://organiser.example/api', fetch, timeoutMs: 2000, keyCache: createAesKeyCache() }), seen };
  }

  it('getArticleList: junk fields and rows dropped, numbers as strings taken, pageSize clamped', async () => {
    const { up, seen } = fakeUpstream({
      [PagesPath.getArticleList]: {
        code: '200',
        msg: null,
        data: { total: '23', list: [{ id: '9001', title: ' Opens ', summary: null, coverImg: 5, publishTime: '2026-11-20 09:00:00', url: 'https://x.example/1', extra: { deep: true } }, { title: '' }, 'junk', null, { id: 'x', title: 'No id' }] },
      },
    });
    const r = await up.getArticleList({ expoId: 1308, page: 0, pageSize: 10_000 });
    expect(seen[0]).toEqual({ path: PagesPath.getArticleList, query: { expoId: '1308', page: '1', pageSize: '50' }, expoId: '1308' });
    expect(r).toMatchObject({ ok: true, data: { total: 23, list: [{ id: 9001, title: 'Opens', summary: '', coverImg: '5', url: 'https://x.example/1' }, { id: null, title: 'No id' }] } });
  });

  it('getArticleList: a bare list is a page without a total; anything else is an empty page', async () => {
    const bare = fakeUpstream({ [PagesPath.getArticleList]: { code: 200, msg: '', data: [{ title: 'A' }] } });
    expect(await bare.up.getArticleList({ expoId: 1, page: 1, pageSize: 10 })).toMatchObject({ ok: true, data: { total: null, list: [{ title: 'A' }] } });
    const junk = fakeUpstream({ [PagesPath.getArticleList]: { code: 200, msg: '', data: 'nope' } });
    expect(await junk.up.getArticleList({ expoId: 1, page: 1, pageSize: 10 })).toMatchObject({ ok: true, data: { total: null, list: [] } });
  });

  it('queryCustomerChannelId: the nested customerUrls or the object itself; a refusal is a refusal', async () => {
    const nested = fakeUpstream({ [PagesPath.queryCustomerChannelId]: { code: 200, msg: '', data: { id: 7001, channelName: 'M', customerUrls: { id: '21308', headImgUrl: '/a.jpg,/b.jpg', junk: [1] } } } });
    expect(await nested.up.queryCustomerChannelId({ expoId: 1308, id: 7001 })).toMatchObject({ ok: true, data: { name: 'M', urlsId: 21308, headImgUrl: '/a.jpg,/b.jpg', longUrl: '' } });
    expect(nested.seen[0]).toMatchObject({ query: { id: '7001' }, expoId: '1308' });
    const flat = fakeUpstream({ [PagesPath.queryCustomerChannelId]: { code: 200, msg: '', data: { id: 21308, headImgUrl: '/a.jpg' } } });
    expect(await flat.up.queryCustomerChannelId({ expoId: 1308, id: 7001 })).toMatchObject({ ok: true, data: { name: '', urlsId: 21308 } });
    const none = fakeUpstream({ [PagesPath.queryCustomerChannelId]: { code: 200, msg: '', data: null } });
    expect(await none.up.queryCustomerChannelId({ expoId: 1308, id: 7001 })).toMatchObject({ ok: true, data: null });
    const refused = fakeUpstream({ [PagesPath.queryCustomerChannelId]: { code: 404, msg: 'no', data: null } });
    expect(await refused.up.queryCustomerChannelId({ expoId: 1308, id: 7001 })).toMatchObject({ ok: false, code: 404 });
  });
});
