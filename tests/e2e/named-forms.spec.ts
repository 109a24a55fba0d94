/**
 * The named forms of spec §2.3 (src/lib/core/named-forms.ts) in Chromium, JavaScript on and off: the
 * ocean expo's form to its credential, the visitor's own details (`/userInfo`) and the
 * correction of that registration (`/reForm`), and the exhibitor registration (`/subyexhi`,
 * addExhiUserInfor) to its class 2 credential; a legacy link without any path. Each new screen
 * gets an axe scan in the flow. Contacts are fresh per test (demo expo 2030, SEED.md "Named forms").
 */
import { expect, type Page, type TestInfo } from '@playwright/test';
import { expectAxeClean } from './axe';
import { HTML_LANG, jsEnabled, lookUpByEmail, t, type Lang, type LookupTarget, test } from './fixtures';
import { decodeId, encodeId } from '../../src/lib/util/ids';

const OCEAN = 2030;
const EID = encodeId(OCEAN);
let counter = 0;
const freshEmail = (info: TestInfo) => `named-${jsEnabled(info) ? 'js' : 'nojs'}-${Date.now()}-${counter++}@demo.test`;

function target(fId: number, ty = 'visitor'): LookupTarget {
  return { expoId: OCEAN, urlId: fId, ty, variant: '', f: '', back: `/search/${fId}/${EID}/${ty}` };
}

async function pageLang(page: Page): Promise<Lang> {
  const tag = await page.locator('html').getAttribute('lang');
  return (Object.entries(HTML_LANG) as [Lang, string][]).find(([, v]) => v === tag)?.[0] ?? 'zh';
}

/** Opens a form page; with JS waits for its island to take over. */
async function open(page: Page, info: TestInfo, path: string): Promise<Lang> {
  const res = await page.goto(path);
  expect(res?.status(), path).toBe(200);
  if (jsEnabled(info)) await expect(page.locator('astro-island[ssr]')).toHaveCount(0, { timeout: 15_000 });
  return pageLang(page);
}

/** Fills every required part still empty: choices first, then the typed values. */
async function fillForm(page: Page, values: Record<string, string>): Promise<void> {
  const form = page.locator('#reg-form');
  for (const select of await form.locator('select').all()) {
    const name = (await select.getAttribute('name')) ?? '';
    if (!name.endsWith('.areaCode') && (await select.inputValue()) === '') await select.selectOption({ index: 1 });
  }
  for (const group of await form.locator('.form-checkbox, .form-radio').all()) {
    if ((await group.locator('input:checked').count()) === 0) await group.locator('input[type="checkbox"], input[type="radio"]').first().check();
  }
  const privacy = form.locator('.form-privacy input[type="checkbox"]');
  if ((await privacy.count()) > 0 && !(await privacy.isChecked())) await privacy.check();
  for (const [name, value] of Object.entries(values)) await form.locator(`[name="${name}"]`).fill(value);
}

/** Submits and waits for the credential page; returns its registration code. */
async function submitToCredential(page: Page): Promise<string> {
  await page.locator('#reg-form .reg-submit').click();
  await page.waitForURL(/\/success\//);
  const euCode = decodeId(new URL(page.url()).pathname.split('/')[3] ?? '') ?? '';
  expect(euCode).not.toBe('');
  await expect(page.locator('.credential .code')).toHaveText(euCode);
  return euCode;
}

test('a legacy link without parameters says what is missing, never "not found"', { tag: '@http' }, async ({ request }) => {
  for (const route of ['jjcz2024', 'ocean', 'formCic', 'reForm', 'twoForm', 'userInfo', 'subyexhi']) {
    const res = await request.get(`/${route}`);
    expect(res.status(), route).toBe(200);
    const html = await res.text();
    expect(html, route).toContain(t('zh', 'forms2.noPathText'));
    expect(html, route).not.toContain(t('zh', 'notFound.title'));
  }
  // with their path, the plain forms are their own pages (unverified: the link to the lookup)
  for (const [path, key] of [
    [`/jjcz2024/22024/${encodeId(2024)}/visitor`, 'forms2.jjcz2024Title'],
    [`/formCic/32030/${EID}/visitor`, 'forms2.cicTitle'],
  ] as const) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    expect(await res.text(), path).toMatch(new RegExp(`<h1[^>]*>${t('zh', key)}</h1>`));
  }
});

test('a generic lookup answered 20003 leads to /twoForm with the saved values', { tag: '@http' }, async ({ request }) => {
  const location = await lookUpByEmail(request, 'second@demo.test', target(22030));
  expect(location).toBe(`/twoForm/22030/${EID}/visitor`);
  const res = await request.get(location);
  expect(res.status()).toBe(200);
  const html = await res.text();
  expect(html).toContain(t('zh', 'forms2.twoFormTitle'));
  expect(html).toMatch(/<option[^>]*value="Shipping"[^>]*selected/);
});

test('ocean form → credential; userInfo lists it; reForm updates it', async ({ page, browser }, info) => {
  test.slow(); // three screens, each with an axe scan
  // the legacy link's page, scanned once
  await page.goto('/ocean');
  await expectAxeClean(page, browser, '/ocean without a path');

  const email = freshEmail(info);
  await lookUpByEmail(page.request, email, target(22030));
  const lang = await open(page, info, `/ocean/22030/${EID}/visitor`);
  await expect(page.locator('h1')).toHaveText(t(lang, 'forms2.oceanTitle'));
  await expect(page.locator('#reg-form [name="email"]')).toHaveValue(email);
  await expectAxeClean(page, browser, '/ocean');
  await fillForm(page, { uname: 'Ocean Visitor', ucompany: 'Tide Co.' });
  const euCode = await submitToCredential(page);

  await open(page, info, `/userInfo/22030/${EID}/visitor`);
  await expect(page.locator('h1')).toHaveText(t(lang, 'forms2.userInfoTitle'));
  const item = page.locator('.own-item').filter({ hasText: euCode });
  await expect(item).toContainText('Tide Co.');
  await expectAxeClean(page, browser, '/userInfo');

  await item.getByRole('link', { name: new RegExp(`^${t(lang, 'forms2.edit')}`) }).click();
  await page.waitForURL(/\/reForm\//);
  if (jsEnabled(info)) await expect(page.locator('astro-island[ssr]')).toHaveCount(0, { timeout: 15_000 });
  await expect(page.locator('h1')).toHaveText(t(lang, 'forms2.reFormTitle'));
  await expect(page.locator('#reg-form [name="uname"]')).toHaveValue('Ocean Visitor');
  await expect(page.locator('#reg-form [name="ucompany"]')).toHaveValue('Tide Co.');
  await expectAxeClean(page, browser, '/reForm');
  await fillForm(page, { ucompany: 'Reef Trading Ltd' });
  expect(await submitToCredential(page)).toBe(euCode);
  await expect(page.locator('.credential')).toContainText('Reef Trading Ltd');
});

test('subyexhi: an exhibitor registers to a class 2 credential', async ({ page, browser }, info) => {
  const email = freshEmail(info);
  await lookUpByEmail(page.request, email, target(42030, 'exhibitor'));
  const lang = await open(page, info, `/subyexhi/42030/${EID}/exhibitor`);
  await expect(page.locator('h1')).toHaveText(t(lang, 'forms2.exhibitorTitle'));
  await expectAxeClean(page, browser, '/subyexhi');
  await fillForm(page, { ucompany: 'Harbour Marine Ltd', boothNo: 'B-12', uname: 'Mei Lin' });
  await submitToCredential(page);
  await expect(page.locator('.credential')).toContainText(t(lang, 'class.2'));
  await expect(page.locator('.credential')).toContainText('Harbour Marine Ltd');
});
