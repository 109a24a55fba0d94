/**
 * Every route spec §2.3 names answers a page of its own: the 22 that used to answer 404, each
 * with realistic parameters (the demo seed, functions/reference/SEED.md) and, as a legacy link cut
 * in a chat, without them. Request-only (`@http`): the screens' JS-on/off flows are in their own
 * specs (haisi, named-forms, bus, pages). Headings are the pages' own, in Chinese (the default).
 */
import { expect, type APIRequestContext } from '@playwright/test';
import { encodeId } from '../../src/lib/util/ids';
import { baseUrl, lookUpByEmail, t, type LookupTarget, test, visitorHeaders } from './fixtures';

const eid = (expoId: number) => encodeId(expoId);
const HAISI = `22616/${eid(2616)}/visitor`;
const HAISI_CREDENTIAL = `${encodeId(22616)}/${encodeId('XJMUUSP2GJGNYZW3')}/${eid(2616)}/22616/?f=`;
const BUS = `${encodeId(21308)}/${encodeId('IWHBZIMYEOZETLFI')}/${eid(1308)}/21308/100001`;
const OCEAN = `22030/${eid(2030)}/visitor`;

/** The route's first segment, a realistic link, and the `<h1>` it shows. */
const ROUTES: readonly (readonly [string, string, string])[] = [
  ['haisi', `/haisi/${HAISI}`, '观众预登记'],
  ['haisiEn', `/haisiEn/${HAISI}`, 'Visitor pre-registration'],
  ['haisiSearch', `/haisiSearch/${HAISI}`, '观众预登记'],
  ['haisiSearchEn', `/haisiSearchEn/${HAISI}`, 'Visitor pre-registration'],
  ['haisiForm', `/haisiForm/${HAISI}`, '观众预登记'],
  ['haisiFormEn', `/haisiFormEn/${HAISI}`, 'Visitor pre-registration'],
  ['haisiSuccess', `/haisiSuccess/${HAISI_CREDENTIAL}`, '登记成功'],
  ['haisiSuccessEn', `/haisiSuccessEn/${HAISI_CREDENTIAL}`, 'Registration successful'],
  ['subyexhi', `/subyexhi/42030/${eid(2030)}/exhibitor`, t('zh', 'forms2.exhibitorTitle')],
  ['bus', `/bus/${BUS}`, t('zh', 'bus.title')],
  ['busInfo', `/busInfo/${BUS}`, t('zh', 'bus.infoTitle')],
  ['lvYunSearch', `/lvYunSearch/21308/${eid(1308)}/visitor`, '观众预登记'],
  ['lvYunList', `/lvYunList/21308/${eid(1308)}/visitor`, t('zh', 'pages.lvYunListTitle')],
  ['article', `/article/21308/${eid(1308)}/visitor`, t('zh', 'pages.articlesTitle')],
  ['channel', `/channel/7001?eid=${eid(1308)}`, '合作媒体通道 Media partner channel'],
  ['jjcz2024', `/jjcz2024/22024/${eid(2024)}/visitor`, t('zh', 'forms2.jjcz2024Title')],
  ['ocean', `/ocean/${OCEAN}`, t('zh', 'forms2.oceanTitle')],
  ['formCic', `/formCic/32030/${eid(2030)}/visitor`, t('zh', 'forms2.cicTitle')],
  ['reForm', `/reForm/${OCEAN}?e=OCEANONEVISITORA`, t('zh', 'forms2.reFormTitle')],
  ['twoForm', `/twoForm/${OCEAN}`, t('zh', 'forms2.twoFormTitle')],
  ['userInfo', `/userInfo/${OCEAN}`, t('zh', 'forms2.userInfoTitle')],
  ['order', `/order/21216/${eid(1216)}/visitor`, t('zh', 'bus.orderTitle')],
];

/** The text of the first `<h1>` of a page (tags inside it dropped, whitespace folded). */
function h1(html: string): string {
  const inner = /<h1\b[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1] ?? '';
  return inner
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A buyer proven on expo 1216 (a fresh contact: its lookup leads to the form), for `/order`. */
async function provenBuyer(request: APIRequestContext): Promise<void> {
  const target: LookupTarget = { expoId: 1216, urlId: 21216, ty: 'visitor', variant: '', f: '', back: `/search/21216/${eid(1216)}/visitor` };
  await lookUpByEmail(request, `routes-${Date.now().toString(36)}@demo.test`, target);
}

test('all 22 routes of spec §2.3 that answered 404 show their own page with realistic parameters @http', async ({ request }) => {
  expect(ROUTES.map(([name]) => name)).toHaveLength(22);
  await provenBuyer(request);
  for (const [name, url, heading] of ROUTES) {
    const res = await request.get(url);
    expect(res.status(), `${name}: ${url}`).toBe(200);
    const html = await res.text();
    expect(h1(html), `${name}: the screen's own heading`).toBe(heading);
    expect(html, `${name}: not the not-found page`).not.toContain(t('zh', 'notFound.text'));
  }
});

test('the same 22 routes opened by a link without their parameters answer a page, never "page not found" @http', async ({ playwright }, info) => {
  // a fresh context: no cookie, as someone who taps an old link in a chat group
  const request = await playwright.request.newContext({ baseURL: baseUrl(info), extraHTTPHeaders: visitorHeaders(info, 1) });
  for (const [name] of ROUTES) {
    for (const url of [`/${name}`, `/${name}/`]) {
      const res = await request.get(url);
      expect(res.status(), url).not.toBe(404);
      expect(res.status(), url).toBeLessThan(500);
      const html = await res.text();
      expect(h1(html), `${url}: a heading of its own`).not.toBe('');
      expect(h1(html), url).not.toBe(t('zh', 'notFound.title'));
      // a way on: at least one link on the page besides the header's
      expect(html, `${url}: a link onwards`).toMatch(/<a\b[^>]*href="\/[^"]*"/);
    }
  }
  await request.dispose();
});
