/** The buyer form of expo 1216's ticket pages, filled as a buyer does (the verified e-mail is filled in and locked). */
import type { Page } from '@playwright/test';

/** Fills 1216's buyer form; `uname` names the buyer so each spec's orders are told apart. */
export async function fillBuyer(page: Page, quantity: number, uname = 'Ticket Buyer'): Promise<void> {
  const form = page.locator('#ticket-form');
  await form.locator('[name="uname"]').fill(uname);
  await form.locator('[name="ucompany"]').fill('Demo Co.');
  await form.locator('[name="ucardid.type"]').selectOption('2');
  await form.locator('[name="ucardid"]').fill('E12345678');
  await form.locator('[name="industry"]').selectOption('Trade');
  await form.locator('[name="purpose.0"]').check();
  await form.locator('[name="privacy"]').check();
  await form.locator('[name="quantity"]').selectOption(String(quantity));
}
