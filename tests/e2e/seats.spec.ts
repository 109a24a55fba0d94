/**
 * Seat lookup, pledge and health upload in the browser (issue 12 "Done when"), JS on and off:
 * name → company → seat on 1128 and 1235; a name without consent is not found; empty name and
 * company messages; the 31st lookup in a minute refused; the pledge refused before 5 s and
 * accepted after; a JPEG uploaded, listed and deleted on a credential page; axe on every new
 * screen in zh and en.
 *
 * Every limit is at its default (playwright.config.ts), the seat cap too (600 a minute per
 * address and expo, above a crowd behind one address): the limit test sends that many. It uses expo
 * 1384 in the js project and 1385 in nojs, so no other test shares its count. Contacts and
 * names of this spec: functions/reference/SEED.md "Seat lookup" (health-js@ / health-nojs@).
 */
import { expect, type Browser, type Page } from '@playwright/test';
import { expectAxeClean } from './axe';
import { HTML_LANG, jsEnabled, lookupPath, lookUpByEmail, setLangCookie, t, type Lang, type LookupTarget, test } from './fixtures';
import { DEFAULT_LIMITS } from '../../src/lib/security/limit-specs';

/** The seat lookups' per-address cap at its default. */
const CAP = DEFAULT_LIMITS.seatLookupsPerIpMinute;

const seatPath = (expoId: number) => lookupPath('seat', 20000 + expoId, expoId);
const HEALTH: LookupTarget = { expoId: 2012, urlId: 22012, ty: 'visitor', variant: '', f: '', back: lookupPath('search', 22012, 2012) };
/** A 1×1 JPEG. */
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);

/**
 * Name → company → seat, the way the project's browser does it: with JavaScript the start of
 * the company and a pick from the list; without, the whole company typed (issue 19 item 4).
 */
async function findSeat(page: Page, expoId: number, userName: string, typed: string, company: string, start = seatPath(expoId), lang: Lang = 'zh'): Promise<void> {
  await page.goto(start);
  if (jsEnabled(test.info())) await page.waitForSelector('astro-island:not([ssr])');
  await page.getByLabel(t(lang, 'seat.name'), { exact: true }).first().fill(userName);
  if (jsEnabled(test.info())) {
    await page.getByRole('combobox', { name: t(lang, 'seat.companyLabel') }).fill(typed);
    await page.getByRole('option', { name: company }).click();
    await expect(page.getByRole('combobox', { name: t(lang, 'seat.companyLabel') })).toHaveValue(company);
  } else {
    await page.getByLabel(t(lang, 'seat.companyLabel'), { exact: true }).first().fill(company);
  }
  await page.getByRole('button', { name: t(lang, 'seat.query') }).click();
}

/** A result page's URL as the edge signs it (a real lookup, as a visitor's browser gets it). */
async function signedResult(page: Page, expoId: number, userName: string, companyName: string): Promise<string> {
  const form = { expoId: String(expoId), urlId: String(20000 + expoId), ty: 'visitor', userName, companyName };
  const r = await page.request.post('/api/seat/detail', { form, maxRedirects: 0 });
  expect(r.status()).toBe(303);
  return r.headers()['location'] ?? '';
}

test.describe('seat lookup', () => {
  test('1128: name → company → seat on /zuoweiSuccess, in zh, en and thai (issue 23: the event, its map and the way back around the result)', async ({ page, context }) => {
    for (const lang of ['zh', 'en', 'thai'] as const) {
      await setLangCookie(context, lang, test.info());
      await page.goto(seatPath(1128));
      // the lookup's event: its banner and its name, which the result page keeps
      const banner = (await page.locator('.hero img').first().getAttribute('src')) ?? '';
      const event = ((await page.locator('main .event').first().textContent()) ?? '').trim();
      await findSeat(page, 1128, '张伟', '东方电', '东方电子集团', seatPath(1128), lang);
      await expect(page).toHaveURL(/\/zuoweiSuccess\?/);
      await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG[lang]);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t(lang, 'seat.title'));
      await expect(page.getByTestId('seat')).toHaveText('A区 02排 11座');
      expect(await page.locator('script[src], astro-island').count(), 'the result page ships no JavaScript file').toBe(0);
      // the lookup's event, its seat map and the way back stay around the result
      if (banner) await expect(page.locator('.hero img').first()).toHaveAttribute('src', banner);
      if (event) await expect(page.locator('main .event').first()).toHaveText(event);
      expect(banner || event, 'the seat lookup shows its event (banner or name)').not.toBe('');
      await expect(page.getByRole('img', { name: t(lang, 'seat.map') })).toBeVisible();
      await expect(page.getByRole('link', { name: t(lang, 'seat.again') })).toHaveAttribute('href', seatPath(1128));
    }
  });

  test('1235: name → company → seat on /successYeJinJi, from the home, which is the seat lookup (spec §2.4)', async ({ page }) => {
    await findSeat(page, 1235, '陈静', '蓝海医', '蓝海医疗器械', seatPath(1235).replace(/^\/seat\//, '/'));
    await expect(page).toHaveURL(/\/successYeJinJi\?.*expoId=1235/);
    await expect(page.getByTestId('seat')).toHaveText('1号厅 C排 15座');
  });

  test('a name without consent is not found', async ({ page }) => {
    await page.goto(seatPath(1128));
    if (jsEnabled(test.info())) await page.waitForSelector('astro-island:not([ssr])');
    await page.getByLabel(t('zh', 'seat.name'), { exact: true }).first().fill('李娜');
    await page.getByLabel(t('zh', 'seat.companyLabel'), { exact: true }).first().fill('华信科技有限公司');
    await page.getByRole('button', { name: t('zh', 'seat.query') }).click();
    await expect(page.getByText(t('zh', 'seat.noSeat'))).toBeVisible();
    await expect(page.getByLabel(t('zh', 'seat.name'), { exact: true }).first()).toHaveValue('李娜');
  });

  test('empty name and empty company give their messages', async ({ page }) => {
    await page.goto(seatPath(1235));
    if (jsEnabled(test.info())) await page.waitForSelector('astro-island:not([ssr])');
    await page.getByRole('button', { name: t('zh', 'seat.query') }).click();
    await expect(page.getByText(t('zh', 'seat.nameRequired'))).toBeVisible();
    await page.getByLabel(t('zh', 'seat.name'), { exact: true }).first().fill('陈静');
    await page.getByRole('button', { name: t('zh', 'seat.query') }).click();
    await expect(page.getByText(t('zh', 'seat.companyRequired'))).toBeVisible();
    await expect(page.getByLabel(t('zh', 'seat.name'), { exact: true }).first()).toHaveValue('陈静');
    // The company step has one action (no "show my seat" beside "query seat"): one visible button.
    await expect(page.locator('main form.seat-form button:visible')).toHaveCount(1);
  });

  test(`past the per-address cap (its default, ${CAP} a minute) a lookup is refused, the typed values kept`, async ({ page }) => {
    test.setTimeout(90_000);
    const expoId = jsEnabled(test.info()) ? 1384 : 1385;
    const form = { expoId: String(expoId), urlId: String(20000 + expoId), ty: 'visitor', userName: '某人', companyName: '某公司' };
    // A scraper from this test's address, 50 at a time: every one of the cap goes through.
    for (let i = 0; i < CAP; i += 50) {
      const rs = await Promise.all(Array.from({ length: Math.min(50, CAP - i) }, () => page.request.post('/api/seat/detail', { form, maxRedirects: 0 })));
      expect(rs.map((r) => r.status()).filter((s) => s !== 303), `lookups ${i + 1}-${i + rs.length}`).toEqual([]);
    }
    await findSeatNoCompany(page, expoId);
    await expect(page.getByText(/此网络上同时请求的人较多，请 \d+ (秒|分钟)后再试/)).toBeVisible();
    await expect(page.getByLabel(t('zh', 'seat.name'), { exact: true }).first()).toHaveValue('某人');
  });

  test('the seats of a person in each activity (bottom popup) and the seat map', async ({ page }) => {
    await page.goto(seatPath(1128));
    await page.getByText(t('zh', 'seat.activitySeats')).click();
    await page.locator('#sheet-userName').fill('王芳');
    await page.locator('#sheet-companyName').fill('北辰物流');
    await page.getByRole('radio', { name: '欢迎晚宴' }).check();
    await page.locator('.seat-sheet').getByRole('button', { name: t('zh', 'seat.query') }).click();
    await expect(page.getByRole('cell', { name: '宴会厅 5号桌' })).toBeVisible();
    await expect(page.getByRole('img', { name: t('zh', 'seat.map') })).toBeVisible();
  });
});

/**
 * Issue 19 item 4, as the attacker runs it: a link to the result page with their own text (a
 * phishing line, a fake seat), or a real result with the seat changed. The page shows the seat
 * lookup again (or, naming none, "no seat"), never the link's text.
 */
test.describe('the seat result page shows only what the edge found', () => {
  const LURE = '座位已取消，请访问 evil.example 重新付费';

  test('an unsigned or altered result link shows the seat lookup again, never its text', async ({ page }) => {
    const real = await signedResult(page, 1235, '陈静', '蓝海医疗器械');
    const altered = new URL(real, 'http://x');
    altered.searchParams.set('seat', LURE);
    await page.goto(`${altered.pathname}${altered.search}`);
    await expect(page).toHaveURL(new RegExp(`/seat/21235/`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('zh', 'seat.lookupTitle'));
    await expect(page.getByText(LURE)).toHaveCount(0);
    const unsigned = new URLSearchParams({ userName: '陈静', companyName: LURE, seat: 'VIP 1', expoId: '1235', fId: '21235' });
    await page.goto(`/successYeJinJi?${unsigned.toString()}`);
    await expect(page).toHaveURL(new RegExp(`/seat/21235/`));
    await expect(page.getByText(LURE)).toHaveCount(0);
  });

  test("the spec's bare query (no url id to go back to) is 'no seat', with none of its text", async ({ page }) => {
    const res = await page.goto(`/zuoweiSuccess?${new URLSearchParams({ userName: LURE, companyName: 'x', seat: 'VIP 1' }).toString()}`);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('zh', 'seat.noSeat'));
    await expect(page.getByText(LURE)).toHaveCount(0);
    await expect(page.getByText('VIP 1')).toHaveCount(0);
  });

  test('a common name alone lists no one\'s company (the pick-list needs the start of the company)', async ({ page }) => {
    await page.goto(seatPath(1128));
    if (jsEnabled(test.info())) await page.waitForSelector('astro-island:not([ssr])');
    await page.getByLabel(t('zh', 'seat.name'), { exact: true }).first().fill('张伟');
    await page.getByLabel(t('zh', 'seat.companyLabel'), { exact: true }).first().fill('公司');
    await page.waitForTimeout(1_000); // past the 500 ms debounce: a list would be open by now
    await page.getByRole('button', { name: t('zh', 'seat.query') }).click();
    await expect(page.getByText(t('zh', 'seat.noSeat'))).toBeVisible();
    for (const company of ['华信科技有限公司', '东方电子集团', '南方建设股份']) await expect(page.getByText(company)).toHaveCount(0);
  });
});

/** Types a name and a company and queries (the limit test: no pick-list needed). */
async function findSeatNoCompany(page: Page, expoId: number): Promise<void> {
  await page.goto(seatPath(expoId));
  if (jsEnabled(test.info())) await page.waitForSelector('astro-island:not([ssr])');
  await page.getByLabel(t('zh', 'seat.name'), { exact: true }).first().fill('某人');
  await page.getByLabel(t('zh', 'seat.companyLabel'), { exact: true }).first().fill('某公司');
  await page.getByRole('button', { name: t('zh', 'seat.query') }).click();
}

test.describe('pledge', () => {
  test('refused before 5 s, accepted after; then the lookup shows', async ({ page }) => {
    await page.goto(lookupPath('search', 22012, 2012));
    await expect(page.getByRole('heading', { name: t('zh', 'pledge.title') })).toBeVisible();
    if (jsEnabled(test.info())) {
      await page.waitForSelector('astro-island:not([ssr])');
      const counting = page.getByRole('button', { name: /我已阅读并承诺（\d秒）/ });
      await expect(counting).toBeDisabled();
      const confirm = page.getByRole('button', { name: t('zh', 'pledge.confirm'), exact: true });
      await expect(confirm).toBeEnabled({ timeout: 7_000 });
      await confirm.click();
    } else {
      await page.getByRole('button', { name: t('zh', 'pledge.confirm') }).click();
      await expect(page.getByText(/请先阅读承诺书，\d 秒后可确认/)).toBeVisible();
      await page.waitForTimeout(5_100);
      await page.getByRole('button', { name: t('zh', 'pledge.confirm') }).click();
    }
    await expect(page.getByRole('heading', { name: t('zh', 'pledge.title') })).toHaveCount(0);
    await expect(page.getByRole('button', { name: t('zh', 'search.submit') })).toBeVisible();
  });
});

test.describe('health upload', () => {
  test('a JPEG uploaded, listed and deleted on the credential page, the result where the visitor is (zh, en, thai)', async ({ page, context }) => {
    test.setTimeout(60_000);
    const email = jsEnabled(test.info()) ? 'health-js@demo.test' : 'health-nojs@demo.test';
    const location = await lookUpByEmail(page.request, email, HEALTH);
    expect(location).toMatch(/^\/success\//);
    for (const lang of ['zh', 'en', 'thai'] as const) {
      await setLangCookie(context, lang, test.info());
      await page.goto(location);
      await expect(page.getByRole('heading', { name: t(lang, 'health.upload') })).toBeVisible();
      if (jsEnabled(test.info())) await page.waitForSelector('astro-island:not([ssr])');
      await page.getByLabel(t(lang, 'health.kind')).selectOption('3');
      await page.getByLabel(t(lang, 'health.file')).setInputFiles({ name: 'test.jpg', mimeType: 'image/jpeg', buffer: JPEG });
      await page.getByRole('button', { name: t(lang, 'health.submit') }).click();
      // the page comes back at the upload (#health) and says what happened there (issue 23), with JavaScript too
      await expect(page).toHaveURL((u) => u.hash === '#health');
      await expect(page.getByText(t(lang, 'upload.success'), { exact: true })).toBeInViewport();
      const kind = t(lang, 'health.kind3');
      const del = page.getByRole('button', { name: new RegExp(`^${t(lang, 'health.deleteOf').split('{{what}}')[0]}${kind}`) });
      await expect(del).toHaveCount(1);
      const img = page.getByRole('img', { name: t(lang, 'health.view').replace('{{what}}', kind) });
      await expect(img).toBeVisible();
      // A lazy image loads after it is laid out: wait for the load (a broken image completes with width 0).
      await img.scrollIntoViewIfNeeded();
      await expect
        .poll(() => img.evaluate((el) => ((el as HTMLImageElement).complete ? (el as HTMLImageElement).naturalWidth : -1)))
        .toBeGreaterThan(0);
      await del.click();
      await expect(page.getByText(t(lang, 'health.deleted'), { exact: true })).toBeInViewport();
      await expect(page.getByText(t(lang, 'health.none'))).toBeVisible();
    }
  });
});

/** As every spec scans (tests/e2e/axe.ts). */
const scan = (page: Page, browser: Browser, what: string) => expectAxeClean(page, browser, what);

const SCREENS: readonly { what: string; open: (page: Page, lang: Lang) => Promise<void>; nojsOnly?: true; jsOnly?: true }[] = [
  { what: 'seat lookup 1235', open: async (page) => void (await page.goto(seatPath(1235))) },
  {
    what: 'seat company pick-list open',
    jsOnly: true,
    open: async (page, lang) => {
      await page.goto(seatPath(1128));
      await page.waitForSelector('astro-island:not([ssr])');
      await page.getByLabel(t(lang, 'seat.name'), { exact: true }).first().fill('张伟');
      await page.getByRole('combobox', { name: t(lang, 'seat.companyLabel') }).fill('华信科');
      await expect(page.getByRole('option', { name: '华信科技有限公司' })).toBeVisible();
    },
  },
  {
    what: 'activity sheet with seats',
    open: async (page, lang) => {
      await page.goto(seatPath(1128));
      await page.getByText(t(lang, 'seat.activitySeats')).click();
      await page.locator('#sheet-userName').fill('王芳');
      await page.locator('#sheet-companyName').fill('北辰物流');
      await page.getByRole('radio', { name: '开幕式' }).check();
      await page.locator('.seat-sheet').getByRole('button', { name: t(lang, 'seat.query') }).click();
      await expect(page.getByRole('cell', { name: '主会场 1排' })).toBeVisible();
    },
  },
  {
    what: '/zuoweiSuccess',
    open: async (page) => void (await page.goto(await signedResult(page, 1128, '张伟', '东方电子集团'))),
  },
  {
    what: '/successYeJinJi',
    open: async (page) => void (await page.goto(await signedResult(page, 1235, '陈静', '蓝海医疗器械'))),
  },
  {
    what: 'pledge (expo 2012 lookup)',
    open: async (page, lang) => {
      await page.goto(lookupPath('search', 22012, 2012));
      await expect(page.getByRole('heading', { name: t(lang, 'pledge.title') })).toBeVisible();
    },
  },
  {
    what: 'credential page with the health upload',
    open: async (page, lang) => {
      await page.goto(await lookUpByEmail(page.request, 'health-a11y@demo.test', HEALTH));
      await expect(page.getByRole('heading', { name: t(lang, 'health.upload') })).toBeVisible();
    },
  },
];

test.describe('accessibility (axe-core) of the new screens', () => {
  for (const lang of ['zh', 'en'] as const satisfies readonly Lang[]) {
    for (const screen of SCREENS) {
      // A screen that exists only with JavaScript (the pick-list) or only without it (the no-JS
      // company choices) runs in that project only (playwright.config.ts: @js, @nojs).
      const tag = screen.jsOnly ? ['@js'] : screen.nojsOnly ? ['@nojs'] : [];
      test(`${screen.what} in ${lang}`, { tag }, async ({ page, context, browser }) => {
        await setLangCookie(context, lang, test.info());
        await screen.open(page, lang);
        await scan(page, browser, `${screen.what} ${lang}`);
      });
    }
  }
});
