/**
 * The haisi family (spec §2.3 `/haisi…` Chinese, `/haisi…En` English; docs/upstream.md "Haisi")
 * in Chromium, JavaScript on (`js`) and off (`nojs`): per language, a fresh contact looks up,
 * lands on the family's form, registers and gets the family's credential; and a seeded
 * registration is found. Each screen is in the route's language, with no language menu, and
 * passes axe. Demo expo 2616 (functions/reference/SEED.md "Haisi").
 */
import { expect, type Page, type TestInfo } from '@playwright/test';
import { expectAxeClean } from './axe';
import { HTML_LANG, jsEnabled, strings, type Lang, test } from './fixtures';
import { eid, hydrated, lookupByEmail } from './lookup-helpers';
import { decodeId } from '../../src/lib/util/ids';

const IDS = `22616/${eid(2616)}/visitor`;
const project = (info: TestInfo) => (jsEnabled(info) ? 'js' : 'nojs');
let counter = 0;

const FAMILIES: { lang: Extract<Lang, 'zh' | 'en'>; suffix: '' | 'En'; seeded: Record<'js' | 'nojs', string> }[] = [
  { lang: 'zh', suffix: '', seeded: { js: 'UCKYQGCK4Q2UCY7X', nojs: 'O3EGU3BMKC52CBXP' } },
  { lang: 'en', suffix: 'En', seeded: { js: 'ZIZHP3SBTSPAW4SW', nojs: 'MQNNWZJM2Q5HHMQG' } },
];

/** The page is in the family's language and offers no other. */
async function inLanguage(page: Page, lang: Lang): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG[lang]);
  await expect(page.locator('nav.lang')).toHaveCount(0);
}

for (const { lang, suffix, seeded } of FAMILIES) {
  const s = strings(lang);
  test.describe(`haisi${suffix} (${lang})`, () => {
    test('a fresh contact: lookup → form → credential', async ({ page, browser }, info) => {
      const email = `haisi-new-${lang}-${project(info)}-${Date.now()}-${counter++}@demo.test`;
      // the family's home is its lookup
      expect((await page.goto(`/haisi${suffix}/${IDS}`))?.status()).toBe(200);
      await hydrated(page);
      await inLanguage(page, lang);
      await expect(page.locator('h1')).toHaveText(s['search.visitorTitle'] ?? '');
      await expectAxeClean(page, browser, `haisi${suffix} lookup`);

      await lookupByEmail(page, page.request, email, s);
      // a fresh contact: nothing found, and the family's form says so, naming the contact searched (issue 23 review)
      await page.waitForURL(new RegExp(`/haisiForm${suffix}/${IDS}\\?found=0$`));
      await hydrated(page);
      await inLanguage(page, lang);
      const note = page.locator('.none-found');
      await expect(note).toContainText(email);
      await expect(note).toContainText(s['form.noneFound']?.split('{{contact}}')[0]?.trim() ?? '');
      await expect(note.getByRole('link', { name: s['form.otherContact'] ?? '' })).toHaveAttribute('href', `/haisiSearch${suffix}/${IDS}`);
      await expectAxeClean(page, browser, `haisi${suffix} form`);
      const form = page.locator('#reg-form');
      await form.locator('[name="uname"]').fill(lang === 'zh' ? '海丝新访客' : 'Haisi Newcomer');
      await form.locator('[name="ucompany"]').fill('Haisi Spec Co.');
      await form.locator('.form-privacy input[type="checkbox"]').check();
      await form.locator('.reg-submit').click();

      await page.waitForURL(new RegExp(`/haisiSuccess${suffix}/`));
      await inLanguage(page, lang);
      await expect(page.locator('h1')).toHaveText(s['success.title'] ?? '');
      const euCode = decodeId(new URL(page.url()).pathname.split('/')[3] ?? '') ?? '';
      expect(euCode).not.toBe('');
      await expect(page.locator('.credential .code')).toHaveText(euCode);
      await expectAxeClean(page, browser, `haisi${suffix} credential`);
    });

    test('a seeded registration is found; a link without parameters says it is incomplete', async ({ page, browser }, info) => {
      const which = project(info);
      expect((await page.goto(`/haisiSearch${suffix}/${IDS}`))?.status()).toBe(200);
      await hydrated(page);
      await inLanguage(page, lang);
      await lookupByEmail(page, page.request, `haisi-${lang}-${which}@demo.test`, s);
      await page.waitForURL(new RegExp(`/haisiSuccess${suffix}/`));
      expect(decodeId(new URL(page.url()).pathname.split('/')[3] ?? '')).toBe(seeded[which]);
      await expect(page.locator('.credential .code')).toHaveText(seeded[which]);

      expect((await page.goto(`/haisiForm${suffix}`))?.status()).toBe(200);
      await inLanguage(page, lang);
      await expect(page.locator('h1')).toHaveText(s['pages.incompleteTitle'] ?? '');
      await expect(page.getByRole('link', { name: s['notFound.home'] ?? '' })).toHaveAttribute('href', '/');
      await expectAxeClean(page, browser, `haisiForm${suffix} without parameters`);
    });
  });
}
