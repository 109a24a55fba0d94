/**
 * The payment methods' names (spec §1: two methods, a payment app and a messaging app's pay;
 * "details of payment: not shown"). Visitors look for the names they know ("支付宝", "微信支付"),
 * not for "payment app": when the organiser's config names a method (`customerWx.payName1` for
 * payType 1, `payName2` for payType 2; our reading, docs/upstream.md "Records"), the buyer form
 * and the order pages show that name, as the organiser wrote it, on every page language; without
 * one, the catalogue's generic name. Pure.
 */

/** The organiser's names by payType; null: the generic name. */
export interface PayNames {
  1: string | null;
  2: string | null;
}

/** The config fields read here. */
export interface PayNameConfig {
  payName1?: string | null | undefined;
  payName2?: string | null | undefined;
}

/** The longest name shown (a method's name, not a sentence). */
const MAX_NAME = 40;

/** A usable name: text of 1 to 40 characters without control characters, trimmed; else null. */
function nameOf(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const s = v.trim();
  return s !== '' && [...s].length <= MAX_NAME && !/[\u0000-\u001f\u007f]/.test(s) ? s : null;
}

/**
 * The organiser's payment method names.
 * @example payNames({ payName1: '微信支付', payName2: ' 支付宝 ' }) // { 1: '微信支付', 2: '支付宝' }
 * @example payNames(null) // { 1: null, 2: null }
 */
export function payNames(wx: PayNameConfig | null | undefined): PayNames {
  return { 1: nameOf(wx?.payName1), 2: nameOf(wx?.payName2) };
}

/** The catalogue's generic names by payType. */
export const GENERIC_PAY_KEYS = { 1: 'ticket.payMessaging', 2: 'ticket.payApp' } as const;

/**
 * The name a page shows for a payType: the organiser's, else the generic one in the page language;
 * '' for a payType that is neither.
 * @example payLabel(2, { 1: null, 2: '支付宝' }, t) // '支付宝'
 * @example payLabel(1, { 1: null, 2: null }, t) // t('ticket.payMessaging')
 */
export function payLabel(payType: number | null | undefined, names: PayNames, t: (key: 'ticket.payMessaging' | 'ticket.payApp') => string): string {
  if (payType !== 1 && payType !== 2) return '';
  return names[payType] ?? t(GENERIC_PAY_KEYS[payType]);
}
