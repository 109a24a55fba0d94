/**
 * Tickets and orders in the product's own words (docs/upstream.md "Tickets and orders"; spec §3
 * ticket labels, §4 order states, §5 discount message, §9 the 30-minute window) and the rules
 * the pages and the edge API apply to them. The shapes are the contract's (src/lib/contract/ticket-shapes.ts;
 * its wire schemas read replies into them). Pure: no framework, no zod (islands may import this file).
 */

// The organiser's ticket shapes are declared with the contract (src/lib/contract/ticket-shapes.ts),
// below every folder of src/lib (type-only: no zod reaches a bundle).
import type { Order, Refund, RefundWindow, Ticket } from '../contract/ticket-shapes';
export type { Order, Refund, RefundWindow, Ticket };

/** Reply codes of this part (docs/upstream.md "Tickets and orders"). */
export const TicketCode = {
  /** the discount code is used up (spec §5 'not available enough times') */
  DISCOUNT_USED_UP: 20101,
  SOLD_OUT: 20102,
  /** over `limitPerContact` */
  OVER_LIMIT: 20103,
  /** the contact has as many unpaid orders open as it may (README "Tickets and orders") */
  OPEN_ORDERS: 20107,
  /** more than one contact may hold unpaid of what is left of a ticket; `msg` "… at most N …" (docs/upstream.md "Open orders", our reading) */
  HOLD_SHARE: 20109,
  /** the contact let an unpaid order of this ticket go a moment ago; `msg` "… in N min" (docs/upstream.md "Open orders", our reading) */
  HOLD_COOLDOWN: 20110,
} as const;

/**
 * docs/upstream.md "Open orders" (our reading): how long a contact waits after letting an unpaid
 * order of a ticket go, said when a refusal gives no number (as a send refusal without its wait
 * says spec §9's 60 s).
 */
export const HOLD_COOLDOWN_MINUTES = 15;

/**
 * The number a hold refusal (20109, 20110) carries in its `msg`: "at most N", "in N min";
 * null when there is none.
 * @example holdRefusalNumber(20109, 'few tickets are left: one contact may hold at most 2 of them unpaid') // 2
 * @example holdRefusalNumber(20110, 'may order it again in 14 min') // 14
 */
export function holdRefusalNumber(code: number, msg: string | null | undefined): number | null {
  const said = msg ?? '';
  const m = code === TicketCode.HOLD_SHARE ? /at most\s+(\d{1,4})\b/i.exec(said) : code === TicketCode.HOLD_COOLDOWN ? /\bin\s+(\d{1,4})\s*min/i.exec(said) : null;
  const n = Number(m?.[1] ?? NaN);
  return Number.isInteger(n) && n > 0 ? n : null;
}

/** spec §9: unpaid orders are kept 30 minutes. */
export const ORDER_HOLD_MINUTES = 30;




/** Order states (docs/upstream.md; spec §4). */
export const OrderStatus = {
  UNPAID: 0,
  PENDING_REVIEW: 1,
  PAID: 2,
  CANCELLED: 3,
  TIMED_OUT: 4,
  REFUND_APPLIED: 5,
  REFUNDED: 6,
} as const;

const STATUS_KEYS: Readonly<Record<number, string>> = {
  0: 'order.unpaid',
  1: 'order.pendingReview',
  2: 'order.paid',
  3: 'order.cancelled',
  4: 'order.timedOut',
  5: 'order.refundApplied',
  6: 'order.refunded',
};

/**
 * The catalogue key of an order's state (spec §4 labels); an unknown state reads as unknown,
 * never as paid.
 * @example orderStatusKey(5) // 'order.refundApplied'
 */
export function orderStatusKey(status: number | null): string {
  return (status !== null && STATUS_KEYS[status]) || 'order.unknown';
}

/** "YYYY-MM-DD HH:mm:ss" expo-local → ms since epoch; null when it is not that. */
export function expoLocalMs(text: string | null | undefined, utcOffsetMinutes: number): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(text?.trim() ?? '');
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  if (back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  return ms - utcOffsetMinutes * 60_000;
}

/** ms since epoch → "YYYY-MM-DD HH:mm:ss" expo-local. */
export function expoLocalText(ms: number, utcOffsetMinutes: number): string {
  return new Date(ms + utcOffsetMinutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * Seconds left of an unpaid order's hold (spec §9); 0 when expired or unknown.
 * @example holdSecondsLeft({ status: 0, expireTime: '2026-01-01 08:30:00' }, Date.UTC(2026, 0, 1, 0, 0, 0), 480) // 1800
 */
export function holdSecondsLeft(
  order: Pick<Order, 'status' | 'expireTime'>,
  now: number,
  utcOffsetMinutes: number,
): number {
  if (order.status !== OrderStatus.UNPAID) return 0;
  const end = expoLocalMs(order.expireTime, utcOffsetMinutes);
  return end === null ? 0 : Math.max(0, Math.floor((end - now) / 1000));
}

/**
 * The state the visitor sees: an unpaid order past its hold is timed out, whatever a stale
 * reply says (docs/upstream.md: "An unpaid order past expireTime reads as timed out").
 */
export function effectiveStatus(
  order: Pick<Order, 'status' | 'expireTime'>,
  now: number,
  utcOffsetMinutes: number,
): number | null {
  if (order.status === OrderStatus.UNPAID && holdSecondsLeft(order, now, utcOffsetMinutes) === 0)
    return OrderStatus.TIMED_OUT;
  return order.status;
}

/** States that still wait for the buyer or the organiser (spec §4 order states): unpaid in its hold, awaiting review, a refund applied for. */
const OPEN_STATES: ReadonlySet<number> = new Set([OrderStatus.UNPAID, OrderStatus.PENDING_REVIEW, OrderStatus.REFUND_APPLIED]);

/**
 * Whether an order is still open (its state now, see {@link effectiveStatus}).
 * @example isOpenOrder({ status: 1, expireTime: null }, 0, 480) // true
 */
export function isOpenOrder(order: Pick<Order, 'status' | 'expireTime'>, now: number, utcOffsetMinutes: number): boolean {
  const status = effectiveStatus(order, now, utcOffsetMinutes);
  return status !== null && OPEN_STATES.has(status);
}

/**
 * The orders with the open ones first, each group in the order given (the upstream's: newest first).
 * @example openFirst([paid, unpaid], now, 480) // [unpaid, paid]
 */
export function openFirst<O extends Pick<Order, 'status' | 'expireTime'>>(orders: readonly O[], now: number, utcOffsetMinutes: number): O[] {
  const open = orders.filter((o) => isOpenOrder(o, now, utcOffsetMinutes));
  return [...open, ...orders.filter((o) => !open.includes(o))];
}

/** Minutes and seconds, e.g. `29:05`. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}


/** What an order allows (docs/upstream.md: deleteOrderById, WxRefundJSAPIByOrderNo, cancelRefundByOrderNo; doUnifiedOrder again). */
export interface OrderActions {
  /** unpaid, in the window */
  pay: boolean;
  /** unpaid, in the window */
  cancel: boolean;
  /** paid, refunds open, before the deadline (a used ticket is the upstream's to refuse) */
  refund: boolean;
  /** refund applied */
  cancelRefund: boolean;
}

/** Which actions an order allows now. */
export function orderActions(
  order: Pick<Order, 'status' | 'expireTime'>,
  refund: RefundWindow | null,
  now: number,
  utcOffsetMinutes: number,
): OrderActions {
  const status = effectiveStatus(order, now, utcOffsetMinutes);
  const unpaid = status === OrderStatus.UNPAID;
  const deadline = expoLocalMs(refund?.deadline, utcOffsetMinutes);
  const refundOpen = refund?.open === true && (deadline === null || now <= deadline);
  return {
    pay: unpaid,
    cancel: unpaid,
    refund: status === OrderStatus.PAID && refundOpen,
    cancelRefund: status === OrderStatus.REFUND_APPLIED,
  };
}

/** Where a ticket stands for sale (spec §3 'sold out', the list's 'not yet on sale'). */
export type SaleState = 'on-sale' | 'sold-out' | 'not-yet' | 'ended';

/**
 * A ticket's sale state. `surplus` (checkSurplusTicket: left, -1 unlimited) is more exact than
 * the list's counts (it knows the holds); without it, `stock` and `soldCount` decide.
 */
export function saleState(
  ticket: Pick<Ticket, 'saleStart' | 'saleEnd' | 'stock' | 'soldCount'>,
  now: number,
  utcOffsetMinutes: number,
  surplus: number | null = null,
): SaleState {
  const start = expoLocalMs(ticket.saleStart, utcOffsetMinutes);
  const end = expoLocalMs(ticket.saleEnd, utcOffsetMinutes);
  if (start !== null && now < start) return 'not-yet';
  if (end !== null && now > end) return 'ended';
  if (surplus !== null) return surplus === 0 ? 'sold-out' : 'on-sale';
  const stock = ticket.stock ?? 0;
  return stock > 0 && (ticket.soldCount ?? 0) >= stock ? 'sold-out' : 'on-sale';
}

/** The catalogue key of a sale state. */
export const SALE_STATE_KEYS: Readonly<Record<SaleState, string>> = {
  'on-sale': 'ticket.onSale',
  'sold-out': 'ticket.soldOut',
  'not-yet': 'ticket.notYet',
  ended: 'ticket.saleEnded',
};

/** Most tickets one order takes (the buyer form's quantity field). */
export const MAX_QUANTITY = 20;

/** An order number as the edge accepts it in a URL or a post. */
export const ORDER_NO = /^[A-Za-z0-9_-]{6,64}$/;
/** A discount code as the edge accepts it. */
export const DISCOUNT_CODE = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * Whether an order's tickets admit anyone: only a paid order's. A refund
 * applied for (5) or done (6) voids them: the pages show no QR code for them.
 */
export function ticketsAdmit(status: number | null): boolean {
  return status === OrderStatus.PAID;
}

/** What an order's page says about its money beyond its state. */
export type OrderMoneyNotice = 'order.ticketsVoided' | 'order.lateRefund';

/**
 * The notice of an order, or null: its tickets are void (refund applied for or done), or its
 * payment arrived after the hold ended with no ticket left and is being refunded (timed out,
 * with a refund applied for).
 */
export function orderMoneyNotice(
  order: Pick<Order, 'refund' | 'euCodes'>,
  status: number | null,
): OrderMoneyNotice | null {
  if ((status === OrderStatus.REFUND_APPLIED || status === OrderStatus.REFUNDED) && order.euCodes.length > 0)
    return 'order.ticketsVoided';
  if (status === OrderStatus.TIMED_OUT && order.refund !== null && order.refund.status === 0) return 'order.lateRefund';
  return null;
}
