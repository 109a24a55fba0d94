/**
 * A real cashier is reached (issue 19 item 9 "Done when"), with JavaScript on and off (the js
 * and nojs projects): a payment provider on another origin over https (tests/e2e/fake-cashier.ts,
 * a self-signed certificate, so this spec accepts it: `ignoreHTTPSErrors`). A second Worker
 * whose reference hands out that cashier (`REF_CASHIER_URL`) and shares its merchant key
 * (`REF_PAY_SECRET`): the buyer fills the form, presses pay, reaches the cashier, pays (the
 * provider notifies the Worker server to server), and comes back to this site's /ticketSuccess
 * with the tickets. Then a refund application voids them: the credential page says so and shows
 * no QR code (item 10).
 */
import { rmSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { expect, type Page } from '@playwright/test';
import { freePort } from '../../scripts/lib.mjs';
import { CONTACT_COOKIE, signContact } from '../../src/lib/lookup/contact-cookie';
import { routePath } from '../../src/lib/core/routes';
import { fillBuyer } from './buyer';
import { startFakeCashier, type FakeCashier } from './fake-cashier';
import { t, test } from './fixtures';
import { eid } from './lookup-helpers';
import { startSecondWorker, stopSecondWorker } from './second-worker';

const E = 1216;
const PATH = `21216/${eid(E)}/visitor`;
const SESSION_SECRET = 'cashier-spec-session-secret-0123456789';
const PAY_SECRET = 'cashier-spec-pay-secret-0123456789';
const zh = (key: string) => t('zh', key);

test.use({ ignoreHTTPSErrors: true });

test.describe('a cashier on another origin over https (issue 19 item 9)', () => {
  test.describe.configure({ mode: 'serial', timeout: 240_000 });
  let cashier: FakeCashier;
  let worker: ChildProcess;
  let site: string;
  let persist: string;

  test.beforeAll(async ({}, info) => {
    info.setTimeout(240_000);
    // Free ports, or (E2E_EXTRA_PORT, for a machine shared by port ranges) that port and the next
    // ones: the Worker and the cashier, two per project so js and nojs may run at once.
    const extra = Number(process.env.E2E_EXTRA_PORT ?? '');
    const slot = Number.isInteger(extra) && extra > 0 ? extra + (info.project.name === 'nojs' ? 2 : 0) : 0;
    const port = slot || (await freePort());
    persist = `.wrangler/e2e-cashier-${port}`;
    cashier = await startFakeCashier(`http://127.0.0.1:${port}`, PAY_SECRET, slot ? slot + 1 : 0);
    ({ child: worker, site } = await startSecondWorker(port, persist, {
      SESSION_SECRET,
      REF_PAY_SECRET: PAY_SECRET,
      REF_CASHIER_URL: cashier.url,
    }, 180_000)); // a busy machine migrates slowly (70 s seen)
  });

  test.afterAll(async () => {
    await stopSecondWorker(worker);
    await cashier?.close();
    if (persist) rmSync(persist, { recursive: true, force: true });
  });

  /** A visitor who proved their e-mail on expo 1216 (the signed cookie the lookup would set). */
  async function verified(page: Page, email: string): Promise<void> {
    const value = encodeURIComponent(await signContact({ expoId: E, contact: email, checkType: 2 }, SESSION_SECRET));
    await page.context().addCookies([{ name: CONTACT_COOKIE, value, url: site }]);
  }

  test('buy 2 tickets: the buyer reaches the cashier, pays, and comes back to /ticketSuccess with them; a refund voids them', async ({
    page,
  }, info) => {
    const email = `cashier-${info.project.name}-${Date.now().toString(36)}@demo.test`;
    await verified(page, email);
    await page.goto(`${site}/ticketForm/${PATH}?ticketId=2`);
    await fillBuyer(page, 2, 'Cashier Buyer');
    await page.getByRole('button', { name: zh('order.pay') }).click();

    // The cashier, on its own origin over https.
    await expect(page).toHaveURL((u) => `${u.origin}${u.pathname}`.startsWith(`${cashier.url}/T`), { timeout: 15_000 });
    const orderNo = new URL(page.url()).pathname.split('/').pop() ?? '';
    await expect(page.locator('#amount')).toHaveText('50000');
    await page.getByRole('button', { name: 'Pay', exact: true }).click();

    // Back on this site's /ticketSuccess, paid, with both tickets.
    await expect(page).toHaveURL(
      (u) => u.origin === site && u.pathname === `/ticketSuccess/${PATH}` && u.searchParams.get('orderNo') === orderNo,
    );
    expect(new URL(page.url()).searchParams.get('pay')).toBe('paid');
    await expect(page.locator('[data-status]').first()).toHaveText(zh('order.paid'));
    const codes = (await page.locator('.tickets p.code').allTextContents()).map((s) => s.trim());
    expect(codes).toHaveLength(2);
    expect(cashier.notifications.filter((n) => n.body.includes(orderNo))).toEqual([
      expect.objectContaining({ status: 200, reply: expect.stringContaining('"code":200') }),
    ]);

    // A refund application voids both credentials at once (item 10).
    await page.goto(`${site}/orderDetails/${PATH}?orderNo=${orderNo}`);
    await page.getByLabel(zh('order.refundReason')).fill('Cannot attend');
    await page.getByRole('button', { name: zh('order.applyRefund') }).click();
    await expect(page.locator('[data-status]').first()).toHaveText(zh('order.refundApplied'));
    await expect(page.locator('[data-money-notice="order.ticketsVoided"]')).toHaveText(zh('order.ticketsVoided'));
    await expect(page.locator('svg.qr')).toHaveCount(0);
    const credential = routePath({ screen: 'credential', variant: null, params: { urlId: 21216, euCode: codes[0] ?? '', expoId: E, fId: 21216 } });
    await page.goto(`${site}${credential}`);
    await expect(page.locator('[data-voided]')).toHaveText(zh('success.voidedNotice'));
    await expect(page.locator('.usage .status dd')).toHaveText(zh('success.voided'));
    await expect(page.locator('img[src^="/qr/"], svg.qr')).toHaveCount(0);
  });
});
