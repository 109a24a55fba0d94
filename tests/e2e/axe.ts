/**
 * The accessibility scan of every browser spec: axe-core on the whole page, nothing excluded and
 * no rule disabled, a readable list of what to fix on failure.
 *
 * - `js`: the live page, after its islands hydrated and the network went quiet.
 * - `nojs`: axe cannot run in a page whose scripting is off (its timers never fire), so the DOM
 *   the no-JS browser built is served again, unchanged, to a scripting-enabled twin page whose
 *   Content-Security-Policy is `script-src 'none'`: none of the page's own scripts run (no zoom
 *   guard, no island), only axe, which the test tool injects. The twin waits for its `load`
 *   event (stylesheets and images), not for network idle: with no script running nothing is
 *   fetched after it, and idle would only add half a second to every scan.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Browser, type Page } from '@playwright/test';
import { jsEnabled, test, visitorHeaders } from './fixtures';

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

async function expectNoViolations(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations, `axe violations on ${what} (${page.url()}):\n${summarize(results.violations)}`).toEqual([]);
}

/** Scans `page` as the project's visitor has it now (`status`: the HTTP status to serve the no-JS twin with). */
export async function expectAxeClean(page: Page, browser: Browser, what: string, status = 200): Promise<void> {
  const size = page.viewportSize() ?? { width: 390, height: 844 };
  if (jsEnabled(test.info())) {
    await page.waitForLoadState('networkidle');
    await expectNoViolations(page, `${what} (js, ${size.width} px)`);
    return;
  }
  const html = await page.content();
  const url = page.url();
  const ctx = await browser.newContext({ viewport: size, javaScriptEnabled: true, extraHTTPHeaders: visitorHeaders(test.info(), 9) });
  try {
    const twin = await ctx.newPage();
    await twin.route(url, (route) =>
      route.fulfill({
        status,
        headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "script-src 'none'" },
        body: html,
      }),
    );
    await twin.goto(url, { waitUntil: 'load' });
    expect(await twin.evaluate(() => customElements.get('astro-island') === undefined), 'no page script ran').toBe(true);
    await expectNoViolations(twin, `${what} (nojs, ${size.width} px)`);
  } finally {
    await ctx.close();
  }
}
