/**
 * Home screens by expo (spec §2.4), config application and expo ended (§4), share previews for
 * crawlers (§1), the banner carousel (§2.5) and the language menu on a home page, against the
 * seeded reference upstream (functions/reference/SEED.md). Both projects: `js` and `nojs`.
 */
import { expect, type Page } from '@playwright/test';
import { encodeId } from '../../src/lib/util/ids';
import { HTML_LANG, jsEnabled, setLangCookie, t, test } from './fixtures';

/** The home of an expo's visitor url (SEED.md: 20000 + expo id) or of another url. */
const home = (expoId: number, fId = 20000 + expoId, ty = 'visitor') => `/${fId}/${encodeId(expoId)}/${ty}`;

/** The lookup form every lookup screen renders (a real form, works without JavaScript). */
const lookupForm = (page: Page) => page.locator('form[action="/api/lookup"]');

test.describe('each home screen of spec §2.4 renders', () => {
  const VARIANT_HOMES: ReadonlyArray<[number, number]> = [
    [976, 20976],
    [1106, 21106],
    [1261, 21261],
    [1312, 21312],
    [1313, 21313],
    [1314, 21314],
    [1316, 21316],
    [1317, 21317],
    [1308, 21308], // customerWx 5959
    [1262, 21262],
    [1108, 21108],
    [1113, 21113],
    [1178, 21178],
    [1179, 21179],
  ];
  for (const [expoId, fId] of VARIANT_HOMES) {
    test(`${expoId}: the variant's lookup at the home URL`, async ({ page }) => {
      const res = await page.goto(home(expoId, fId));
      expect(res?.status()).toBe(200);
      expect(new URL(page.url()).pathname).toBe(home(expoId, fId));
      await expect(lookupForm(page)).toBeVisible();
      await expect(lookupForm(page).locator('input[name="variant"]')).not.toHaveValue('');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    });
  }

  for (const [expoId, fId] of [
    [1128, 21128],
    [1193, 21193],
    [1197, 21197],
    [1218, 21218],
    [1384, 21384],
    [1385, 21385],
    [1235, 21235],
  ] as const) {
    test(`${expoId}: the seat lookup itself at the home URL`, async ({ page }) => {
      const res = await page.goto(home(expoId, fId));
      expect(res?.status()).toBe(200);
      expect(new URL(page.url()).pathname).toBe(home(expoId, fId));
      await expect(lookupForm(page)).toHaveCount(0);
      await expect(page.locator(`a[href="/seat${home(expoId, fId)}"]`)).toHaveCount(0);
      // the home keeps its share tags (spec §1) and shows the organiser's image once (the carousel)
      await expect(page.locator('meta[property="og:title"]')).toHaveCount(1);
      await expect(page.locator('.hero')).toHaveCount(0);
      if (expoId === 1197) {
        // the seed's pledge expo: the pledge comes first, as on /seat (spec §2.5)
        await expect(page.getByRole('heading', { level: 1, name: t('zh', 'pledge.title') })).toBeVisible();
        return;
      }
      await expect(page.getByRole('heading', { level: 1, name: t('zh', 'seat.lookupTitle') })).toBeVisible();
      await expect(page.locator('form[action="/api/seat/detail"]')).toBeVisible();
      await expect(page.getByLabel(t('zh', 'seat.name'), { exact: true }).first()).toBeVisible();
    });
  }

  test('1142: the image page', async ({ page }) => {
    await page.goto(home(1142));
    await expect(page.locator('.home-images img').first()).toBeVisible();
    // signType 2 forces English (spec §4)
    await expect(page.getByRole('link', { name: t('en', 'home.register') })).toHaveAttribute(
      'href',
      `/form${home(1142)}`,
    );
  });

  test('498: nuclear-expo landing with camera, register, permit and the online expo', async ({ page }) => {
    await page.goto(home(498));
    await expect(page.getByRole('link', { name: t('zh', 'home.cameraButton') })).toBeVisible();
    await expect(page.getByRole('link', { name: t('zh', 'home.register') })).toHaveAttribute(
      'href',
      `/form${home(498)}`,
    );
    await expect(page.getByRole('link', { name: t('zh', 'home.permit') })).toHaveAttribute(
      'href',
      `/form/20498/${encodeId(498)}/permit`,
    );
    const online = page.getByRole('link', { name: t('zh', 'home.onlineExpo') });
    await expect(online).toHaveAttribute('href', 'https://expo.example/498/20498');
    await expect(online).toHaveAttribute('rel', /noopener/);
  });

  test('1177: two tabs (button1/button2), except configs 5013 (English lookup) and 5127 (buttons)', async ({
    page,
  }) => {
    await page.goto(home(1177));
    const tabs = page.getByRole('navigation', { name: t('zh', 'home.tabsLabel') });
    await expect(tabs.getByRole('link', { name: '内地观众' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('link', { name: t('zh', 'home.query') })).toHaveAttribute(
      'href',
      `/search${home(1177)}?mode=1`,
    );
    await tabs.getByRole('link', { name: '港澳台及海外观众' }).click();
    await expect(page).toHaveURL(/\?tab=2$/);
    await expect(page.getByRole('link', { name: t('zh', 'home.query') })).toHaveAttribute(
      'href',
      `/search${home(1177)}?mode=2`,
    );

    await page.goto(home(1177, 31177));
    await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG.en);
    await expect(lookupForm(page)).toBeVisible();

    await page.goto(home(1177, 41177));
    await expect(page.getByRole('link', { name: t('zh', 'home.query') })).toBeVisible();
    await expect(lookupForm(page)).toHaveCount(0);
  });

  test('generic signType 1 (2001): the Chinese lookup; 2 (2002): English with the camera button; 3 (2003): two tabs', async ({
    page,
    context,
  }, info) => {
    await setLangCookie(context, 'thai', info);
    await page.goto(home(2001));
    await expect(lookupForm(page)).toBeVisible();
    await expect(lookupForm(page).locator('input[name="variant"]')).toHaveValue('');

    await page.goto(home(2002));
    // signType 2 forces English over the thai cookie (spec §4)
    await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG.en);
    await expect(page.getByRole('link', { name: t('en', 'home.cameraButton') })).toBeVisible();

    await page.goto(home(2003));
    await expect(page.getByRole('navigation', { name: t('thai', 'home.tabsLabel') })).toBeVisible();
  });

  test('signType 4 (1216): register image button, query button and the ticket lookup', async ({ page }) => {
    await page.goto(home(1216));
    await expect(page.getByRole('heading', { level: 1, name: '立即登记' })).toBeVisible();
    await expect(page.getByRole('link', { name: '立即登记' })).toHaveAttribute('href', `/form${home(1216)}`);
    await expect(page.getByRole('link', { name: '查询登记' })).toHaveAttribute('href', `/search${home(1216)}`);
    await expect(page.getByRole('link', { name: t('zh', 'home.ticket') })).toHaveAttribute(
      'href',
      `/ticket${home(1216)}`,
    );
  });

  test('/CMEF: the registration landing', async ({ page }) => {
    await page.goto('/CMEF');
    await expect(page).toHaveTitle(t('zh', 'home.registerTitle'));
    await expect(page.getByRole('heading', { level: 1, name: t('zh', 'home.registerTitle') })).toBeVisible();
  });

  test('/AsiaFashionShow: three registration image links and four social links', async ({ page }) => {
    await page.goto('/AsiaFashionShow');
    await expect(page.locator('.fashion-links a')).toHaveCount(3);
    await expect(page.locator('.fashion-links a img')).toHaveCount(3);
    const social = page.locator('.social-links a');
    await expect(social).toHaveCount(4);
    for (const a of await social.all()) {
      await expect(a).toHaveAttribute('href', /^https:\/\//);
      await expect(a).toHaveAttribute('rel', /noopener/);
    }
  });
});

test.describe('entry guard and expo ended (spec §2.3, §4)', () => {
  test('380 goes to /auto{path} and renders there', async ({ page }) => {
    const res = await page.goto(`${home(380)}?code=x&state=y`);
    expect(res?.status()).toBe(200);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(`/auto${home(380)}`);
  });

  test('ended: the generic tip, 343 opening soon (no confirm button), 1042 to the form', async ({ page }) => {
    await page.goto(home(2005));
    await expect(page.getByRole('alert').filter({ hasText: t('zh', 'error.expoOver') })).toBeVisible();
    await page.goto(home(343));
    const alert = page.getByRole('alert').filter({ hasText: t('zh', 'error.openingSoon') });
    await expect(alert).toBeVisible();
    await expect(alert.getByRole('button')).toHaveCount(0);
    await page.goto(home(1042));
    expect(new URL(page.url()).pathname).toBe(`/form${home(1042)}`);
    await page.goto(home(2001));
    await expect(page.locator('.expo-alert')).toHaveCount(0);
  });
});

test.describe('share previews for crawlers (spec §1)', () => {
  const AGENTS = {
    messaging:
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 MicroMessenger/8.0.47.2560',
    whatsapp: 'WhatsApp/2.23.20.0 A',
  };
  for (const [name, ua] of Object.entries(AGENTS)) {
    test(`${name} crawler gets the share tags in the first bytes`, { tag: '@http' }, async ({ request, baseURL }) => {
      // The guard starts the messaging app's login only when the upstream gives an app id: the reference has none.
      const res = await request.get(home(2001), { headers: { 'user-agent': ua }, maxRedirects: 0 });
      expect(res.status()).toBe(200);
      const html = await res.text();
      const head = html.slice(0, 2048);
      expect(head).toContain('<meta property="og:title" content="通用中文查询展：立即预登记">');
      expect(head).toContain('<meta property="og:description" content="在线预登记，领取电子胸卡">');
      expect(head).toContain(`<meta property="og:image" content="${baseURL}/logo.jpg">`);
      expect(head).toContain(`<meta property="og:url" content="${baseURL}${home(2001)}">`);
      expect(head).toContain('<meta itemprop="name" content="通用中文查询展：立即预登记">');
      expect(head).toContain(`<meta itemprop="image" content="${baseURL}/logo.jpg">`);
      expect(html.indexOf('og:title')).toBeLessThan(html.indexOf('</head>'));
    });
  }

  test('the lookup pages carry them too', { tag: '@http' }, async ({ request }) => {
    const html = await (await request.get('/IEAESearch/21308/MTMwOA/visitor')).text();
    expect(html.slice(0, 2048)).toContain('<meta property="og:title" content="国际能源展：立即预登记">');
  });

  test('a personal share: the name plus the invites text', { tag: '@http' }, async ({ request, baseURL }) => {
    const q = `?defineName=${encodeURIComponent('Ann')}&shareUserId=7`;
    const html = await (await request.get(`${home(2001)}${q}`)).text();
    const title = `${t('zh', 'share.invites').replace('{{name}}', 'Ann')} · 通用中文查询展：立即预登记`;
    expect(html).toContain(`<meta property="og:title" content="${title}">`);
    expect(html).toContain(
      `<meta property="og:url" content="${baseURL}${home(2001)}?defineName=Ann&amp;shareUserId=7">`,
    );
  });

  test('a name with markup is text in the tags, never markup or script', async ({ page }) => {
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const name = '"><script>alert(1)</script>';
    await page.goto(`${home(2001)}?defineName=${encodeURIComponent(name)}&shareUserId=7`);
    const title = `${t('zh', 'share.invites').replace('{{name}}', name)} · 通用中文查询展：立即预登记`;
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', title);
    await expect(page.locator('meta[itemprop="name"]')).toHaveAttribute('content', title);
    expect(
      await page.locator('script').evaluateAll((els) => els.filter((e) => e.textContent?.includes('alert(1)')).length),
    ).toBe(0);
    expect(dialogs).toEqual([]);
  });
});

test.describe('banner carousel (spec §2.5)', () => {
  test('jump links: http(s) opens a new window, anything else is never followed', async ({ page }, info) => {
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(home(2001));
    const banner = page.getByRole('region', { name: t('zh', 'banner.label') });
    // Without JavaScript the first image shows (server render); its valid link is a plain link.
    const first = banner.locator('.banner-slide').first();
    await expect(first).toBeVisible();
    const link = first.getByRole('link');
    await expect(link).toHaveAttribute('href', 'https://example.com/expo-2001');
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', /noopener/);
    await expect(banner.locator('.banner-slide').nth(1)).toBeHidden();
    // the javascript: link is never an href anywhere on the page
    await expect(page.locator('a[href^="javascript:"]')).toHaveCount(0);

    if (!jsEnabled(info)) return;
    // The banner and the footer carousel (spec §2.5) are both hydrated.
    await expect(page.locator('astro-island[component-url*="Banner"]:not([ssr])')).toHaveCount(2);
    await banner.getByRole('button', { name: t('zh', 'banner.next') }).click();
    const second = banner.locator('.banner-slide').nth(1);
    await expect(second).toBeVisible();
    const popup = page.waitForEvent('popup', { timeout: 1000 }).then(
      () => true,
      () => false,
    );
    await second.getByRole('button').click();
    await expect(page.getByRole('status').filter({ hasText: t('zh', 'banner.jumpError') })).toBeVisible();
    expect(await popup).toBe(false);
    expect(new URL(page.url()).pathname).toBe(home(2001));
    expect(dialogs).toEqual([]);
  });

  test('a tap on an image without link opens the full-screen preview', async ({ page }, info) => {
    await page.goto(home(1216));
    const banner = page.getByRole('region', { name: t('zh', 'banner.label') });
    const button = banner.locator('.banner-slide').first().getByRole('button');
    await expect(button.locator('img')).toHaveAttribute('src', '/logo.jpg');
    if (!jsEnabled(info)) return;
    await expect(page.locator('astro-island[component-url*="Banner"]:not([ssr])').first()).toBeAttached();
    await expect(page.locator('astro-island[component-url*="Banner"][ssr]')).toHaveCount(0);
    await button.click();
    const dialog = page.getByRole('dialog', { name: t('zh', 'banner.preview') });
    await expect(dialog).toBeVisible();
    await expect(dialog.locator('img')).toHaveAttribute('src', '/logo.jpg');
    await dialog.getByRole('button', { name: t('zh', 'app.close') }).click();
    await expect(dialog).toHaveCount(0);
  });
});

test('the language menu on a home page (1177, not forced)', async ({ page }) => {
  await page.goto(home(1177));
  await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG.zh);
  const menu = page.getByRole('navigation', { name: t('zh', 'app.language') });
  await menu.getByRole('combobox', { name: t('zh', 'app.language') }).selectOption('en');
  await menu.getByRole('button', { name: t('zh', 'app.confirm') }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG.en);
  expect(new URL(page.url()).pathname).toBe(home(1177));
  await expect(page.getByRole('link', { name: t('en', 'home.register') })).toBeVisible();
});

test('the language menu offers only what the page will show, and shows what it is showing (zh, en, thai chosen)', async ({ page, context }) => {
  for (const lang of ['zh', 'en', 'thai'] as const) {
    // The cookie is site-wide: a choice made elsewhere.
    await setLangCookie(context, lang, test.info());
    // 1216 (signType 4, no languageType) is Chinese whatever is chosen (spec §4): no menu to ignore.
    await page.goto(home(1216));
    await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG.zh);
    await expect(page.locator('nav.lang')).toHaveCount(0);
    // 1308 shows the chosen language, and its menu says so.
    await page.goto('/21308/MTMwOA/visitor');
    await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG[lang]);
    const menu = page.getByRole('navigation', { name: t(lang, 'app.language') });
    await expect(menu.getByRole('combobox', { name: t(lang, 'app.language') })).toHaveValue(lang);
  }
});
