/**
 * The messaging app (spec §1, §2.5, §4, §7), one lean spec:
 * - the share card (@js): a second Worker with an app id (REF_WX_APP_ID) and the JS-SDK on
 *   another origin (WX_JSSDK_URL: tests/e2e/fake-wx-sdk.ts, a Node server): inside the app
 *   (its user agent) a home page signs itself through /api/share-signature, configures the SDK
 *   and gives it a card equal to its share tags; an ordinary browser gets no SDK, type admin does;
 * - "share as me" on the credential page (js and nojs): the link with defineName and
 *   shareUserId, shown to copy without JavaScript, copied with it; the shared page's card is
 *   titled "{name} invites you to visit";
 * - one back press inside a mini-program goes back two pages (@js).
 */
import { rmSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { expect, type Page } from '@playwright/test';
import { freePort } from '../../scripts/lib.mjs';
import { expectAxeClean } from './axe';
import { startFakeWxSdk, type FakeWxRecord, type FakeWxSdk } from './fake-wx-sdk';
import { jsEnabled, obtainCredentialPath, t, test, visitorHeaders } from './fixtures';
import { startSecondWorker, stopSecondWorker } from './second-worker';

const WECHAT_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36 MicroMessenger/8.0.47.2560(0x28002F35) NetType/WIFI Language/zh_CN';
const MINI_UA = `${WECHAT_UA} miniProgram/wx0123456789abcdef`;
const APP_ID = 'wxe2e0123456789ab';
const HOME = '/21308/MTMwOA/visitor';

const metaOf = (page: Page, property: string) => page.locator(`meta[property="${property}"]`).getAttribute('content');

test.describe('the share card inside the messaging app @js', () => {
  test.describe.configure({ mode: 'serial', timeout: 240_000 });
  let sdk: FakeWxSdk;
  let worker: ChildProcess;
  let site: string;
  let persist: string;

  test.beforeAll(async ({}, info) => {
    info.setTimeout(240_000);
    // E2E_WX_PORT (a machine shared by port ranges): that port for the Worker and the next for the SDK; else free ports.
    const fixed = Number(process.env.E2E_WX_PORT ?? '');
    const port = Number.isInteger(fixed) && fixed > 0 ? fixed : await freePort();
    sdk = await startFakeWxSdk(Number.isInteger(fixed) && fixed > 0 ? fixed + 1 : 0);
    persist = `.wrangler/e2e-wx-${port}`;
    ({ child: worker, site } = await startSecondWorker(port, persist, { REF_WX_APP_ID: APP_ID, WX_JSSDK_URL: sdk.url }, 180_000));
  });

  test.afterAll(async () => {
    await stopSecondWorker(worker);
    await sdk?.close();
    if (persist) rmSync(persist, { recursive: true, force: true });
  });

  test('inside the app the card is the page\'s share tags; an ordinary browser loads no SDK; type admin does', async ({ browser }) => {
    const inApp = await browser.newContext({ userAgent: WECHAT_UA, extraHTTPHeaders: visitorHeaders(test.info(), 1) });
    const page = await inApp.newPage();
    const signed = page.waitForResponse((r) => r.url().includes('/api/share-signature'));
    const res = await page.goto(`${site}${HOME}`);
    expect(res?.headers()['content-security-policy']).toContain(new URL(sdk.url).origin);
    expect((await signed).status()).toBe(200);
    await page.waitForFunction(() => Boolean((window as unknown as { __fakeWx?: FakeWxRecord }).__fakeWx?.shares['updateTimelineShareData']));
    const rec = await page.evaluate(() => (window as unknown as { __fakeWx: FakeWxRecord }).__fakeWx);
    expect(rec.config).toMatchObject({ appId: APP_ID, jsApiList: expect.arrayContaining(['updateAppMessageShareData', 'updateTimelineShareData']) });
    expect(rec.config?.signature).toMatch(/^[0-9a-f]{40}$/);
    const tags = { title: await metaOf(page, 'og:title'), desc: await metaOf(page, 'og:description'), link: await metaOf(page, 'og:url'), imgUrl: await metaOf(page, 'og:image') };
    expect(tags.title).toBeTruthy();
    expect(rec.shares['updateAppMessageShareData']).toEqual(tags);
    expect(rec.shares['updateTimelineShareData']).toEqual({ title: tags.title, link: tags.link, imgUrl: tags.imgUrl });
    await inApp.close();

    // An ordinary browser (type visitor): no SDK, no signature, no SDK origin in the CSP.
    const plain = await browser.newContext({ extraHTTPHeaders: visitorHeaders(test.info(), 2) });
    const other = await plain.newPage();
    const loadsBefore = sdk.loads();
    const visitor = await other.goto(`${site}${HOME}`);
    expect(visitor?.headers()['content-security-policy']).not.toContain(new URL(sdk.url).origin);
    await expect(other.locator('#wx-share')).toHaveCount(0);
    // Type admin (spec §4): the card in any browser.
    await other.goto(`${site}/21308/MTMwOA/admin`);
    await expect(other.locator('#wx-share')).toHaveCount(1);
    await other.waitForFunction(() => Boolean((window as unknown as { __fakeWx?: FakeWxRecord }).__fakeWx?.config));
    expect(sdk.loads()).toBe(loadsBefore + 1);
    await plain.close();
  });
});

test('"share as me" on the credential page: the personal link, and its card titled with the name', async ({ page, browser }, info) => {
  const js = jsEnabled(info);
  if (js) await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const credential = await obtainCredentialPath(page.request);
  await page.goto(credential);
  const section = page.locator('[data-personal-share]');
  await expect(section.getByRole('heading', { name: t('zh', 'share.asMeTitle') })).toBeVisible();
  const link = await section.getByLabel(t('zh', 'share.asMeLink')).inputValue();
  const url = new URL(link);
  expect(url.pathname).toBe(HOME);
  const name = url.searchParams.get('defineName') ?? '';
  expect(name).toBe('张一');
  expect(url.searchParams.get('shareUserId')).toMatch(/^[A-Za-z0-9_-]{12}$/);
  expect(link).not.toContain('IWHBZIMYEOZETLFI'); // never the registration code
  const button = section.getByRole('button', { name: t('zh', 'share.asMeShare') });
  if (js) {
    await button.click();
    await expect(section.getByRole('status')).toHaveText(t('zh', 'share.asMeCopied'));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  } else {
    await expect(button).toBeHidden();
  }
  await expectAxeClean(page, browser, 'the credential page with "share as me"');

  // The shared link: its card says who invites.
  await page.goto(`${url.pathname}${url.search}`);
  expect(await metaOf(page, 'og:title')).toMatch(new RegExp(`^${t('zh', 'share.invites').replace('{{name}}', name)} · `));
  expect(new URL((await metaOf(page, 'og:url')) ?? 'x:').searchParams.get('shareUserId')).toBe(url.searchParams.get('shareUserId'));
});

test('inside a mini-program one back press goes back two pages; in the app\'s browser one @js', async ({ browser, baseURL }) => {
  const pages = [HOME, '/search/22001/MjAwMQ/visitor', '/IEAESearch/21308/MTMwOA/visitor'];
  const walk = async (userAgent: string) => {
    const ctx = await browser.newContext({ userAgent, baseURL: baseURL ?? '', extraHTTPHeaders: visitorHeaders(test.info(), 1) });
    const page = await ctx.newPage();
    for (const p of pages) {
      await page.goto(p);
      await page.waitForFunction(() => document.readyState === 'complete');
    }
    await page.goBack();
    return { page, ctx };
  };
  const mini = await walk(MINI_UA);
  await expect(mini.page).toHaveURL((u) => u.pathname === pages[0]);
  await mini.ctx.close();
  const app = await walk(WECHAT_UA);
  await expect(app.page).toHaveURL((u) => u.pathname === pages[1]);
  await app.ctx.close();
});
