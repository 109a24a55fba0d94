/**
 * The gate scanner island (src/islands/GateScanner.tsx) on the real gate page, JavaScript only:
 *
 * - offline: the list loads, the network goes (Playwright's offline mode), a code typed twice is
 *   admitted and then refused as used from the list on the phone, the status line says OFFLINE and
 *   "2 scans waiting"; meanwhile the same code is admitted online at another gate; the network
 *   comes back, the queue is sent and the double entry is shown to staff;
 * - the camera: Chromium's fake camera plays a QR code (tests/e2e/gate-y4m.ts); headless Chromium
 *   on Linux has no BarcodeDetector, so this is the jsQR worker's path, under the page's real CSP
 *   and Permissions-Policy; a code held in view is scanned once.
 *
 * Staff keys are made per test in this worker's own STAFF database (scripts/gate.mjs). The code of
 * the offline test is seeded for it alone (SEED.md "Check-in", `OQ3ZK7NB2WLXT5HD`); the camera
 * reads the review code, which counts nothing.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { test, visitorHeaders } from './fixtures';
import { CHROMIUM, CHROMIUM_FLAGS, e2eServer } from '../../scripts/lib.mjs';
import { addGateKey } from '../../scripts/gate.mjs';
import { expectAxeClean } from './axe';
import { writeQrY4m } from './gate-y4m';

const EID = 'MTMwOA'; // 1308
const OFFLINE_CODE = 'OQ3ZK7NB2WLXT5HD';
const REVIEW_CODE = 'AR7OY5Q6XIPMQUBJ';

const VIDEO_DIR = join('test-results', 'gate-camera');
mkdirSync(VIDEO_DIR, { recursive: true });
// one file per process: each Playwright worker's Chromium reads its own while another may be writing
const VIDEO = join(VIDEO_DIR, `review-code-${process.pid}.y4m`);
writeQrY4m(VIDEO, REVIEW_CODE);

test.use({
  launchOptions: {
    executablePath: CHROMIUM,
    args: [...CHROMIUM_FLAGS, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${VIDEO}`],
  },
});

/** A staff link of expo 1308 in this worker's database, opened: the gate page, its list loaded. */
async function openGate(page: Page, gate: string): Promise<void> {
  const server = e2eServer(test.info().parallelIndex);
  const { link } = await addGateKey({ expo: 1308, gate, hours: 1, base: server.baseURL, persist: server.persist });
  const res = await page.goto(link);
  expect(res?.status()).toBe(200);
  expect(new URL(page.url()).pathname).toBe(`/gate/${EID}`);
  await expect(page.locator('[data-gate-status]')).toContainText(/Online — list of [\d,]+ codes/);
}

const status = (page: Page) => page.locator('[data-gate-status]');
const answer = (page: Page) => page.locator('[data-gate-answer]');

async function type(page: Page, code: string): Promise<void> {
  const field = page.locator('form[action="/api/gate/scan"] input[name="code"]');
  await field.fill(code);
  await field.press('Enter');
}

test('@js offline: decided from the list, queued, synced; a double entry is shown', async ({ page, context }) => {
  await context.addCookies([{ name: '_h5_lang', value: 'en', url: e2eServer(test.info().parallelIndex).baseURL }]);
  await openGate(page, 'Gate 3');

  await context.setOffline(true);
  await expect(status(page)).toContainText('OFFLINE — deciding from the list of');

  await type(page, OFFLINE_CODE);
  await expect(answer(page)).toHaveAttribute('data-gate-answer', 'admitted');
  await expect(answer(page)).toHaveAttribute('data-offline', 'yes');
  await expect(answer(page)).toContainText('ADMIT');
  await type(page, OFFLINE_CODE);
  await expect(answer(page)).toHaveAttribute('data-gate-answer', 'used');
  await expect(answer(page)).toContainText('Last entry');
  await expect(status(page)).toContainText('2 scans waiting to send');

  // Meanwhile another gate, online, admits the same code: the server has it first.
  const other = e2eServer(test.info().parallelIndex);
  const otherKey = await addGateKey({ expo: 1308, gate: 'Gate 1', hours: 1, base: other.baseURL, persist: other.persist });
  const otherGate = await page.context().browser()!.newContext({ baseURL: other.baseURL, extraHTTPHeaders: visitorHeaders(test.info(), 1) });
  try {
    const staff = await otherGate.newPage();
    await staff.goto(otherKey.link);
    const online = await staff.request.post('/api/gate/scan', {
      headers: { origin: other.baseURL, accept: 'application/json' },
      data: { eid: EID, code: OFFLINE_CODE },
    });
    expect((await online.json()).data).toMatchObject({ result: 'admitted', usedCount: 1, maxCount: 1, gate: 'Gate 1' });
  } finally {
    await otherGate.close();
  }

  await context.setOffline(false);
  const doubles = page.locator('[data-gate-doubles]');
  await expect(doubles).toContainText(`${OFFLINE_CODE} admitted offline at`);
  await expect(doubles).toContainText('Gate 1');
  await expect(status(page)).toContainText('Online — list of');
  await expect(status(page)).not.toContainText('waiting');
  await answer(page).click();
  await expect(answer(page)).toHaveCount(0);
  await expectAxeClean(page, page.context().browser()!, 'the gate with a double entry');

  // The list stays until staff dismiss it (a reload keeps it: IndexedDB).
  await page.reload();
  await expect(doubles).toContainText(OFFLINE_CODE);
  await page.getByRole('button', { name: 'Seen, clear this list' }).click();
  await expect(doubles).toHaveCount(0);
});

test('@js camera: a QR code in view is read once (the worker decoder) and answered full screen', async ({ page, context }) => {
  await context.addCookies([{ name: '_h5_lang', value: 'en', url: e2eServer(test.info().parallelIndex).baseURL }]);
  await context.grantPermissions(['camera']);
  const scans: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/gate/scan') && r.method() === 'POST') scans.push(r.postData() ?? '');
  });
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Permissions policy|Permissions-Policy/i.test(m.text())) violations.push(m.text());
  });
  await openGate(page, 'Gate 5');
  await page.getByRole('button', { name: 'Start camera' }).click();
  await expect(answer(page)).toHaveAttribute('data-gate-answer', 'review', { timeout: 10_000 });
  await expect(answer(page)).toHaveAttribute('data-offline', 'no');
  // The code stays in view: read many times, scanned once (one person, one scan).
  await expect.poll(() => page.evaluate(() => document.querySelector('video')?.currentTime ?? 0)).toBeGreaterThan(1.5);
  expect(scans).toHaveLength(1);
  expect(JSON.parse(scans[0] ?? '{}')).toMatchObject({ eid: EID, code: REVIEW_CODE });
  expect(violations).toEqual([]);
  await answer(page).click();
  await page.getByRole('button', { name: 'Stop camera' }).click();
  await expect(page.locator('video')).toBeHidden();
});
