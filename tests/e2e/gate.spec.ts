/**
 * The gate (README "The gate"), with JavaScript on and off: a staff link opens the gate (the key
 * leaves the address bar); a code typed in the manual form is admitted, typed again refused as
 * used with when and where; an awaiting-review code and another expo's code are refused; the
 * visitor's credential page then shows the new count. Axe on the gate page with an answer, and a
 * screenshot of it at 390 px. And once (`@http`): without a valid key — none, another expo's,
 * revoked, expired — every gate page answers exactly the site's not-found page.
 *
 * Keys and a fresh registration per test go straight into the worker's local D1 (scripts/gate.mjs,
 * `wrangler d1 execute --local` on the server's state dir): the js and nojs runs of a test may
 * share a server, so each makes its own code.
 */
import { randomBytes } from 'node:crypto';
import { expect } from '@playwright/test';
import { expectAxeClean } from './axe';
import { baseUrl, test } from './fixtures';
import { addGateKey, execute } from '../../scripts/gate.mjs';
import { freshCode, persistOf } from './gate-fixtures';
import { routePath } from '../../src/lib/core/routes';

const EID = 'MTMwOA'; // 1308
const REVIEW = 'AR7OY5Q6XIPMQUBJ'; // 1308, awaiting review (SEED.md "Check-in")
const OF_1106 = 'MMN6R4ECDU5ZN4EI';

test('a staff link opens the gate; a code is admitted once, then refused as used with when and where; review and another expo refused; the credential counts it', async ({ page, browser }, info) => {
  test.setTimeout(60_000);
  const gate = `Gate ${info.project.name}`;
  const [{ link }, code] = await Promise.all([addGateKey({ expo: 1308, gate, hours: 1, base: baseUrl(info), persist: persistOf(info) }), freshCode(info, 'GT', '门测 Gate Flow')]);
  await page.goto(link);
  expect(new URL(page.url()).pathname).toBe(`/gate/${EID}`);
  expect(page.url()).not.toContain('key=');
  await expect(page.locator('h1')).toContainText(gate);

  // With JavaScript the scanner island takes the form over (src/islands/GateScanner.tsx): the answer
  // fills the screen in place, with the same data attributes; a tap dismisses it before the next code.
  const js = info.project.name === 'js';
  // the island takes the form over once hydrated (client:load); a post before that is the plain form's
  if (js) await expect(page.locator('astro-island[ssr]')).toHaveCount(0, { timeout: 15_000 });
  const scan = async (text: string) => {
    if (js) {
      const shown = page.locator('[data-gate-answer]');
      if ((await shown.count()) > 0) await shown.click();
      await expect(shown).toHaveCount(0);
      await page.locator('#gate-code').fill(text);
      await page.locator('.gate-submit').click();
      return shown;
    }
    await page.locator('#gate-code').fill(text);
    await Promise.all([page.waitForURL(`**/gate/${EID}`), page.locator('.gate-submit').click()]);
    return page.locator('.gate-answer');
  };

  const admitted = await scan(` ${code.slice(0, 8)} ${code.slice(8)} `);
  await expect(admitted).toHaveAttribute('data-result', 'admitted');
  await expect(admitted).toHaveAttribute('data-tone', 'go');
  await expect(admitted.locator('[data-name]')).toHaveText('门测 Gate Flow');
  await expect(admitted.locator('[data-count]')).toHaveAttribute('data-count', '1 / 1');
  await expect(page.locator('#gate-code')).toBeFocused();
  await expectAxeClean(page, browser, 'gate page with an answer');
  await page.screenshot({ path: info.outputPath(`gate-admitted-390-${info.project.name}.png`) });

  const used = await scan(code);
  await expect(used).toHaveAttribute('data-result', 'used');
  await expect(used).toHaveAttribute('data-tone', 'stop');
  await expect(used.locator('[data-last-entry]')).toContainText(gate);
  await expect(used.locator('[data-last-entry]')).toHaveAttribute('data-last-entry', /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  await page.screenshot({ path: info.outputPath(`gate-used-390-${info.project.name}.png`) });

  await expect(await scan(REVIEW)).toHaveAttribute('data-result', 'review');
  const other = await scan(OF_1106);
  await expect(other).toHaveAttribute('data-result', 'otherExpo');
  await expect(other.locator('[data-name]')).toHaveCount(0);

  // The visitor's credential page reads the new count and the entry: when, and at which gate.
  await page.goto(routePath({ screen: 'credential', variant: null, params: { urlId: 21308, euCode: code, expoId: 1308, fId: 21308 } }));
  await expect(page.locator('.usage dl > div').nth(1).locator('dd')).toHaveText('1');
  await expect(page.locator('[data-last-entry]')).toContainText(gate);
});

test('without a valid key of the expo every gate page is the site’s not-found page', { tag: '@http' }, async ({ request }, info) => {
  test.setTimeout(60_000);
  // Three keys that open nothing on 1308, written in one go: another expo's, a revoked one, an expired one.
  const { createHash } = await import('node:crypto');
  const make = () => {
    const key = randomBytes(32).toString('base64url');
    return { key, id: randomBytes(5).toString('hex'), hash: createHash('sha256').update(key).digest('hex') };
  };
  const [other, revoked, expired] = [make(), make(), make()];
  const now = Date.now();
  await execute(
    `INSERT INTO gate_keys (id, hash, expo_id, gate, created_at, expires_at, revoked_at) VALUES ` +
      `('${other.id}', '${other.hash}', 1106, 'Other expo', ${now}, ${now + 3600_000}, NULL), ` +
      `('${revoked.id}', '${revoked.hash}', 1308, 'Revoked', ${now}, ${now + 3600_000}, ${now}), ` +
      `('${expired.id}', '${expired.hash}', 1308, 'Expired', ${now - 7200_000}, ${now - 3600_000}, NULL)`,
    { persist: persistOf(info) },
  );
  const notFound = await request.get('/no-such-page/at-all');
  expect(notFound.status()).toBe(404);
  const expected = await notFound.text();
  const cookies: [string, string][] = [
    ['no key', ''],
    ['another expo’s key', `gate_1308=${other.key}`],
    ['a revoked key', `gate_1308=${revoked.key}`],
    ['an expired key', `gate_1308=${expired.key}`],
  ];
  for (const [why, cookie] of cookies) {
    for (const path of [`/gate/${EID}`, `/gate/${EID}/stats`, `/gate/${EID}/scans.csv`, `/gate/${EID}?key=${other.key}`, `/gate/${EID}?key=${revoked.key}`, `/gate/${EID}?key=${expired.key}`]) {
      const res = await request.get(path, { headers: cookie ? { cookie } : {}, maxRedirects: 0 });
      expect(res.status(), `${why}: ${path}`).toBe(404);
      expect(await res.text(), `${why}: ${path}`).toBe(expected);
      expect(res.headers()['set-cookie'], `${why}: ${path}`).toBeUndefined();
    }
  }
  // The other expo's key opens its own gate.
  const own = await request.get(`/gate/MTEwNg?key=${other.key}`, { maxRedirects: 0 });
  expect(own.status()).toBe(303);
});
