/**
 * The purchase half (issue 11 "Done when"), with JavaScript on and off (playwright.config.ts
 * projects): buy two tickets through the payment simulator to /ticketSuccess with both QR
 * codes decoded to their euCodes, found again by the ordinary lookup; a discount applied and
 * the used-up one refused; a sold-out ticket refused; an order left to expire (the simulator's
 * "let the hold run out", no wait) reads as timed out and its ticket is on sale again; cancel; refund
 * apply and cancel; an unverified visitor opening /orderList is sent to the lookup and back.
 *
 * Every test uses its own contact (buyer-…@demo.test), so the specs run in parallel.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { fillBuyer } from './buyer';
import { expectAxeClean } from './axe';
import { baseUrl, setLangCookie, t } from './fixtures';
import { eid, form as lookupForm, hydrated, js, lookupByEmail, texts } from './lookup-helpers';
import { CONTACT_COOKIE, signContact } from '../../src/lib/lookup/contact-cookie';
import { SENT_COOKIE } from '../../src/lib/lookup/resend';

/** The servers' SESSION_SECRET (scripts/lib.mjs e2eServer: the environment's, else the local default). */
const SECRET = process.env['SESSION_SECRET'] ?? 'local-dev-session-secret-not-for-production';

const E = 1216;
const PATH = `21216/${eid(E)}/visitor`;
const LIST = `/ticket/${PATH}`;
const ORDERS = `/orderList/${PATH}`;
// Expo 1216 is signType 4 with languageType 1 outside the all-expo list: spec §4 renders every
// page of it in Chinese, whatever the visitor's cookie says (the cookie is set to English below
// to show it).
const zh = (key: string) => t('zh', key);

const buyer = (tag: string) => `buyer-${tag}-${test.info().project.name}-${Date.now().toString(36)}@demo.test`;

test.beforeEach(async ({ context }, info) => {
  await setLangCookie(context, 'en', info);
});

/** The lookup's code step: opening a purchase page unverified lands on the lookup, which brings the visitor back. */
async function verify(page: Page, request: APIRequestContext, email: string, target = ORDERS): Promise<void> {
  await page.goto(target);
  await expect(page).toHaveURL((u) => u.pathname === `/search/${PATH}` && u.searchParams.get('next') === target);
  await hydrated(page);
  await lookupByEmail(page, request, email, await texts(page));
  await expect(page).toHaveURL((u) => `${u.pathname}${u.search}` === target);
}

/** Opens the buyer form of a ticket from the list. */
async function openTicket(page: Page, name: string): Promise<void> {
  await page.goto(LIST);
  const card = page.locator('li.ticket').filter({ has: page.getByRole('heading', { name }) });
  await card.getByRole('link', { name: zh('ticket.buy') }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await hydrated(page);
}

/** Buys `quantity` of a ticket up to the cashier; returns the order number. */
async function toCashier(page: Page, name: string, quantity: number): Promise<string> {
  await openTicket(page, name);
  await fillBuyer(page, quantity);
  await page.getByRole('button', { name: zh('order.pay') }).click();
  await expect(page).toHaveURL(/\/dev\/pay\/T\w+$/);
  return new URL(page.url()).pathname.split('/').pop() ?? '';
}

/** Every QR code on the page, decoded from a screenshot. */
async function decodeAll(page: Page): Promise<string[]> {
  const qrs = page.locator('svg.qr');
  const out: string[] = [];
  for (let i = 0; i < (await qrs.count()); i++) {
    await qrs.nth(i).scrollIntoViewIfNeeded();
    const png = PNG.sync.read(await qrs.nth(i).screenshot());
    const found = jsQR(Uint8ClampedArray.from(png.data), png.width, png.height);
    expect(found, `QR ${i} decodes`).not.toBeNull();
    out.push(found?.data ?? '');
  }
  return out;
}

test('an unverified visitor opening /orderList is sent to the lookup, and comes back verified', async ({
  page,
  request,
}) => {
  // The buyer form too (spec §4): no form for an unproven contact, the lookup and back.
  const form = `/ticketForm/${PATH}?ticketId=1`;
  const bounced = await request.get(form, { maxRedirects: 0 });
  expect(bounced.status()).toBeGreaterThanOrEqual(300);
  expect(bounced.status()).toBeLessThan(400);
  const to = new URL(bounced.headers()['location'] ?? '', 'http://x');
  expect([to.pathname, to.searchParams.get('next')]).toEqual([`/search/${PATH}`, form]);
  await verify(page, request, buyer('guard'));
  await expect(page.getByRole('heading', { level: 1, name: zh('order.list') })).toBeVisible();
  await expect(page.getByText(zh('order.empty'))).toBeVisible();
});

test('buy 2 tickets through the simulator: both QR codes decode to their codes, which the lookup finds', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const email = buyer('buy2');
  await verify(page, request, email, LIST);
  // The list: prices in the expo's currency for the page language, states.
  const full = page.locator('li.ticket').filter({ has: page.getByRole('heading', { name: '全程通票 Full Pass' }) });
  await expect(full.locator('.current')).toHaveText('¥250.00');
  await expect(full.locator('.original')).toHaveText('¥300.00');
  const orderNo = await toCashier(page, '全程通票 Full Pass', 2);
  await expect(page.locator('[data-total]')).toHaveText('50000');
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page).toHaveURL(
    (u) => u.pathname === `/ticketSuccess/${PATH}` && u.searchParams.get('orderNo') === orderNo,
  );
  await expect(page.locator('[data-status]').first()).toHaveText(zh('order.paid'));
  // a payment, not a registration; each ticket says which of the order's it is
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(zh('order.paidTitle'));
  await expect(page.locator('.tickets figcaption')).toHaveText(['1', '2'].map((i) => zh('order.ticketOf').replace('{{i}}', i).replace('{{n}}', '2')));
  const codes = (await page.locator('.tickets p.code').allTextContents()).map((s) => s.trim());
  expect(codes).toHaveLength(2);
  expect(await decodeAll(page)).toEqual(codes);
  // The ordinary lookup finds them: class 8 records labelled by their ticket name.
  // A new visit: no verified contact, no resend countdown (spec §4: 60 s between sends).
  await page.context().clearCookies();
  await setLangCookie(page.context(), 'en', test.info());
  await page.goto(`/search/${PATH}`);
  await hydrated(page);
  await lookupByEmail(page, request, email, await texts(page));
  for (const code of codes) await expect(page.locator(`a[href*="/${eid(code)}/"]`)).toHaveCount(1);
  await expect(page.getByText('全程通票 Full Pass')).toHaveCount(2);
});

test('@js the shared link offline lists the credential and the paid e-ticket shown on this phone, each opening its copy', async ({
  page,
  request,
  context,
  browser,
}) => {
  test.setTimeout(90_000);
  // The lookup's island registers the service worker (issue 23 "At the gate, offline").
  await verify(page, request, buyer('offline'), LIST);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // A credential of this expo, shown online (the seed's 1216 record).
  const credential = `/success/${eid(21216)}/${eid('FIPUHATHDGU6QWSF')}/${eid(E)}/21216`;
  await page.goto(credential);
  await expect(page.locator('dd.code')).toHaveText('FIPUHATHDGU6QWSF');
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  // A paid e-ticket, shown online: its QR has the save link.
  const orderNo = await toCashier(page, '全程通票 Full Pass', 1);
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page).toHaveURL((u) => u.pathname === `/ticketSuccess/${PATH}` && u.searchParams.get('orderNo') === orderNo);
  const ticketPage = new URL(page.url());
  const code = ((await page.locator('.tickets p.code').textContent()) ?? '').trim();
  const save = page.locator('.tickets a.save');
  await expect(save).toHaveAttribute('href', `/qr/${eid(21216)}/${eid(code)}/${eid(E)}/21216.png?save=1`);
  expect((await request.get((await save.getAttribute('href')) ?? '')).headers()['content-disposition']).toContain('attachment');
  await expect(page.locator('[data-offline]')).toBeHidden();
  // Inside the messaging app a download does nothing: press and hold instead (credential and e-ticket alike).
  const inApp = { 'user-agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 MicroMessenger/8.0.47.2560' };
  for (const path of [credential, `${ticketPage.pathname}${ticketPage.search}`]) {
    const html = await (await page.request.get(path, { headers: inApp, maxRedirects: 0 })).text();
    expect(html, path).toContain(zh('offlineLink.longPress'));
    expect(html, path).toContain('data-long-press');
    expect(html, path).not.toContain('?save=1');
  }

  await context.setOffline(true);
  // The link the visitor was sent: the event home.
  await page.goto(`/${PATH}`);
  const list = page.locator('[data-offline-list]');
  await expect(list.getByRole('heading', { level: 1 })).toHaveText(zh('offlineLink.title'));
  const updated = new RegExp(`^${zh('offlineLink.updated').replace('{{time}}', '(\\d{4}-\\d{2}-\\d{2} )?\\d{2}:\\d{2}')}$`);
  const items = list.locator('li');
  await expect(items).toHaveCount(2);
  // newest first: the e-ticket, then the credential, each with when it was last updated
  await expect(items.locator('a')).toHaveText([zh('offlineLink.ticket').replace('{{codes}}', code), zh('offlineLink.credential').replace('{{code}}', 'FIPUHATHDGU6QWSF')]);
  for (const when of await items.locator('[data-updated]').allTextContents()) expect(when).toMatch(updated);
  await expectAxeClean(page, browser, 'the shared link offline');
  // each opens its copy, which says it is one
  await items.first().locator('a').click();
  await expect(page).toHaveURL((u) => u.pathname === ticketPage.pathname && u.search === ticketPage.search);
  await expect(page.locator('.tickets p.code')).toHaveText(code);
  await expect(page.locator('[data-offline]')).toBeVisible();
  await page.goto(`/search/${PATH}`);
  await items.nth(1).locator('a').click();
  await expect(page.locator('dd.code')).toHaveText('FIPUHATHDGU6QWSF');
  await expect(page.locator('[data-offline]')).toBeVisible();
  await context.setOffline(false);
});

test('a discount code is applied; the used-up one is refused with the spec §5 text', async ({ page, request }) => {
  await verify(page, request, buyer('disc'), LIST);
  await openTicket(page, '全程通票 Full Pass');
  await fillBuyer(page, 1);
  const code = page.getByLabel(zh('ticket.discountCode'), { exact: true });
  await code.fill('EARLY50');
  // the organiser's names of the payment methods (1216's customerWx.payName2), not "payment app"
  await expect(page.locator('#ticket-form').getByRole('radio', { name: '支付宝' })).toBeVisible();
  await page.getByRole('button', { name: zh('ticket.discountCheck') }).click();
  // the answer under the code's field, not at the top of the page
  await expect(page.locator('#discount #discount-result')).toHaveText(zh('ticket.discountApplied').replace('{{price}}', '¥125.00'));
  // the total before paying, with the checked code: 1 × ¥250.00 − ¥125.00 = ¥125.00
  const sum = (q: number, off: string, total: string) =>
    zh('locale.totalDiscounted').replace('{{quantity}}', String(q)).replace('{{price}}', '¥250.00').replace('{{discount}}', off).replace('{{total}}', total);
  await expect(page.locator('[data-sum]')).toHaveText(sum(1, '¥125.00', '¥125.00'));
  if (js()) {
    // and kept right when the quantity changes
    await page.locator('#ticket-form [name="quantity"]').selectOption('2');
    await expect(page.locator('[data-sum]')).toHaveText(sum(2, '¥250.00', '¥250.00'));
    await page.locator('#ticket-form [name="quantity"]').selectOption('1');
  }
  // Nothing typed is lost.
  await expect(page.locator('#ticket-form [name="ucompany"]')).toHaveValue('Demo Co.');
  await expect(code).toHaveValue('EARLY50');
  await code.fill('USEDUP');
  await page.getByRole('button', { name: zh('order.pay') }).click();
  await expect(page.getByRole('alert').filter({ hasText: zh('form.discountTimes') })).toBeVisible();
  await expect(page.locator('#ticket-form [name="uname"]')).toHaveValue('Ticket Buyer');
  // EARLY50 makes the order at its price.
  await page.getByLabel(zh('ticket.discountCode'), { exact: true }).fill('EARLY50');
  await page.getByRole('button', { name: zh('order.pay') }).click();
  await expect(page.locator('[data-total]')).toHaveText('12500');
});

test('a sold-out ticket is refused', async ({ page, request }) => {
  await verify(page, request, buyer('soldout'), LIST);
  const card = page.locator('li.ticket').filter({ has: page.getByRole('heading', { name: '早鸟票 Early Bird' }) });
  await expect(card.locator('.state')).toHaveText(zh('ticket.soldOut'));
  await expect(card.getByRole('link', { name: zh('ticket.buy') })).toHaveCount(0);
  await page.goto(`/ticketForm/${PATH}?ticketId=4`);
  await expect(page.getByRole('alert').filter({ hasText: zh('ticket.soldOut') })).toBeVisible();
  await expect(page.getByRole('button', { name: zh('order.pay') })).toHaveCount(0);
});

test('an order left to expire reads as timed out, and its ticket is on sale again', async ({ page, request }) => {
  // One ticket left, one ticket per project (both projects may run at once).
  const name = js() ? '夜场票 Evening Pass' : '论坛票 Forum Pass';
  await verify(page, request, buyer('expire'), LIST);
  const orderNo = await toCashier(page, name, 1);
  await page.getByRole('button', { name: 'Abandon' }).click();
  await expect(page).toHaveURL(
    (u) => u.pathname === `/ticketSuccess/${PATH}` && u.searchParams.get('pay') === 'abandoned',
  );
  await expect(page.getByText(zh('order.payAbandoned'))).toBeVisible();
  await expect(page.locator('[data-status]').first()).toHaveText(zh('order.unpaid'));
  await expect(page.getByRole('button', { name: zh('order.pay') })).toBeVisible();
  if (js()) {
    // The hold runs out while the page is open: one state, in its colour, pay stopped, a way to buy again.
    await page.clock.install();
    await page.goto(`/orderDetails/${PATH}?orderNo=${orderNo}`);
    await hydrated(page);
    await page.clock.fastForward('31:00');
    const expired = page.getByRole('status').filter({ hasText: zh('order.holdExpired') });
    await expect(expired).toBeVisible();
    await expect(expired).not.toHaveClass(/\binfo\b/);
    await expect(page.getByText(zh('order.timeLeft').split('{{time}}')[0] ?? '')).toHaveCount(0);
    await expect(page.getByRole('button', { name: zh('order.pay') })).toBeDisabled();
    await expect(expired.getByRole('link', { name: zh('order.buyAgain') })).toHaveAttribute('href', /\/ticketForm\/.*ticketId=\d+/);
  }
  await page.goto(LIST);
  const card = page.locator('li.ticket').filter({ has: page.getByRole('heading', { name }) });
  await expect(card.locator('.state')).toHaveText(zh('ticket.soldOut'));
  // The simulator's "let the hold run out" moves the hold's end to now: what 30 minutes of waiting would do.
  await page.goto(`/dev/pay/${orderNo}`);
  await page.getByRole('button', { name: 'Let the hold run out' }).click();
  await page.goto(`/orderDetails/${PATH}?orderNo=${orderNo}`);
  await expect(page.locator('[data-status]').first()).toHaveText(zh('order.timedOut'));
  await expect(page.getByRole('button', { name: zh('order.pay') })).toHaveCount(0);
  // said once, as an error, with the way to buy the same ticket again
  const expired = page.locator('[data-hold-expired]');
  await expect(expired).toHaveText(new RegExp(zh('order.holdExpired')));
  await expect(expired.getByRole('link', { name: zh('order.buyAgain') })).toHaveAttribute('href', /\/ticketForm\/.*ticketId=\d+/);
  await expect(page.locator('.notice.info')).toHaveCount(0);
  await page.goto(LIST);
  await expect(card.locator('.state')).toHaveText(
    `${zh('ticket.onSale')} · ${zh('ticket.left').replace('{{n}}', '1')}`,
  );
});

test('cancel an unpaid order', async ({ page, request }) => {
  await verify(page, request, buyer('cancel'), LIST);
  const orderNo = await toCashier(page, '单日票 Day Pass', 1);
  await page.goto(`/orderDetails/${PATH}?orderNo=${orderNo}`);
  await hydrated(page);
  await page.getByRole('button', { name: zh('order.cancel') }).click();
  await expect(page.getByRole('alert').filter({ hasText: zh('order.cancelDone') })).toBeVisible();
  await expect(page.locator('[data-status]').first()).toHaveText(zh('order.cancelled'));
  await page.goto(ORDERS);
  await expect(page.locator(`li[data-order-no="${orderNo}"] .status`)).toHaveText(zh('order.cancelled'));
});

test('apply for a refund with a reason, then cancel the application', async ({ page, request }) => {
  await verify(page, request, buyer('refund'), LIST);
  const orderNo = await toCashier(page, '全程通票 Full Pass', 1);
  await page.getByRole('button', { name: /^Pay / }).click();
  await page.goto(`/orderDetails/${PATH}?orderNo=${orderNo}`);
  await page.getByLabel(zh('order.refundReason')).fill('Cannot attend');
  await page.getByRole('button', { name: zh('order.applyRefund') }).click();
  await expect(page.getByRole('alert').filter({ hasText: zh('order.refundDone') })).toBeVisible();
  await expect(page.locator('[data-status]').first()).toHaveText(zh('order.refundApplied'));
  await expect(page.getByText('Cannot attend')).toBeVisible();
  await page.getByRole('button', { name: zh('order.cancelRefund') }).click();
  await expect(page.getByRole('alert').filter({ hasText: zh('order.cancelRefundDone') })).toBeVisible();
  await expect(page.locator('[data-status]').first()).toHaveText(zh('order.paid'));
});

test('the buyer form holds the proof for its own window; when it ran out anyway it says so, keeps every value, and the new code leads back', async ({
  page,
  request,
}, info) => {
  const email = buyer('window');
  await verify(page, request, email, LIST);
  await openTicket(page, '单日票 Day Pass');
  // Opening the buyer form re-signs the proof with the form's 30-minute window (as a registration form does).
  const opened = await page.request.get(page.url());
  const renewed = opened.headersArray().find((h) => h.name.toLowerCase() === 'set-cookie' && h.value.startsWith(`${CONTACT_COOKIE}=`));
  expect(Number(/Max-Age=(\d+)/i.exec(renewed?.value ?? '')?.[1]), 'the buyer form extends the proof').toBeGreaterThan(30 * 60);
  await fillBuyer(page, 2, 'Window Buyer');
  await page.locator('#ticket-form [name="discountCode"]').fill('KEPT1');
  const form = page.url();
  // Proved 3 hours ago: past the form's window too (the servers' known SESSION_SECRET, scripts/lib.mjs).
  const old = await signContact({ expoId: E, contact: email, checkType: 2 }, SECRET, Date.now() - 3 * 3600_000);
  await page.context().addCookies([{ name: CONTACT_COOKIE, value: old, url: baseUrl(info), httpOnly: true }]);
  await page.context().clearCookies({ name: SENT_COOKIE });
  await page.getByRole('button', { name: zh('order.pay') }).click();
  await expect(page).toHaveURL((u) => u.pathname === `/search/${PATH}` && `${new URL(form).pathname}${new URL(form).search}` === u.searchParams.get('next'));
  await expect(page.getByText(zh('form.expired'))).toBeVisible();
  await hydrated(page);
  const s = await texts(page);
  await expect(lookupForm(page, s).email, 'the contact is filled in').toHaveValue(email);
  await lookupByEmail(page, request, email, s);
  await expect(page).toHaveURL(form);
  const f = page.locator('#ticket-form');
  await expect(f.locator('[name="uname"]')).toHaveValue('Window Buyer');
  await expect(f.locator('[name="ucardid"]')).toHaveValue('E12345678');
  await expect(f.locator('[name="quantity"]')).toHaveValue('2');
  await expect(f.locator('[name="discountCode"]')).toHaveValue('KEPT1');
  await expect(f.locator('[name="privacy"]')).toBeChecked();
  await f.locator('[name="discountCode"]').fill('');
  await page.getByRole('button', { name: zh('order.pay') }).click();
  await expect(page).toHaveURL(/\/dev\/pay\/T\w+$/);
});
