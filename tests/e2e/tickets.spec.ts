/**
 * The purchase half (issue 11 "Done when"), with JavaScript on and off (playwright.config.ts
 * projects): buy two tickets through the payment simulator to /ticketSuccess with both QR
 * codes decoded to their euCodes, found again by the ordinary lookup; a discount applied and
 * the used-up one refused; a sold-out ticket refused; an order left to expire (the simulator's
 * "let the hold run out", no wait) reads as timed out and its ticket is on sale again; cancel; refund
 * apply and cancel; an unverified visitor opening /orderList is sent to the lookup and back.
 * Issue 30: a proof that runs out on the buyer form (the discount check and the pay button, 11
 * minutes and 3 hours after it) loses none of the typed fields and the lookup says why; a reload
 * after a refusal keeps them; opening a purchase page after the proof ran out says why on the
 * lookup; the payment method preselected by the browser (messaging app or not).
 *
 * Every test uses its own contact (buyer-…@demo.test), so the specs run in parallel.
 */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { fillBuyer } from './buyer';
import { baseUrl, setLangCookie, t, test, visitorHeaders } from './fixtures';
import { eid, form as lookupForm, hydrated, js, lookupByEmail, texts } from './lookup-helpers';
import { CONTACT_COOKIE, openFormWindow, signContact } from '../../src/lib/lookup/contact-cookie';
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

// The shared link offline (credential and e-ticket shown, then the event home with the network
// off), the e-ticket's save link and the messaging app's long-press line: visitor-langs.spec.ts, on
// 1261 in zh, en and thai (1216 forces Chinese).

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
  // The hold running out with the page open (page clock): visitor-langs.spec.ts, in zh, en and thai.
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

test.describe('issue 30: nothing typed on the buyer form is lost when the proof runs out', () => {
  /** Replaces the proof with one made `agoMs` ago, the buyer form opened then (its window: 30 minutes from then). */
  async function provedAgo(page: Page, email: string, agoMs: number, info: Parameters<typeof baseUrl>[0]): Promise<void> {
    const signed = await signContact({ expoId: E, contact: email, checkType: 2 }, SECRET, Date.now() - agoMs);
    const value = (await openFormWindow(signed, SECRET, Date.now() - agoMs))?.value ?? '';
    await page.context().addCookies([{ name: CONTACT_COOKIE, value, url: baseUrl(info), httpOnly: true }]);
    // the 60 s resend countdown of the first code is long over by then, too
    await page.context().clearCookies({ name: SENT_COOKIE });
  }

  /** Every field of the buyer form as the visitor typed it. */
  async function expectEveryField(page: Page): Promise<void> {
    const f = page.locator('#ticket-form');
    await expect(f.locator('[name="uname"]')).toHaveValue('Lapsed Buyer');
    await expect(f.locator('[name="ucompany"]')).toHaveValue('Demo Co.');
    await expect(f.locator('[name="ucardid.type"]')).toHaveValue('2');
    await expect(f.locator('[name="ucardid"]')).toHaveValue('E12345678');
    await expect(f.locator('[name="industry"]')).toHaveValue('Trade');
    await expect(f.locator('[name="purpose.0"]')).toBeChecked();
    await expect(f.locator('[name="privacy"]')).toBeChecked();
    await expect(f.locator('[name="discountCode"]')).toHaveValue('EARLY50');
    await expect(f.locator('[name="quantity"]')).toHaveValue('2');
    await expect(f.locator('input[name="payType"][value="1"]')).toBeChecked();
  }

  /** The lookup after the proof ran out: it says so, the contact filled in; a new code leads back to the form. */
  async function proveAgain(page: Page, request: APIRequestContext, email: string, form: URL, said = 'form.expired'): Promise<void> {
    await expect(page).toHaveURL((u) => u.pathname === `/search/${PATH}` && u.searchParams.get('next') === `${form.pathname}${form.search}`);
    await expect(page.getByText(zh(said))).toBeVisible();
    await hydrated(page);
    const s = await texts(page);
    await expect(lookupForm(page, s).email, 'the contact is filled in').toHaveValue(email);
    await lookupByEmail(page, request, email, s);
    await expect(page).toHaveURL((u) => u.pathname === form.pathname && u.search === form.search);
  }

  test('the discount check and the pay button, 11 minutes and 3 hours after the proof: every typed field comes back, and the lookup says why', async ({ page, request }, info) => {
    test.setTimeout(90_000);
    const email = buyer('lapse');
    await verify(page, request, email, LIST);
    await openTicket(page, '全程通票 Full Pass');
    const form = new URL(page.url());
    await fillBuyer(page, 2, 'Lapsed Buyer');
    const f = page.locator('#ticket-form');
    await f.locator('[name="discountCode"]').fill('EARLY50');
    await f.locator('input[name="payType"][value="1"]').check();

    // The 10 minutes after the proof are over, the form's own window is not: the check answers at its field.
    await provedAgo(page, email, 11 * 60_000, info);
    await page.getByRole('button', { name: zh('ticket.discountCheck') }).click();
    await expect(page.locator('#discount-result')).toHaveText(zh('ticket.discountApplied').replace('{{price}}', '¥125.00'));
    await expectEveryField(page);

    // The form's window is over too: the check goes to the lookup, which says why; the new code leads back to everything typed.
    await provedAgo(page, email, 3 * 3600_000, info);
    await page.getByRole('button', { name: zh('ticket.discountCheck') }).click();
    await expect(page.getByText(zh('form.expired'))).toBeVisible();
    await proveAgain(page, request, email, form);
    await expectEveryField(page);

    // The same with the pay button.
    await provedAgo(page, email, 3 * 3600_000, info);
    await page.getByRole('button', { name: zh('order.pay') }).click();
    await proveAgain(page, request, email, form);
    await expectEveryField(page);
    await f.locator('input[name="payType"][value="2"]').check();
    await page.getByRole('button', { name: zh('order.pay') }).click();
    await expect(page).toHaveURL(/\/dev\/pay\/T\w+$/);
    await expect(page.locator('[data-total]')).toHaveText('25000');
  });

  test('opening the buyer form again after the proof ran out: the lookup says why, with the contact filled in, and the new code leads back', async ({ page, request }, info) => {
    const email = buyer('reopen');
    await verify(page, request, email, LIST);
    await openTicket(page, '全程通票 Full Pass');
    const form = new URL(page.url());
    await provedAgo(page, email, 3 * 3600_000, info);
    await page.reload();
    await proveAgain(page, request, email, form, 'search.proofExpired');
    await expect(page.locator('#ticket-form [name="uname"]')).toBeVisible();
  });

  test('reloading the buyer form after a refusal keeps every value (the form posts without a script, JavaScript on or off)', async ({ page, request }) => {
    await verify(page, request, buyer('reload'), LIST);
    await openTicket(page, '全程通票 Full Pass');
    await fillBuyer(page, 2, 'Lapsed Buyer');
    const f = page.locator('#ticket-form');
    await f.locator('[name="discountCode"]').fill('EARLY50');
    await f.locator('input[name="payType"][value="1"]').check();
    // an ID number the form refuses (a mainland ID card with a wrong check digit)
    await f.locator('[name="ucardid.type"]').selectOption('1');
    await f.locator('[name="ucardid"]').fill('110101199003070000');
    await page.getByRole('button', { name: zh('order.pay') }).click();
    await expect(page.getByText(zh('form.idNumberIllegal'))).toBeVisible();
    await page.reload();
    await expect(f.locator('[name="ucardid"]')).toHaveValue('110101199003070000');
    await f.locator('[name="ucardid.type"]').selectOption('2');
    await f.locator('[name="ucardid"]').fill('E12345678');
    await expectEveryField(page);
  });
});

test.describe('issue 30: the payment method of the browser the visitor is in', () => {
  const WECHAT_UA =
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36 MicroMessenger/8.0.47.2560(0x28002F35) NetType/WIFI Language/zh_CN';
  const ORDINARY_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36';
  test.use({ userAgent: WECHAT_UA });

  test("inside the messaging app the buyer form preselects its pay (payType 1); the same visitor in an ordinary browser, the payment app (2)", async ({ page, request, browser }, info) => {
    await verify(page, request, buyer('wechat'), LIST);
    await openTicket(page, '全程通票 Full Pass');
    const pay = (p: Page, n: 1 | 2) => p.locator(`#ticket-form input[name="payType"][value="${n}"]`);
    await expect(pay(page, 1)).toBeChecked();
    await expect(pay(page, 2)).not.toBeChecked();
    // (a context the test opens takes the file's options too: its user agent is set to an ordinary phone browser's)
    const plain = await browser.newContext({ userAgent: ORDINARY_UA, javaScriptEnabled: js(), extraHTTPHeaders: visitorHeaders(info, 1) });
    await plain.addCookies(await page.context().cookies());
    const other = await plain.newPage();
    await other.goto(page.url());
    await expect(pay(other, 2)).toBeChecked();
    await expect(pay(other, 1)).not.toBeChecked();
    await plain.close();
  });
});
