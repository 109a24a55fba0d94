/**
 * Issue 30 ("Real hands, real phones"), the gate in Debian's Chromium against the built Worker:
 *
 * - a valid code typed as a phone keyboard types it (lower case, in the credential's groups of
 *   four) is admitted, with JavaScript and without;
 * - without JavaScript, at 320 px, in Thai and in Malay: the gate shows only what works (the
 *   manual form and the answer: no list "loading" for ever, no camera button), its header names
 *   the show, and after a scan the answer's big word and its reason are on screen without
 *   scrolling. Screenshots of that answer go to the test's output folder;
 * - with JavaScript, a queued scan the organiser refuses (the phone's clock a month behind) is
 *   listed for staff as refused and the scans queued after it are counted.
 *
 * Keys and a fresh registration per test go into the worker's own databases (scripts/gate.mjs), as
 * in tests/e2e/gate.spec.ts.
 */
import { expect, type Page, type TestInfo } from '@playwright/test';
import { baseUrl, setLangCookie, t, test, type Lang } from './fixtures';
import { addGateKey } from '../../scripts/gate.mjs';
import { freshCode, persistOf } from './gate-fixtures';

const EID = 'MTMwOA'; // 1308
/** The customer url whose organiser config names expo 1308 (SEED.md: IEAE). */
const URL_1308 = 21308;
const SHOW = { zh: '国际能源展', en: 'IEAE International Energy Expo' };

/** The staff link of a new key for expo 1308, opened: the gate page. */
async function openGate(page: Page, info: TestInfo, gate: string): Promise<void> {
  const { link } = await addGateKey({ expo: 1308, gate, url: URL_1308, hours: 1, base: baseUrl(info), persist: persistOf(info) });
  const res = await page.goto(link);
  expect(res?.status()).toBe(200);
  expect(new URL(page.url()).pathname).toBe(`/gate/${EID}`);
}

/** The code as staff type it on a phone: lower case, in the credential's groups of four. */
const asTyped = (code: string) => (code.match(/.{1,4}/g) ?? []).join(' ').toLowerCase();

test('a valid code typed in lower case, in groups of four, is admitted', async ({ page }, info) => {
  test.setTimeout(60_000);
  const code = await freshCode(info, 'HN', '真手 Real Hands');
  await openGate(page, info, `Hands ${info.project.name}`);
  const js = info.project.name === 'js';
  if (js) await expect(page.locator('astro-island[ssr]')).toHaveCount(0, { timeout: 15_000 });
  await page.locator('#gate-code').fill(asTyped(code));
  if (js) {
    await page.locator('.gate-submit').click();
    const shown = page.locator('[data-gate-answer]');
    await expect(shown).toHaveAttribute('data-gate-answer', 'admitted');
    await expect(shown).toHaveAttribute('data-offline', 'no');
    await expect(shown.locator('[data-name]')).toHaveText('真手 Real Hands');
    await expect(shown.locator('.gate-scan__code')).toHaveText(code);
  } else {
    await Promise.all([page.waitForURL(`**/gate/${EID}`), page.locator('.gate-submit').click()]);
    const answer = page.locator('.gate-answer');
    await expect(answer).toHaveAttribute('data-result', 'admitted');
    await expect(answer.locator('[data-name]')).toHaveText('真手 Real Hands');
    await expect(answer.locator('[data-count]')).toHaveAttribute('data-count', '1 / 1');
  }
});

test.describe('without JavaScript at 320 px (issue 30)', () => {
  test.use({ viewport: { width: 320, height: 568 } });

  for (const lang of ['thai', 'ms'] as const satisfies readonly Lang[]) {
    test(`@nojs ${lang}: only what works, the show named, the answer’s word and reason on screen after a scan`, async ({ page, context }, info) => {
      test.setTimeout(60_000);
      await setLangCookie(context, lang, info);
      const code = await freshCode(info, 'HN', '真手 Real Hands');
      await openGate(page, info, `Pintu ${lang}`);

      // only what works without JavaScript: the manual form; no list loading, no camera button
      await expect(page.locator('#gate-code')).toBeVisible();
      await expect(page.getByText(t(lang, 'gateScan.statusLoading'))).toHaveCount(0);
      await expect(page.getByRole('button', { name: t(lang, 'gateScan.cameraStart') })).toHaveCount(0);
      await expect(page.locator('.gate-scan')).toHaveCount(0);
      // the header names the show, not the product
      await expect(page.locator('.shell-top .brand')).toHaveText(SHOW.en);
      await expect(page.locator('.shell-top .brand')).not.toHaveText(t(lang, 'app.title'));

      const viewport = page.viewportSize() ?? { width: 320, height: 568 };
      const onScreen = async (selector: string) => {
        const box = await page.locator(selector).boundingBox();
        expect(box, selector).not.toBeNull();
        const b = box ?? { x: 0, y: 0, width: 0, height: 0 };
        expect(b.y, `${selector} top`).toBeGreaterThanOrEqual(0);
        expect(b.y + b.height, `${selector} bottom`).toBeLessThanOrEqual(viewport.height);
        expect(b.x + b.width, `${selector} right`).toBeLessThanOrEqual(viewport.width + 0.5);
      };

      await page.locator('#gate-code').fill(asTyped(code));
      await Promise.all([page.waitForURL(`**/gate/${EID}`), page.locator('.gate-submit').click()]);
      await expect(page.locator('.gate-answer')).toHaveAttribute('data-result', 'admitted');
      await expect(page.locator('.gate-word')).toHaveText(t(lang, 'gate.wordAdmitted'));
      // the field is focused for the next person, and that scrolled nothing away
      await expect(page.locator('#gate-code')).toBeFocused();
      await onScreen('#gate-code');
      await onScreen('.gate-word');
      await onScreen('.gate-explain');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await page.screenshot({ path: info.outputPath(`gate-nojs-320-${lang}-admitted.png`) });

      // the same code again: used, with when and where; and a code nobody has: "check the code", calmly
      await page.locator('#gate-code').fill(code);
      await Promise.all([page.waitForURL(`**/gate/${EID}`), page.locator('.gate-submit').click()]);
      await expect(page.locator('.gate-answer')).toHaveAttribute('data-result', 'used');
      await expect(page.locator('#gate-code')).toBeFocused();
      await onScreen('.gate-word');
      await onScreen('.gate-explain');
      await page.screenshot({ path: info.outputPath(`gate-nojs-320-${lang}-used.png`) });

      await page.locator('#gate-code').fill('zzzz zzzz zzzz zzzz');
      await Promise.all([page.waitForURL(`**/gate/${EID}`), page.locator('.gate-submit').click()]);
      const unknown = page.locator('.gate-answer');
      await expect(unknown).toHaveAttribute('data-result', 'unknown');
      await expect(unknown).toHaveAttribute('data-tone', 'check');
      await expect(page.locator('.gate-explain')).toHaveText(t(lang, 'gate.explainUnknown'));
      await onScreen('.gate-word');
      await onScreen('.gate-explain');
      await page.screenshot({ path: info.outputPath(`gate-nojs-320-${lang}-unknown.png`) });
    });
  }
});

test('@js a queued scan the organiser refuses (a phone clock a month behind) is shown as refused; the rest of the queue is counted', async ({ page, context }, info) => {
  test.setTimeout(60_000);
  await setLangCookie(context, 'en', info);
  const code = await freshCode(info, 'HN', '真手 Real Hands');
  await openGate(page, info, 'Gate Clock');
  const status = page.locator('[data-gate-status]');
  await expect(status).toContainText(/Online — list of [\d,]+ codes/);
  const type = async (text: string) => {
    const answer = page.locator('[data-gate-answer]');
    if ((await answer.count()) > 0) await answer.click();
    await page.locator('#gate-code').fill(text);
    await page.locator('#gate-code').press('Enter');
    await expect(answer).toHaveAttribute('data-offline', 'yes');
  };

  await context.setOffline(true);
  await expect(status).toContainText('OFFLINE');
  // the phone's clock a month behind: this scan's time is more than 30 days old for the organiser
  await page.clock.setFixedTime(new Date(Date.now() - 31 * 86_400_000));
  await type('AR7OY5Q6XIPMQUBJ'); // awaiting review: counts nothing
  await page.clock.setFixedTime(new Date());
  await type(asTyped(code));
  await expect(page.locator('[data-gate-answer]')).toHaveAttribute('data-gate-answer', 'admitted');
  await expect(status).toContainText('2 scans waiting to send');

  await context.setOffline(false);
  const refused = page.locator('[data-gate-refused]');
  await expect(refused).toContainText('AR7OY5Q6XIPMQUBJ');
  await expect(refused).toContainText('30 days');
  // when it was scanned, with the date: the phone's clock is a month behind
  const behind = new Date(Date.now() - 31 * 86_400_000);
  const day = `${behind.getFullYear()}-${String(behind.getMonth() + 1).padStart(2, '0')}-${String(behind.getDate()).padStart(2, '0')}`;
  await expect(refused).toContainText(`scanned at ${day} `);
  await expect(status).not.toContainText('waiting');
  // the scan after it was counted: the same code online now is used
  await page.locator('[data-gate-answer]').click();
  await page.locator('#gate-code').fill(code);
  await page.locator('#gate-code').press('Enter');
  await expect(page.locator('[data-gate-answer]')).toHaveAttribute('data-gate-answer', 'used');
  await expect(page.locator('[data-gate-answer]')).toHaveAttribute('data-offline', 'no');
  await page.locator('[data-gate-answer]').click();
  await page.screenshot({ path: info.outputPath('gate-refused-note.png') });
  // the note stays until staff dismiss it
  await page.getByRole('button', { name: 'Seen, clear these refusals' }).click();
  await expect(refused).toHaveCount(0);
});
