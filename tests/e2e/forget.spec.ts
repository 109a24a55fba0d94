/**
 * Issue 19 item 3, "a shared phone keeps it", in Chromium against the built Worker, JavaScript on
 * and off: a visitor looks up their credential on a phone, then presses "forget this device".
 * Afterwards the lookup says it is done and types in no previous contact, the credential link shows
 * no name, and (with JavaScript, where the service worker had stored the page) the credential URL
 * opens no stored copy without a network. A cross-site post forgets nothing.
 */
import { expect } from '@playwright/test';
import { t, test, visitorHeaders } from './fixtures';
import { caseOf, credentialPath, form, js, lookupByEmail, lookupUrl, openLookup, texts } from './lookup-helpers';

const IEAE = caseOf('IEAE');
const CODE = IEAE.one.euCode;
const LOOKUP = lookupUrl(IEAE);
const forgetButton = (page: import('@playwright/test').Page) => page.getByRole('button', { name: t('zh', 'forget.button'), exact: true });

test.describe('forget this device', () => {
  test('after a lookup, forgetting leaves no contact, no name and (with JS) no offline copy', async ({ page, context, request }) => {
    const s = await openLookup(page, LOOKUP);
    await lookupByEmail(page, request, 'one@demo.test', s);
    await expect(page).toHaveURL((u) => u.pathname === new URL(credentialPath(IEAE, CODE), 'http://x').pathname);
    // the owner sees the name
    await expect(page.getByText(IEAE.one.name, { exact: true })).toBeVisible();
    const credentialUrl = page.url();
    if (js()) {
      // the lookup's island registered the service worker, which stored this page
      expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
      await expect
        .poll(() => page.evaluate(async () => (await Promise.all((await caches.keys()).map(async (k) => (await (await caches.open(k)).keys()).length))).reduce((a, b) => a + b, 0)))
        .toBeGreaterThan(0);
    }
    // the lookup still remembers the contact the code went to (issue 14 item 3)
    await page.goto(LOOKUP);
    await expect(form(page, s).email).toHaveValue('one@demo.test');

    await page.goto(credentialUrl);
    await forgetButton(page).click();
    await expect(page).toHaveURL((u) => u.pathname === LOOKUP);
    await expect(page.getByText(t('zh', 'forget.done'))).toBeVisible();
    await expect(form(page, await texts(page)).email).toHaveValue('');
    // a reload: still no previous contact
    await page.reload();
    await expect(form(page, s).email).toHaveValue('');
    const names = (await context.cookies()).map((c) => c.name);
    for (const gone of ['vc', 'sentTo', 'sent']) expect(names, gone).not.toContain(gone);

    if (js()) {
      // Clear-Site-Data "storage" dropped the caches (and the worker emptied them on the post):
      // no stored copy of the credential or its QR is left, whatever the re-registered worker stored since
      const stored = await page.evaluate(async () =>
        (await Promise.all((await caches.keys()).map(async (k) => (await (await caches.open(k)).keys()).map((r) => new URL(r.url).pathname)))).flat(),
      );
      // (the worker's note of an expo's page language, `/sw-meta/lang/{expo}`, names no one: the
      // lookup page shown after forgetting writes it again)
      expect(stored.filter((p) => !p.startsWith('/_astro/') && !p.startsWith('/sw-meta/lang/'))).toEqual([]);
      // without a network the credential URL opens no stored copy
      await context.setOffline(true);
      const offline = await page.goto(credentialUrl).catch(() => null);
      expect(offline === null || offline.status() !== 200).toBe(true);
      await expect(page.locator('dd.code')).toHaveCount(0);
      await context.setOffline(false);
    }

    // the credential link now shows the code, not the person
    await page.goto(credentialUrl);
    await expect(page.locator('dd.code')).toHaveText(CODE);
    await expect(page.getByText(IEAE.one.name, { exact: true })).toHaveCount(0);
    await expect(page.getByText(t('zh', 'success.detailsHidden'))).toBeVisible();
  });

  test('the forget form is on the lookup and the list, and works from there', async ({ page }) => {
    await page.goto(LOOKUP);
    await expect(forgetButton(page)).toBeVisible();
    await forgetButton(page).click();
    await expect(page).toHaveURL((u) => u.pathname === LOOKUP);
    await expect(page.getByText(t('zh', 'forget.done'))).toBeVisible();
  });

  test('the done message follows the page language', async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: '_h5_lang', value: 'thai', url: baseURL ?? '' }]);
    await page.goto(credentialPath(IEAE, CODE));
    await page.getByRole('button', { name: t('thai', 'forget.button'), exact: true }).click();
    await expect(page.getByText(t('thai', 'forget.done'))).toBeVisible();
  });
});

test.describe('forget this device: attacks', { tag: '@http' }, () => {
  test('a cross-site post forgets nothing; GET and HEAD forget nothing', async ({ playwright, baseURL }) => {
    const visitor = await playwright.request.newContext({ baseURL: baseURL ?? '', extraHTTPHeaders: visitorHeaders(test.info(), 1) });
    const { lookUpByEmail } = await import('./fixtures');
    await lookUpByEmail(visitor, 'one@demo.test');
    const page = credentialPath(IEAE, CODE);
    expect(await (await visitor.get(page)).text()).toContain(IEAE.one.name);
    const cross = await visitor.post('/api/forget', { form: { back: page }, headers: { origin: 'https://evil.example' }, maxRedirects: 0 });
    expect(cross.status()).toBe(403);
    expect(cross.headers()['clear-site-data']).toBeUndefined();
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await visitor.fetch('/api/forget', { method, maxRedirects: 0 });
      expect(res.status(), method).toBe(405);
    }
    expect(await (await visitor.get(page)).text(), 'still signed in').toContain(IEAE.one.name);
    const real = await visitor.post('/api/forget', { form: { back: page }, headers: { origin: baseURL ?? '' }, maxRedirects: 0 });
    expect(real.status()).toBe(303);
    expect(real.headers()['clear-site-data']).toBe('"cache", "storage"');
    expect(await (await visitor.get(page)).text()).not.toContain(IEAE.one.name);
    await visitor.dispose();
  });

  test('an old link of a code nobody has leads to the lookup, not a bare error', async ({ request }) => {
    const res = await request.get(credentialPath(IEAE, 'NOSUCHCODE000000'));
    expect(res.status()).toBe(404);
    const html = await res.text();
    expect(html).toContain(t('zh', 'success.lookupLink'));
    expect(html).toContain(`href="${LOOKUP}"`);
  });
});
