/**
 * Accessibility of the lookup flow's pages in all seven languages (spec §1): an axe-core scan
 * with no violations on the lookup page (e-mail mode and phone mode, each with a field error
 * shown), the /applyList page and the credential page; plus the form's own promises: every
 * input has an accessible name, and a field error is announced (role=alert / aria-live) and
 * linked to its field by aria-describedby. Chinese and English in both projects (`js` after
 * hydration, `nojs` as served); the other five languages serve the same markup with other words,
 * so they are scanned once, hydrated (`@js`), and the country popup (about 230 entries, the
 * same list in every language but Chinese) only in Chinese and English: that keeps `npm test`
 * under its 30 minutes.
 */
import { expect, type Browser, type Page } from '@playwright/test';
import { expectAxeClean } from './axe';
import { HTML_LANG, IEAE_VISITOR, lookUpByEmail, obtainCredentialPath, setLangCookie, type Lang, test } from './fixtures';
import { caseOf, form, hydrated, js, lookupUrl, texts } from './lookup-helpers';

const LANGS: readonly Lang[] = ['zh', 'en', 'thai', 'vn', 'id', 'tw', 'ms'];
/** Scanned in both projects and with the country popup open. */
const BOTH_PROJECTS: readonly Lang[] = ['zh', 'en'];

/** Scans the page as the project's visitor has it (tests/e2e/axe.ts). */
const axe = (page: Page, what: string, browser: Browser) => expectAxeClean(page, browser, what);

async function expectLang(page: Page, lang: Lang): Promise<void> {
  await expect(page.locator('html'), `the page is in ${lang}`).toHaveAttribute('lang', HTML_LANG[lang]);
}

/** Presses the send-code button with the contact left empty (or no country): the first field gets its error. */
async function showFieldError(page: Page): Promise<void> {
  const s = await texts(page);
  await form(page, s).send.click();
  await page.waitForLoadState();
  await expect(page.locator('[aria-invalid="true"]')).toHaveCount(1);
}

const IEAE = caseOf('IEAE');
const JAKARTA = caseOf('Jakarta');

for (const lang of LANGS) {
  test.describe(`lookup pages in ${lang}: axe finds no violations${BOTH_PROJECTS.includes(lang) ? '' : ' @js'}`, () => {
    // axe over the open country popup (about 230 entries) takes a while
    test.describe.configure({ timeout: 90_000 });
    test.beforeEach(async ({ context }) => {
      await setLangCookie(context, lang, test.info());
    });

    test('lookup page, e-mail mode, with the e-mail error shown', async ({ page, browser }) => {
      await page.goto(lookupUrl(IEAE));
      await hydrated(page);
      await expectLang(page, lang);
      await axe(page, 'the e-mail lookup page', browser);
      await showFieldError(page);
      await expect(form(page, await texts(page)).email).toHaveAttribute('aria-invalid', 'true');
      await axe(page, 'the e-mail lookup page with a field error', browser);
    });

    test('lookup page, phone mode (Jakarta, country picker), with the country error shown', async ({ page, browser }) => {
      await page.goto(lookupUrl(JAKARTA, '?mode=1'));
      await hydrated(page);
      await expectLang(page, lang);
      const s = await texts(page);
      await expect(form(page, s).phone).toBeVisible();
      await axe(page, 'the phone lookup page', browser);
      await showFieldError(page);
      await expect(form(page, s).country).toHaveAttribute('aria-invalid', 'true');
      await axe(page, 'the phone lookup page with a field error', browser);
      if (js() && BOTH_PROJECTS.includes(lang)) {
        // the searchable country popup, open
        await form(page, s).country.click();
        await expect(page.getByRole('dialog')).toBeVisible();
        await axe(page, 'the country picker popup', browser);
      }
    });

    test('/applyList page (several@demo.test on 1308)', async ({ page, browser }) => {
      // the list is the verified contact's: the form posts go through the page's own cookie jar
      const location = await lookUpByEmail(page.request, 'several@demo.test', IEAE_VISITOR);
      expect(new URL(location, 'http://x').pathname).toMatch(/^\/applyList\//);
      await page.goto(location);
      await expectLang(page, lang);
      await expect(page.getByRole('main').getByRole('link')).toHaveCount(3);
      await axe(page, 'the /applyList page', browser);
    });

    test('credential page (one@demo.test on 1308)', async ({ page, request, browser }) => {
      const path = await obtainCredentialPath(request);
      await page.goto(path);
      await expectLang(page, lang);
      await expect(page.locator('img.qr')).toBeVisible();
      await axe(page, 'the credential page', browser);
    });
  });
}

test.describe('lookup form: names and announcements', () => {
  for (const [what, url] of [
    ['IEAE e-mail mode', lookupUrl(IEAE)],
    ['IEAE phone mode', lookupUrl(IEAE, '?mode=1')],
    ['Jakarta phone mode', lookupUrl(JAKARTA, '?mode=1')],
    ['Indonesian (e-mail only)', lookupUrl(caseOf('Indonesian'))],
    ['generic /search', lookupUrl(caseOf(''))],
  ] as const) {
    test(`${what}: every input, select and button has an accessible name`, async ({ page, context }) => {
      await setLangCookie(context, 'en', test.info());
      await page.goto(url);
      await hydrated(page);
      // aria-hidden controls (the form's invisible default submit button) are not exposed, so need no name
      const controls = page.locator('main').locator(':is(input:not([type=hidden]), select, textarea, button):not([aria-hidden="true"])');
      const n = await controls.count();
      expect(n).toBeGreaterThan(2);
      for (let i = 0; i < n; i++) {
        const el = controls.nth(i);
        if (!(await el.isVisible())) continue;
        await expect(el, `control ${i} (${await el.evaluate((e) => e.outerHTML.slice(0, 120))})`).toHaveAccessibleName(/\S/);
      }
      // the text fields are named by their visible <label>
      const labelled = page.locator('main').locator('input:not([type=hidden]):visible, select:visible, textarea:visible');
      for (const el of await labelled.all()) {
        const id = (await el.getAttribute('id')) ?? '';
        expect(id, 'a field has an id for its label').not.toBe('');
        await expect(page.locator(`label[for="${id}"]`), `a <label for="${id}">`).toHaveCount(1);
      }
    });
  }

  test('a field error is announced (role=alert / aria-live) and linked by aria-describedby', async ({ page, context }) => {
    await setLangCookie(context, 'en', test.info());
    await page.goto(lookupUrl(IEAE));
    await hydrated(page);
    const s = await texts(page);
    const f = form(page, s);
    await f.email.fill('someone@example.c');
    await f.send.click();
    await page.waitForLoadState();
    await expect(f.email).toHaveAttribute('aria-invalid', 'true');
    const id = (await f.email.getAttribute('aria-describedby')) ?? '';
    expect(id).not.toBe('');
    const message = page.locator(`[id="${id}"]`);
    await expect(message).toHaveText(s['search.emailError'] ?? '');
    await expect(f.email).toHaveAccessibleDescription(s['search.emailError'] ?? '');
    const announced = await message.evaluate((el) => {
      for (let n: Element | null = el; n; n = n.parentElement) {
        const live = n.getAttribute('aria-live');
        if (n.getAttribute('role') === 'alert' || n.getAttribute('role') === 'status' || (live && live !== 'off')) return true;
      }
      return false;
    });
    expect(announced, 'the message is in a role=alert or aria-live region').toBe(true);
  });
});
