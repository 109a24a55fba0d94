/**
 * An axe-core scan of the page as the project's visitor has it, nothing excluded, no rule
 * disabled (the same method as a11y.spec.ts and lookup-a11y.spec.ts):
 * - `js`: the live page, after the network is idle (islands hydrated);
 * - `nojs`: axe cannot run in a page whose scripting is off, so the DOM the no-JS browser built
 *   is served again, unchanged, to a scripting-enabled twin under `script-src 'none'`: none of
 *   the page's own scripts run, only axe, which the test tool injects.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { jsEnabled } from './fixtures';

type Violations = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'];

/** One line per rule and one per element: what a reader needs to find and fix it. */
function summarize(violations: Violations): string {
  return violations
    .map((v) => {
      const nodes = v.nodes.map((n) => `    - ${n.target.join(' ')}\n      ${(n.failureSummary ?? '').replace(/\n/g, '\n      ')}`).join('\n');
      return `  ${v.id} (${v.impact ?? 'n/a'}): ${v.help}\n    ${v.helpUrl}\n${nodes}`;
    })
    .join('\n');
}

async function analyze(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations, `axe violations on ${what}:\n${summarize(results.violations)}`).toEqual([]);
}

/** Scans the page already open in `page` (see the file header for the no-JS twin). */
export async function expectAxeClean(page: Page, browser: Browser, what: string): Promise<void> {
  const size = page.viewportSize() ?? { width: 390, height: 844 };
  if (jsEnabled(test.info())) {
    await page.waitForLoadState('networkidle');
    await analyze(page, `${what} (js, ${size.width} px)`);
    return;
  }
  const html = await page.content();
  const url = page.url();
  const ctx = await browser.newContext({ viewport: size, javaScriptEnabled: true });
  try {
    const twin = await ctx.newPage();
    await twin.route(url, (route) =>
      route.fulfill({
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "script-src 'none'" },
        body: html,
      }),
    );
    await twin.goto(url);
    await twin.waitForLoadState('networkidle');
    expect(await twin.evaluate(() => customElements.get('astro-island') === undefined), 'no page script ran in the twin').toBe(true);
    await analyze(twin, `${what} (nojs, ${size.width} px)`);
  } finally {
    await ctx.close();
  }
}
