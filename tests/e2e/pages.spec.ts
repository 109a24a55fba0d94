/**
 * Spec §2.3 "Others" in Chromium against the built Worker, JavaScript on and off: the lvYun
 * lookup leads a contact with several registrations to /lvYunList (with JavaScript too: no
 * popup), which shows each with its state; the expo's articles page by plain links and link only
 * http(s) addresses; a channel landing shows its images and leads to its url's registration and
 * lookup. Article and channel pages ship no JavaScript; axe scans every new screen.
 * The seeded data: functions/reference/SEED.md "Articles and channels".
 */
import { expect, type Page } from '@playwright/test';
import { expectAxeClean } from './axe';
import { t, test } from './fixtures';
import { lookupByEmail, openLookup, pageLang } from './lookup-helpers';

const IDS = '/21308/MTMwOA/visitor';

async function expectNoScript(page: Page, what: string): Promise<void> {
  expect(await page.locator('script[src], astro-island').count(), `${what} ships no JavaScript file or island`).toBe(0);
}

test.describe('lvYun lookup and list, articles, channel landing', () => {
  test('lvYunSearch → lvYunList: several registrations, each with its state', async ({ page, request, browser }) => {
    const s = await openLookup(page, `/lvYunSearch${IDS}`);
    await expect(page.locator('input[name="list"]')).toHaveValue('lvYun');
    await expectAxeClean(page, browser, 'the lvYun lookup');
    await lookupByEmail(page, request, 'several@demo.test', s);
    await expect(page).toHaveURL((u) => u.pathname === `/lvYunList${IDS}`);
    const lang = await pageLang(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t(lang, 'pages.lvYunListTitle'));
    const rows = page.locator('ul.rows li a');
    await expect(rows).toHaveCount(5);
    await expect(page.locator('.state-unused')).toHaveCount(5);
    await expect(page.locator('.state-unused').first()).toHaveText(t(lang, 'success.unused'));
    await expect(rows.first()).toHaveAttribute('href', /^\/success\//);
    await expectAxeClean(page, browser, 'the lvYun list');
  });

  test('the articles: links only to http(s), paged by links, no JavaScript', async ({ page, browser }) => {
    const res = await page.goto(`/article${IDS}`);
    expect(res?.status()).toBe(200);
    const lang = await pageLang(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t(lang, 'pages.articlesTitle'));
    await expect(page.locator('ol.articles > li')).toHaveCount(10);
    await expect(page.getByRole('link', { name: '国际能源展开幕 IEAE opens its doors' })).toHaveAttribute('href', 'https://expo.example/1308/news/9001');
    // 9005's url is javascript: — its title shows, unlinked
    await expect(page.getByRole('heading', { name: '展商名录 Exhibitor list' })).toBeVisible();
    await expect(page.getByRole('link', { name: '展商名录 Exhibitor list' })).toHaveCount(0);
    expect(await page.locator('a[href^="javascript:" i]').count()).toBe(0);
    await expect(page.locator('time').first()).toHaveAttribute('datetime', '2026-11-20');
    await expectNoScript(page, 'the articles');
    await expectAxeClean(page, browser, 'the articles');
    await page.getByRole('link', { name: t(lang, 'pages.next') }).click();
    await expect(page).toHaveURL((u) => u.search === '?page=2');
    await page.getByRole('link', { name: t(lang, 'pages.next') }).click();
    await expect(page.locator('ol.articles > li')).toHaveCount(3);
    await expect(page.getByRole('link', { name: t(lang, 'pages.next') })).toHaveCount(0);
    await expect(page.getByText(t(lang, 'pages.pageOf').replace('{{n}}', '3').replace('{{last}}', '3'))).toBeVisible();
  });

  test('the channel landing: its images, on to its registration and lookup; a link without its id', async ({ page, browser }) => {
    const res = await page.goto('/channel/7001?eid=MTMwOA');
    expect(res?.status()).toBe(200);
    const lang = await pageLang(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('合作媒体通道 Media partner channel');
    // the javascript: entry of its image list is not shown
    await expect(page.locator('ul.images img')).toHaveCount(2);
    await expect(page.getByRole('link', { name: t(lang, 'home.register') })).toHaveAttribute('href', '/IEAEForm/21308/MTMwOA');
    await expect(page.getByRole('link', { name: t(lang, 'home.query') })).toHaveAttribute('href', '/IEAESearch/21308/MTMwOA');
    await expectNoScript(page, 'the channel landing');
    await expectAxeClean(page, browser, 'the channel landing');

    const bare = await page.goto('/channel');
    expect(bare?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t(lang, 'pages.incompleteTitle'));
    await expect(page.getByText(t(lang, 'pages.missingId'))).toBeVisible();
    await expectAxeClean(page, browser, 'a link without its parameters');
  });
});
