/**
 * The total the buyer form shows above its pay button (spec §3 ticket labels "quantity",
 * "discount code", "total fee"): quantity × price, less the checked discount, computed on the
 * server for the quantity and the discount the page shows, and again in the browser when the
 * quantity changes (src/scripts/order-total.ts). It tells the visitor what they will pay; the
 * upstream still computes the order's real total (createOrderNew's `totalFee`). Pure.
 */

/** The parts of a total, in minor units. */
export interface OrderTotal {
  quantity: number;
  /** the ticket's price per ticket */
  unit: number;
  /** the price per ticket with the checked discount code, or null without one */
  discountUnit: number | null;
  /** quantity × unit */
  gross: number;
  /** what the code takes off the gross (0 without one, never below 0) */
  discount: number;
  /** gross − discount */
  total: number;
}

/**
 * The total of `quantity` tickets at `unit`, with a discount price per ticket when one was checked
 * (docs/upstream.md selectDiscountTicketByCode: "the price per ticket with the code"). A discount
 * price above the ticket's price takes nothing off.
 * @example orderTotal(2, 25000, 12500) // { quantity: 2, unit: 25000, discountUnit: 12500, gross: 50000, discount: 25000, total: 25000 }
 * @example orderTotal(3, 8000, null).total // 24000
 */
export function orderTotal(quantity: number, unit: number, discountUnit: number | null): OrderTotal {
  const q = Number.isSafeInteger(quantity) && quantity > 0 ? quantity : 1;
  const gross = q * unit;
  const each = discountUnit === null ? unit : Math.min(unit, Math.max(0, discountUnit));
  const total = q * each;
  return { quantity: q, unit, discountUnit, gross, discount: gross - total, total };
}

/** The two sentences of a total in the page language: with and without a discount. */
export interface TotalTemplates {
  /** `{{quantity}} × {{price}} = {{total}}` */
  plain: string;
  /** `{{quantity}} × {{price}} − {{discount}} = {{total}}` */
  discounted: string;
}

/**
 * The total as the page writes it, prices formatted by `money` (the page language, the expo's
 * currency: src/lib/tickets/money.ts formatPrice).
 * @example totalText(orderTotal(2, 8000, null), (v) => `¥${v / 100}`, { plain: 'Total: {{quantity}} × {{price}} = {{total}}', discounted: '' }) // 'Total: 2 × ¥80 = ¥160'
 */
export function totalText(t: OrderTotal, money: (minor: number) => string, templates: TotalTemplates): string {
  const vars: Record<string, string> = { quantity: String(t.quantity), price: money(t.unit), discount: money(t.discount), total: money(t.total) };
  const template = t.discount > 0 ? templates.discounted : templates.plain;
  return template.replace(/\{\{(\w+)\}\}/g, (all, name: string) => vars[name] ?? all);
}
