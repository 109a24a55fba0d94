/**
 * Issue 13, the credential at the entrance, in Chromium against the built Worker (both projects
 * unless tagged @js): the QR code is an `<img>` whose own bytes decode to the euCode, the save
 * link downloads that PNG, the usage sits by the QR with a refresh link, the page stays at
 * 0 JavaScript files and `private, no-store`; a scan at the gate shows as the new count and the
 * last entry; the offline copy says when it was saved.
 */
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { expect } from '@playwright/test';
import { expectAxeClean } from './axe';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { caseOf, credentialPath, lookupByEmail, lookupUrl, openLookup, pageLang, textPattern } from './lookup-helpers';
import { HTML_LANG, obtainCredentialPath, setLangCookie, strings, t, type Lang, test } from './fixtures';
import { CREDENTIAL_VIEW_TTL_MS } from '../../src/lib/credential/view-cache';

const IEAE = caseOf('IEAE');
const CODE = IEAE.one.euCode;
const PATH = `${credentialPath(IEAE, CODE)}?f=e2e`;

function decodePng(bytes: Buffer): { data: string | null; width: number } {
  const png = PNG.sync.read(bytes);
  return { data: jsQR(Uint8ClampedArray.from(png.data), png.width, png.height)?.data ?? null, width: png.width };
}

test.describe('credential page: save the QR to the phone', () => {
  test('the QR is an <img> of a PNG that decodes to the euCode, crisp at 3x', async ({ page, request }) => {
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    const res = await page.goto(PATH);
    expect(res?.status()).toBe(200);
    const img = page.locator('img.qr');
    await expect(img).toBeVisible();
    await expect(img).toHaveAttribute('alt', t('zh', 'success.qrAlt').replace('{{code}}', CODE));
    const box = await img.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThanOrEqual(240);
    const natural = await img.evaluate((el) => (el as HTMLImageElement).naturalWidth).catch(() => null);
    const src = (await img.getAttribute('src')) ?? '';
    expect(src).toMatch(/^\/qr\/[^/]+\/[^/]+\/[^/]+\/\d+\.png$/);
    // the image URL carries the credential's own segments and nothing else
    expect(src).toBe(`${credentialPath(IEAE, CODE).replace(`/${IEAE.success}/`, '/qr/').replace(/\/$/, '')}.png`);
    const image = await request.get(src);
    expect(image.status()).toBe(200);
    expect(image.headers()['content-type']).toBe('image/png');
    // issue 19 item 3: a day in the browser's cache, never a year (forget this device drops it sooner)
    expect(image.headers()['cache-control']).toBe('private, max-age=86400');
    const decoded = decodePng(await image.body());
    expect(decoded.data).toBe(CODE);
    expect(decoded.width).toBeGreaterThanOrEqual(3 * 240);
    if (natural !== null) expect(natural).toBe(decoded.width);
    expect(scripts, 'the credential page loads no JavaScript file').toEqual([]);
    await expect(page.locator('script[src]')).toHaveCount(0);
  });

  test('the save link downloads the PNG', async ({ page }) => {
    await page.goto(PATH);
    const link = page.getByRole('link', { name: t('zh', 'success.saveImage') });
    await expect(link).toBeVisible();
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe(`${CODE}.png`);
    const file = await download.path();
    const bytes = await readFile(file);
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(decodePng(bytes).data).toBe(CODE);
  });
});

test.describe('credential page: usage at a glance', () => {
  test('status, count and maximum by the QR in large type, a refresh link, no-store', async ({ page }) => {
    const res = await page.goto(PATH);
    expect(res?.headers()['cache-control']).toBe('private, no-store');
    const usage = page.getByRole('region', { name: t('zh', 'success.usage') });
    await expect(usage).toBeVisible();
    for (const key of ['success.useStatus', 'success.usedCount', 'success.maxCount']) {
      await expect(usage.getByText(t('zh', key), { exact: true })).toBeVisible();
    }
    const values = usage.locator('dd');
    await expect(values).toHaveCount(3);
    await expect(values.first()).toHaveText(new RegExp(`^(${t('zh', 'success.used')}|${t('zh', 'success.unused')})$`));
    await expect(values.nth(1)).toHaveText(/^\d+$/);
    const size = await values.first().evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(size, 'large enough to read at arm\'s length').toBeGreaterThanOrEqual(24);
    // the usage block follows the QR directly
    const qrBox = await page.locator('img.qr').boundingBox();
    const usageBox = await usage.boundingBox();
    expect((usageBox?.y ?? 0) - ((qrBox?.y ?? 0) + (qrBox?.height ?? 0))).toBeLessThan(120);
    await expect(page.locator('[data-offline]')).toBeHidden();
    const refresh = usage.getByRole('link', { name: t('zh', 'success.refresh') });
    await expect(refresh).toHaveAttribute('href', PATH);
    const [again] = await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === new URL(PATH, 'http://x').pathname), refresh.click()]);
    expect(again.status()).toBe(200);
    expect(again.headers()['cache-control']).toBe('private, no-store');
  });
});

/** An instant as expo 1308's clock shows it (UTC+8), "HH:mm"; a minute's tick is allowed for by the caller. */
function expoTime(ms: number): string {
  return new Date(ms + 480 * 60_000).toISOString().slice(11, 16);
}

test.describe('credential page: the last entry at the gate', () => {
  test('a scan at the gate (the reference redeemCode) shows on the page: the new count and when and where', async ({ page, request }, info) => {
    const code = 'XCOE6GON4WB4N6BR'; // expo 1308, maxCount 0: every scan admits (functions/reference/SEED.md "Check-in")
    const path = credentialPath(IEAE, code);
    await page.goto(path);
    const usage = page.getByRole('region', { name: t('zh', 'success.usage') });
    const before = Number(await usage.locator('dd').nth(1).textContent());
    // the gate and the scan as a scanner sends them, straight to the reference upstream over HTTP
    const gate = `E2E ${info.project.name}`;
    const scannedAt = new Date().toISOString();
    const res = await request.post('/custom/customFrom/redeemCode', {
      headers: { expoId: '1308' },
      data: { expoId: 1308, euCode: code, gate, scannedAt, scanId: `e2e-${info.project.name}-${Date.now()}` },
    });
    const reply = (await res.json()) as { code: number; data: { result: string; usedCount: number } };
    expect(reply).toMatchObject({ code: 200, data: { result: 'admitted', usedCount: before + 1 } });
    // A scan at the organiser's own gate (not through this Worker) shows within the shared
    // record's TTL (issue 24, CREDENTIAL_VIEW_TTL_MS 5 s): refresh until it does, for at most 5 s more.
    await expect(async () => {
      await usage.getByRole('link', { name: t('zh', 'success.refresh') }).click();
      await expect(usage.locator('dd').nth(1)).toHaveText(String(before + 1), { timeout: 1_000 });
    }).toPass({ timeout: CREDENTIAL_VIEW_TTL_MS + 5_000, intervals: [1_000] });
    const entry = page.locator('[data-last-entry]');
    await expect(entry).toHaveText(
      t('zh', 'entry.checkedIn').replace('{{when}}', expoTime(Date.parse(scannedAt))).replace('{{gate}}', gate),
    );
    // beside used / maximum, inside the usage block
    await expect(usage.locator('[data-last-entry]')).toHaveCount(1);
  });
});

test.describe('credential page: awaiting review', () => {
  test('the state and what comes next, nothing for the gate: no QR, save link or offline copy', async ({ page, request, browser }) => {
    const thai = caseOf('Thai');
    const path = credentialPath(thai, thai.one.euCode);
    const res = await page.goto(path);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['x-offline-until']).toBeUndefined();
    const lang = await pageLang(page);
    const state = page.locator('[data-awaiting-review]');
    await expect(state).toContainText(t(lang, 'success.awaitingReview'));
    await expect(state).toContainText(t(lang, 'rules.reviewNext'));
    await expect(page.locator('img.qr')).toHaveCount(0);
    await expect(page.locator('a[href^="/qr/"], a[href^="/pass/"]')).toHaveCount(0);
    await expect(page.getByText(t(lang, 'success.hint'))).toHaveCount(0);
    const qr = `${path.replace(`/${thai.success}/`, '/qr/').replace(/\/$/, '')}.png`;
    expect((await request.get(qr)).status()).toBe(404);
    await expectAxeClean(page, browser, 'a credential awaiting review');
  });
});

test.describe('credential page: offline', () => {
  test('@js after one visit, the page opens with the network cut and says it is an offline copy', async ({ page, context }) => {
    // The lookup page's island registers the service worker (the credential page has no script).
    await openLookup(page, lookupUrl(IEAE));
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    const savedFrom = Date.now();
    await page.goto(PATH);
    const savedTo = Date.now();
    await expect(page.locator('dd.code')).toHaveText(CODE);
    await expect(page.locator('[data-offline]')).toBeHidden();
    // the worker controls the page and has stored it
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await context.setOffline(true);
    await page.reload();
    await expect(page.locator('dd.code')).toHaveText(CODE);
    const line = page.locator('[data-offline]');
    await expect(line).toBeVisible();
    // when it was saved, in the page's language: the time alone (expo-local) on the day it was saved
    await expect(line).toHaveText(textPattern(t('zh', 'entry.saved')));
    await expect(line.locator('[data-saved-today]')).toBeVisible();
    const saved = [...new Set([expoTime(savedFrom), expoTime(savedTo)])].map((time) => t('zh', 'entry.saved').replace('{{time}}', time));
    expect(saved).toContain(await line.locator('[data-saved-today]').textContent());
    await expect(line.locator('[data-saved-earlier]')).toBeHidden();
    // the QR image was stored too
    const natural = await page.locator('img.qr').evaluate(async (el) => {
      const img = el as HTMLImageElement;
      if (!img.complete) await new Promise((r) => img.addEventListener('load', r, { once: true }));
      return img.naturalWidth;
    });
    expect(natural).toBeGreaterThanOrEqual(720);
    // a credential never visited has no copy
    const other = caseOf('IEAE').several?.[0]?.euCode ?? 'F5IP7DURIP7EXQPG';
    const unvisited = await page.goto(credentialPath(IEAE, other)).catch(() => null);
    expect(unvisited === null || unvisited.status() !== 200).toBe(true);
    await context.setOffline(false);
  });
});

// Bytes over HTTP only (`request`): the browser's JavaScript setting cannot change them, so once (@http).
test.describe('credential page: weight', { tag: '@http' }, () => {
  test('HTML at most 14 KB gzip, and with its QR image under 20 KB', async ({ request }) => {
    const html = await request.get(PATH);
    expect(html.status()).toBe(200);
    const body = await html.body();
    const gz = gzipSync(body).length;
    expect(gz).toBeLessThanOrEqual(14 * 1024);
    const src = /<img[^>]*class="qr[^"]*"[^>]*src="([^"]+)"|<img[^>]*src="([^"]+)"[^>]*class="qr/.exec(body.toString('utf8'));
    const image = await request.get(src?.[1] ?? src?.[2] ?? '');
    expect(image.status()).toBe(200);
    expect(gz + (await image.body()).length).toBeLessThan(20 * 1024);
    expect(body.toString('utf8')).not.toMatch(/<script[^>]+src=/);
  });
});

test.describe('credential page: site booking and the visit, in zh, en and thai (issue 23)', () => {
  const LANGS = ['zh', 'en', 'thai'] as const;
  /** "n places left" in the language's own plural form (i18next _one/_other by Intl.PluralRules). */
  const left = (lang: Lang, n: number) => {
    const s = strings(lang);
    const form = new Intl.PluralRules(HTML_LANG[lang]).select(n);
    return (s[`site.placesLeft_${form}`] ?? t(lang, 'site.placesLeft_other')).replace('{{count}}', String(n));
  };

  test('a stranger sees the slots and a link to verify, no buttons; the visit block', async ({ page, context }, info) => {
    for (const lang of LANGS) {
      await setLangCookie(context, lang, info);
      await page.goto(PATH);
      await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG[lang]);
      const site = page.getByRole('region', { name: t(lang, 'site.title') });
      await expect(site).toBeVisible();
      await expect(site.getByText('展馆导览 Guided hall tour')).toBeVisible();
      await expect(site.getByText(`2026-12-02 15:00-16:00 · ${t(lang, 'site.soldOut')}`)).toBeVisible();
      await expect(site.getByRole('button')).toHaveCount(0);
      await expect(site.getByRole('link', { name: t(lang, 'site.verifyLink') })).toHaveAttribute('href', lookupUrl(IEAE));
      // the visit: dates, hall, what to bring, whom to contact (functions/reference/seed/0013_visit.sql)
      const visit = page.getByRole('region', { name: t(lang, 'visit.title') });
      for (const key of ['visit.dates', 'visit.hall', 'visit.bringLabel', 'visit.contact']) await expect(visit.getByText(t(lang, key), { exact: true })).toBeVisible();
      await expect(visit.getByText('Hall 1–3')).toBeVisible();
      await expect(visit.getByText(t(lang, 'visit.bring'))).toBeVisible();
      await expect(visit.getByRole('link', { name: '+86 20 8888 1308' })).toHaveAttribute('href', 'tel:+862088881308');
      await expect(visit.getByRole('link', { name: 'visitor@ieae.example' })).toHaveAttribute('href', 'mailto:visitor@ieae.example');
    }
  });

  test('the owner books, sees the booking, is told "full" and "already booked", cancels (asked once), each where the booking is', async ({ page, request, baseURL, context }, info) => {
    test.setTimeout(60_000);
    await openLookup(page, lookupUrl(IEAE));
    await lookupByEmail(page, request, 'one@demo.test');
    await expect(page.locator('dd.code')).toHaveText(CODE);
    const here = new URL(page.url());
    const back = `${here.pathname}${here.search}`;
    // a second booking of the type and a full slot, posted as the forms would (a stale page)
    const post = (f: Record<string, string>) => page.request.post('/api/site', { form: { ...f, back }, headers: { origin: baseURL ?? '' }, maxRedirects: 0 });
    for (const lang of LANGS) {
      const z = (key: string) => t(lang, key);
      await setLangCookie(context, lang, info);
      await page.goto(back);
      await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG[lang]);
      const site = page.getByRole('region', { name: z('site.title') });
      await expect(site.getByText(`2026-12-01 14:00-15:00 · ${left(lang, 20)}`)).toBeVisible();
      await site.getByRole('button', { name: `${z('site.book')} 展馆导览 Guided hall tour 2026-12-01 14:00-15:00` }).click();
      // the result where the visitor is: back at the booking (#site), in view
      await expect(page).toHaveURL((u) => u.hash === '#site');
      await expect(page.getByRole('status').filter({ hasText: z('site.booked') })).toBeInViewport();
      await expect(site.getByText(`2026-12-01 14:00-15:00 · ${left(lang, 19)}`)).toBeVisible();
      await expect(site.getByText(`展馆导览 Guided hall tour · 2026-12-01 14:00-15:00`)).toBeVisible();
      // the type is held: no more book buttons for it, the other type still bookable
      await expect(site.getByRole('button', { name: /展馆导览/ })).toHaveCount(0);
      await expect(site.getByRole('button', { name: /新品发布会/ })).toHaveCount(1);
      expect((await post({ action: 'book', siteDateId: '5101' })).status()).toBe(303);
      await page.goto(back);
      await expect(page.getByRole('alert').filter({ hasText: z('site.already') })).toBeVisible();
      expect((await post({ action: 'book', siteDateId: '5104' })).status()).toBe(303);
      await page.goto(back);
      await expect(page.getByRole('alert').filter({ hasText: z('site.full') })).toBeVisible();
      // cancelling asks once: the disclosure, then its one button
      await expect(site.getByRole('button', { name: z('site.cancelConfirm') })).toBeHidden();
      await site.getByText(z('site.cancel'), { exact: true }).click();
      await site.getByRole('button', { name: z('site.cancelConfirm') }).click();
      // back where the booking is (the page scrolled to it), with the result there
      await expect(page).toHaveURL((u) => u.hash === '#site');
      const cancelled = page.getByRole('status').filter({ hasText: z('site.cancelled') });
      await expect(cancelled).toBeInViewport();
      await expect(site.getByText(`2026-12-01 14:00-15:00 · ${left(lang, 20)}`)).toBeVisible();
      await expect(site.getByText(z('site.cancel'), { exact: true })).toHaveCount(0);
    }
  });
});

test.describe('credential page: wallet', () => {
  test('without the GOOGLE_WALLET_* secrets there is no wallet link', async ({ page }) => {
    await page.goto(PATH);
    await expect(page.locator('dd.code')).toHaveText(CODE);
    await expect(page.getByRole('link', { name: t('zh', 'success.googleWallet') })).toHaveCount(0);
    await expect(page.locator('a[href^="https://pay.google.com/"]')).toHaveCount(0);
  });
});

test.describe('credential page: a refresh storm (issue 24)', { tag: '@http' }, () => {
  // 40 views at once, twice, the second after the shared record's TTL: each is its own request
  // to the Worker, and every one must be the page. (Sharing a read still in flight across
  // requests made workerd run one request's rendering in another's context: 500s under load.)
  test('40 views of one credential at once all answer the page, before and after the TTL', async ({ request }) => {
    // the owner's view (the lookup's cookie): the record and the expo's site and bus lists
    const path = await obtainCredentialPath(request);
    const code = CODE;
    for (const round of [1, 2]) {
      const replies = await Promise.all(Array.from({ length: 40 }, () => request.get(path)));
      const statuses = replies.map((r) => r.status());
      expect(statuses, `round ${round}`).toEqual(Array(40).fill(200));
      const bodies = await Promise.all(replies.map((r) => r.text()));
      expect(bodies.every((b) => b.includes(code)), `round ${round}: each page shows the code`).toBe(true);
      if (round === 1) await new Promise((r) => setTimeout(r, CREDENTIAL_VIEW_TTL_MS));
    }
  });
});
