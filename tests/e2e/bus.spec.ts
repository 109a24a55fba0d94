/**
 * The shuttle bus (spec §2.3 `/bus`, `/busInfo`) and the purchase entry (`/order`), with
 * JavaScript on and off (playwright.config.ts projects): credential → bus → reserve a seat →
 * busInfo → cancel, an incomplete legacy link answering a page (`@http`), and /order for a verified buyer
 * (an unverified visitor is sent to the lookup and comes back). axe on each new screen.
 *
 * The js and nojs runs may share a server and both use one@demo.test's registration: each run
 * reserves on its own line (one seat per line), so neither sees the other's refusal.
 */
import { expect } from '@playwright/test';
import { expectAxeClean } from './axe';
import { jsEnabled, LANG_COOKIE, PAGES, setLangCookie, t, test } from './fixtures';
import { eid, hydrated, lookupByEmail, openLookup, texts } from './lookup-helpers';

const en = (key: string, vars: Record<string, string | number> = {}) =>
  Object.entries(vars).reduce((s, [k, v]) => s.replace(`{{${k}}}`, String(v)), t('en', key));

test.beforeEach(async ({ context }, info) => {
  await setLangCookie(context, 'en', info);
});

test('credential → bus → reserve → busInfo → cancel', async ({ page, request, browser }, info) => {
  const [line, stop] = jsEnabled(info) ? ['地铁线 Metro line', '会展酒店 Expo Hotel'] : ['机场线 Airport line', '展馆北门 Hall north gate'];
  // The lookup (as a visitor does it) gives the credential and proves the contact.
  const s = await openLookup(page, PAGES.ieaeVisitor);
  await lookupByEmail(page, request, 'one@demo.test', s);
  await expect(page).toHaveURL(/\/IEAESuccess\//);
  await page.getByRole('link', { name: en('bus.link') }).click();
  await expect(page).toHaveURL(/\/bus\/[^/]+\/[^/]+\/MTMwOA\/21308\/100001$/);
  const busUrl = page.url();
  await expect(page.getByRole('heading', { level: 1, name: en('bus.title') })).toBeVisible();
  const section = page.locator('section.line').filter({ has: page.getByRole('heading', { level: 2, name: line }) });
  await expect(section.getByText(en('bus.seatsLeft', { n: 19 })).or(section.getByText(en('bus.seatsLeft', { n: 28 })))).toBeVisible();
  await expectAxeClean(page, browser, '/bus (owner)');

  await section.getByLabel(en('bus.stop')).selectOption({ label: stop });
  await section.getByRole('button', { name: `${en('bus.reserve')}: ${line}` }).click();
  await expect(page).toHaveURL((u) => u.pathname.startsWith('/busInfo/'));
  await expect(page.getByRole('heading', { level: 1, name: en('bus.infoTitle') })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: en('bus.reserved') })).toBeVisible();
  const seat = page.locator('.seat').filter({ hasText: line });
  await expect(seat.getByText(stop)).toBeVisible();
  await expect(seat.getByText('IWHBZIMYEOZETLFI')).toBeVisible();
  await expectAxeClean(page, browser, '/busInfo (owner)');

  await seat.getByRole('button', { name: new RegExp(`^${en('bus.cancel')}: ${line}`) }).click();
  await expect(page).toHaveURL(busUrl);
  await expect(page.getByRole('status').filter({ hasText: en('bus.cancelled') })).toBeVisible();
  await expect(section.getByRole('button', { name: `${en('bus.reserve')}: ${line}` })).toBeVisible();

});

test('an incomplete legacy link answers a page naming what it lacks, never a 404', { tag: '@http' }, async ({ request }) => {
  const cases: [string, number, string][] = [
    ['/bus', 400, en('bus.partEuCode')],
    [`/busInfo/MjEzMDg/SVdIQlpJTVlFT1pFVExGSQ/${eid(1308)}/21308`, 400, en('bus.partEuUserId')],
  ];
  for (const [path, status, names] of cases) {
    const res = await request.get(path, { headers: { cookie: `${LANG_COOKIE}=en` } });
    expect(res.status(), path).toBe(status);
    const html = await res.text();
    expect(html, path).toContain(names);
  }
  const res = await request.get(`/busInfo/MjEzMDg/SVdIQlpJTVlFT1pFVExGSQ/${eid(1308)}/21308`);
  expect(await res.text()).toContain('href="/IEAESearch/21308/MTMwOA/visitor"');
});

test('/order: an unverified visitor proves the contact and lands on the purchase entry', async ({ page, request, browser }) => {
  // Expo 1216 renders every page in Chinese (spec §4: languageType 1), whatever the cookie says.
  const zh = (key: string) => t('zh', key);
  const target = `/order/21216/${eid(1216)}/visitor`;
  await page.goto(target);
  await expect(page).toHaveURL((u) => u.pathname === `/search/21216/${eid(1216)}/visitor` && u.searchParams.get('next') === target);
  await hydrated(page);
  const buyer = `buyer-entry-${test.info().project.name}-${Date.now().toString(36)}@demo.test`;
  await lookupByEmail(page, request, buyer, await texts(page));
  await expect(page).toHaveURL((u) => `${u.pathname}${u.search}` === target);
  await expect(page.getByRole('heading', { level: 1, name: zh('bus.orderTitle') })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: zh('bus.orderMine') })).toBeVisible();
  await expect(page.getByText(zh('order.empty'))).toBeVisible();
  const onSale = page.locator('section').filter({ has: page.getByRole('heading', { level: 2, name: zh('bus.orderOnSale') }) });
  await expect(onSale.getByRole('link', { name: zh('ticket.buy') }).first()).toHaveAttribute('href', /^\/ticketForm\/21216\/MTIxNg\/visitor\?ticketId=\d+$/);
  await expectAxeClean(page, browser, '/order (verified buyer)');
});
