/**
 * Accessibility: an axe-core scan with no violations on every page the browser specs visit,
 * in Chinese and English at phone width (390 px) and in Chinese at desktop width (1024 px),
 * in both projects (`js`: after the islands hydrate; `nojs`: the server-rendered page), except
 * English at phone width, scanned hydrated only (`@js`: the same markup as Chinese with other
 * words; the seven languages have their own scan in lookup-a11y.spec.ts).
 * Nothing is excluded and no rule is disabled.
 */
import { expect, type Browser, type Page } from '@playwright/test';
import { expectAxeClean } from './axe';
import { obtainCredentialPath, PAGES, setLangCookie, type Lang, test } from './fixtures';

/** Opens `path` and scans it as the project's visitor gets it (tests/e2e/axe.ts). */
async function scan(page: Page, browser: Browser, path: string): Promise<void> {
  const res = await page.goto(path);
  expect(res, `response for ${path}`).not.toBeNull();
  await expectAxeClean(page, browser, path, res?.status() ?? 200);
}

const SCANNED: readonly (readonly [string, string])[] = [
  ['root', '/'],
  ['not-found page', '/no-such-page'],
  ['IEAE lookup, exhibitor url 10542', PAGES.ieaeExhibitor],
  ['IEAE lookup, visitor url 21308', PAGES.ieaeVisitor],
  ['new Thai lookup', PAGES.thaiNew],
  ['Indonesian lookup, url 8811', PAGES.indonesianExhibitor],
  ['Jakarta lookup, phone mode', PAGES.jakartaPhone],
  ['new Vietnam lookup', PAGES.vietnamNew],
  ['generic lookup', PAGES.generic],
];

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1024, height: 800 };

/**
 * Language and width: both languages at phone width (the product is mobile-first), and the
 * desktop layout (language buttons, desktop banner) in the default language.
 */
const VIEWS: readonly (readonly [Lang, 'phone' | 'desktop', { width: number; height: number }])[] = [
  ['zh', 'phone', PHONE],
  ['en', 'phone', PHONE],
  ['zh', 'desktop', DESKTOP],
];

test.describe('accessibility (axe-core): no violations', () => {
  for (const [name, path] of SCANNED) {
    for (const [lang, width, size] of VIEWS) {
      test(`${name} (${path}) in ${lang}, ${width}${lang === 'en' ? ' @js' : ''}`, async ({ page, context, browser }) => {
        await page.setViewportSize(size);
        await setLangCookie(context, lang, test.info());
        await scan(page, browser, path);
      });
    }
  }

  for (const [lang, width, size] of VIEWS) {
    test(`credential page (one@demo.test, expo 1308) in ${lang}, ${width}${lang === 'en' ? ' @js' : ''}`, async ({
      page,
      context,
      request,
      browser,
    }) => {
      const path = await obtainCredentialPath(request);
      await page.setViewportSize(size);
      await setLangCookie(context, lang, test.info());
      await scan(page, browser, path);
    });
  }
});
