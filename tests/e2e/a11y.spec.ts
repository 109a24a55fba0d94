/**
 * Accessibility: an axe-core scan with no violations on every page the browser specs visit,
 * in Chinese and English at phone width (390 px) and in Chinese at desktop width (1024 px),
 * in both projects (`js`: after the islands hydrate; `nojs`: the server-rendered page).
 * Nothing is excluded and no rule is disabled.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { jsEnabled, obtainCredentialPath, PAGES, setLangCookie, type Lang } from './fixtures';

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;

/** One line per rule and one per element: what a reader needs to find and fix it. */
function summarize(violations: AxeResults['violations']): string {
  return violations
    .map((v) => {
      const nodes = v.nodes
        .map((n) => `    - ${n.target.join(' ')}\n      ${(n.failureSummary ?? '').replace(/\n/g, '\n      ')}`)
        .join('\n');
      return `  ${v.id} (${v.impact ?? 'n/a'}): ${v.help}\n    ${v.helpUrl}\n${nodes}`;
    })
    .join('\n');
}

/** Runs axe on the whole page and expects no violation, with a readable list on failure. */
async function expectNoViolations(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations, `axe violations on ${what}:\n${summarize(results.violations)}`).toEqual([]);
}

/**
 * Opens `path` and scans it as the project's visitor gets it.
 * - `js`: after the islands hydrate (network idle).
 * - `nojs`: axe cannot run in a page whose scripting is off (its timers never fire), so the
 *   DOM the no-JS browser built is served again, unchanged, to a scripting-enabled page
 *   whose Content-Security-Policy is `script-src 'none'`: none of the page's own scripts
 *   run (no zoom guard, no island), only axe, which the test tool injects.
 */
async function scan(page: Page, browser: Browser, path: string): Promise<void> {
  const res = await page.goto(path);
  expect(res, `response for ${path}`).not.toBeNull();
  const size = page.viewportSize() ?? { width: 390, height: 844 };
  if (jsEnabled(test.info())) {
    await page.waitForLoadState('networkidle');
    await expectNoViolations(page, `${path} (js, ${size.width} px)`);
    return;
  }
  const html = await page.content();
  const url = page.url();
  const status = res?.status() ?? 200;
  const ctx = await browser.newContext({ viewport: size, javaScriptEnabled: true });
  try {
    const twin = await ctx.newPage();
    await twin.route(url, (route) =>
      route.fulfill({
        status,
        headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "script-src 'none'" },
        body: html,
      }),
    );
    await twin.goto(url);
    await twin.waitForLoadState('networkidle');
    expect(await twin.evaluate(() => customElements.get('astro-island') === undefined), 'no page script ran').toBe(
      true,
    );
    await expectNoViolations(twin, `${path} (nojs, ${size.width} px)`);
  } finally {
    await ctx.close();
  }
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
      test(`${name} (${path}) in ${lang}, ${width}`, async ({ page, context, browser }) => {
        await page.setViewportSize(size);
        await setLangCookie(context, lang, test.info());
        await scan(page, browser, path);
      });
    }
  }

  for (const [lang, width, size] of VIEWS) {
    test(`credential page (one@demo.test, expo 1308) in ${lang}, ${width}`, async ({
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
