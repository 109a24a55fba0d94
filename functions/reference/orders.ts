/**
 * Orders of the reference upstream (docs/upstream.md "Tickets and orders"): rows, the wire record,
 * and the SQL every count shares. Stock, per-contact limits and discount uses are counted from
 * the orders themselves, so one conditional INSERT decides a purchase atomically (D1 runs one
 * statement at a time) and an unpaid order past its hold stops counting the moment it expires:
 * no sweep is needed for correctness (the Cron Trigger only writes status 4 down).
 */
import { OrderStatus, type Order, type Ticket } from '../../src/lib/contract';
import { CHECKOUT_HOLD_MINUTES, OPEN_ORDERS_PER_EXPO, OPEN_ORDERS_PER_TICKET, ORDER_HOLD_MINUTES } from './rules';
import type { AppEnv } from '../env';
import { expoLocalTime } from './expo';
import { COOLING, HOLD_COOLDOWN_MS, RELEASED_AT, type HoldCounts } from './holds';

/** A row of `orders`. */
export interface OrderRow {
  order_no: string;
  expo_id: number;
  urls_id: number;
  ticket_id: number;
  ticket_name: string;
  quantity: number;
  price: number;
  discount_code: string | null;
  total_fee: number;
  pay_type: number;
  status: number;
  contact_column: 'phone' | 'email';
  contact: string;
  form_values: string;
  idem: string | null;
  create_ms: number;
  expire_ms: number;
  pay_ms: number | null;
  pay_tx: string | null;
  return_url: string | null;
  refund_status: number | null;
  refund_reason: string | null;
  refund_apply_ms: number | null;
  refund_done_ms: number | null;
  /** 0005: the mailbox the contact reaches (contact.ts mailboxKey), what limits count by */
  contact_key: string | null;
  /** 0005: when the visitor first went to pay (doUnifiedOrder): spec §9's window starts here */
  pay_start_ms: number | null;
  /** 0005: paid after the hold ended: 1 honoured, 2 marked for automatic refund */
  late_payment: number | null;
  /** 0016: when a cancelled order stopped holding (the cooldown runs from here, holds.ts) */
  released_ms: number | null;
}

/** A row of `tickets` (0001 + 0002). */
export interface TicketRow {
  id: number;
  expo_id: number;
  urls_id: number;
  ticket_name: string;
  original_price: number;
  current_price: number;
  sold_count: number;
  sale_date: string | null;
  stock: number;
  sale_start: string | null;
  sale_end: string | null;
  limit_per_contact: number;
  need_review: number;
}

/**
 * An order that holds tickets (and a discount use) at `?now` (ms): unpaid within its hold,
 * pending review, paid, or refund applied. Use with the alias `o` and the parameter `?now`.
 */
export const HOLDING = `(o.status IN (1, 2, 5) OR (o.status = 0 AND o.expire_ms > ?now))`;

/** How long an unpaid order holds its tickets: spec §9's 30 minutes, or `REF_ORDER_HOLD_S` (tests). */
export function holdMs(env: Pick<AppEnv, 'REF_ORDER_HOLD_S'>): number {
  const raw = Number(env.REF_ORDER_HOLD_S ?? '');
  return Number.isFinite(raw) && raw > 0 && raw <= ORDER_HOLD_MINUTES * 60 ? raw * 1000 : ORDER_HOLD_MINUTES * 60_000;
}

/**
 * How long a new order holds its tickets before the visitor goes to pay: 10
 * minutes, or the whole hold when that is shorter. The edge asks for the cashier in the same
 * request that creates the order, so a buyer never waits on it; an order that never reaches
 * the cashier (a failed doUnifiedOrder, a script that only creates orders) lets go of its
 * tickets after this instead of spec §9's 30 minutes. Going to pay starts the 30 minutes.
 */
export const CHECKOUT_HOLD_MS = CHECKOUT_HOLD_MINUTES * 60_000;
export function checkoutHoldMs(env: Pick<AppEnv, 'REF_ORDER_HOLD_S'>): number {
  return Math.min(CHECKOUT_HOLD_MS, holdMs(env));
}

/** A count variable of the reference: a whole number from 1 to 100, else the default. */
function countVar(raw: string | undefined, fallback: number): number {
  const n = Number((raw ?? '').trim());
  return /^\d+$/.test((raw ?? '').trim()) && n >= 1 && n <= 100 ? n : fallback;
}

/**
 * Caps on open unpaid orders (docs/upstream.md "Open orders": without them one contact could
 * hold a ticket's whole stock with 100 unpaid orders): per contact (its mailbox, contact.ts mailboxKey) and expo, and per
 * contact and ticket. Checked inside the order's conditional INSERT, so parallel orders
 * cannot pass it together. Paid, cancelled and timed-out orders do not count.
 */
export function openOrderCaps(env: Pick<AppEnv, 'REF_OPEN_ORDERS_PER_CONTACT' | 'REF_OPEN_ORDERS_PER_TICKET'>): {
  perContact: number;
  perTicket: number;
} {
  return {
    perContact: countVar(env.REF_OPEN_ORDERS_PER_CONTACT, OPEN_ORDERS_PER_EXPO),
    perTicket: countVar(env.REF_OPEN_ORDERS_PER_TICKET, OPEN_ORDERS_PER_TICKET),
  };
}

/**
 * The mailbox an order counts for (alias `o`): its `contact_key` (0005), or for an order made
 * before that column existed its contact lower-cased.
 */
export const CONTACT_KEY = `coalesce(o.contact_key, lower(o.contact))`;

/** An unpaid order still in its hold (alias `o`, parameter `?now`): what the caps count. */
export const OPEN = `(o.status = 0 AND o.expire_ms > ?now)`;

/** The state an order reads as now (an unpaid one past its hold is timed out). */
export function statusAt(row: Pick<OrderRow, 'status' | 'expire_ms'>, now: number): number {
  return row.status === OrderStatus.UNPAID && row.expire_ms <= now ? OrderStatus.TIMED_OUT : row.status;
}

/** Tickets left of a ticket at `now`: -1 unlimited. */
export async function surplusOf(db: D1Database, ticket: TicketRow, now: number): Promise<number> {
  if (ticket.stock === 0) return -1;
  const held = await db
    .prepare(
      `SELECT coalesce(sum(o.quantity), 0) AS n FROM orders o WHERE o.ticket_id = ?1 AND ${HOLDING.replace('?now', '?2')}`,
    )
    .bind(ticket.id, now)
    .first<{ n: number }>();
  return Math.max(0, ticket.stock - ticket.sold_count - (held?.n ?? 0));
}

/** Tickets the contact's mailbox (mailboxKey) holds or has reserved in an expo (findUserBuyOrderNumByPhoneExpoId, limitPerContact). */
export async function heldByContact(db: D1Database, expoId: number, contactKey: string, now: number): Promise<number> {
  const row = await db
    .prepare(
      `SELECT coalesce(sum(o.quantity), 0) AS n FROM orders o WHERE o.expo_id = ?1 AND ${CONTACT_KEY} = ?2 AND ${HOLDING.replace('?now', '?3')}`,
    )
    .bind(expoId, contactKey, now)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/**
 * The counts the hold rules read (holds.ts) for one ticket and one contact's mailbox at `now`:
 * tickets taken (sold before plus every holding order), the contact's own unpaid holds, and when
 * its latest unpaid order of the ticket stopped holding within the cooldown (null: none did).
 */
export async function holdCountsOf(
  db: D1Database,
  ticket: TicketRow,
  contactKey: string,
  now: number,
): Promise<HoldCounts & { releasedMs: number | null }> {
  const row = await db
    .prepare(
      `SELECT
         (SELECT coalesce(sum(o.quantity), 0) FROM orders o WHERE o.ticket_id = ?1 AND ${HOLDING.replaceAll('?now', '?3')}) AS held,
         (SELECT coalesce(sum(o.quantity), 0) FROM orders o WHERE o.ticket_id = ?1 AND ${CONTACT_KEY} = ?2 AND ${OPEN.replaceAll('?now', '?3')}) AS mine,
         (SELECT max(${RELEASED_AT}) FROM orders o WHERE o.ticket_id = ?1 AND ${CONTACT_KEY} = ?2 AND ${COOLING.replaceAll('?now', '?3').replaceAll('?cut', '?4')}) AS released`,
    )
    .bind(ticket.id, contactKey, now, now - HOLD_COOLDOWN_MS)
    .first<{ held: number; mine: number; released: number | null }>();
  return {
    stock: ticket.stock,
    taken: ticket.sold_count + (row?.held ?? 0),
    mine: row?.mine ?? 0,
    releasedMs: row?.released ?? null,
  };
}

/** Uses left of a discount code: -1 unlimited; null when the code does not exist for the ticket. */
export async function usesLeft(
  db: D1Database,
  expoId: number,
  ticketId: number,
  code: string,
  now: number,
): Promise<{ price: number; left: number } | null> {
  const row = await db
    .prepare(
      `SELECT d.price, d.max_uses, d.used_before,
         (SELECT coalesce(sum(o.quantity), 0) FROM orders o WHERE o.ticket_id = d.ticket_id AND o.discount_code = d.code AND ${HOLDING.replace('?now', '?4')}) AS used
       FROM discount_codes d WHERE d.expo_id = ?1 AND d.ticket_id = ?2 AND d.code = ?3`,
    )
    .bind(expoId, ticketId, code, now)
    .first<{ price: number; max_uses: number; used_before: number; used: number }>();
  if (!row) return null;
  return { price: row.price, left: row.max_uses === 0 ? -1 : Math.max(0, row.max_uses - row.used_before - row.used) };
}

/** The wire ticket (selectUrlsTicketList): soldCount counts the seed's sales plus paid orders. */
export function toTicket(row: TicketRow, paid: number): Ticket {
  return {
    id: row.id,
    ticketName: row.ticket_name,
    originalPrice: row.original_price,
    currentPrice: row.current_price,
    soldCount: row.sold_count + paid,
    stock: row.stock,
    saleStart: row.sale_start ?? row.sale_date,
    saleEnd: row.sale_end,
    limitPerContact: row.limit_per_contact,
    needReview: row.need_review,
  };
}

/** The wire order (docs/upstream.md "An order"). */
export function toOrder(row: OrderRow, euCodes: string[], now: number, utcOffsetMinutes: number): Order {
  const local = (ms: number | null) => (ms === null ? null : expoLocalTime(ms, utcOffsetMinutes));
  return {
    orderNo: row.order_no,
    expoId: row.expo_id,
    ticketId: row.ticket_id,
    ticketName: row.ticket_name,
    quantity: row.quantity,
    price: row.price,
    discountCode: row.discount_code,
    totalFee: row.total_fee,
    payType: row.pay_type,
    status: statusAt(row, now),
    createTime: local(row.create_ms),
    expireTime: local(row.expire_ms),
    payTime: local(row.pay_ms),
    refund:
      row.refund_status === null
        ? null
        : {
            status: row.refund_status,
            reason: row.refund_reason,
            applyTime: local(row.refund_apply_ms),
            doneTime: local(row.refund_done_ms),
          },
    euCodes,
  };
}

/** One order with its registration codes; null when the expo has no such order. */
export async function findOrder(db: D1Database, expoId: number, orderNo: string): Promise<OrderRow | null> {
  return db.prepare('SELECT * FROM orders WHERE expo_id = ? AND order_no = ?').bind(expoId, orderNo).first<OrderRow>();
}

/** The class 8 registrations of orders, by order number. */
export async function codesOf(db: D1Database, orderNos: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (orderNos.length === 0) return out;
  const marks = orderNos.map(() => '?').join(',');
  const { results } = await db
    .prepare(`SELECT order_no, eu_code FROM registrations WHERE order_no IN (${marks}) ORDER BY id`)
    .bind(...orderNos)
    .all<{ order_no: string; eu_code: string }>();
  for (const r of results) out.set(r.order_no, [...(out.get(r.order_no) ?? []), r.eu_code]);
  return out;
}

/** A new order number: the expo-local date and 12 random base32 characters (unguessable). */
export function newOrderNo(now: number, utcOffsetMinutes: number): string {
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const date = expoLocalTime(now, utcOffsetMinutes).slice(0, 10).replace(/-/g, '');
  const rand = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => ALPHABET[b & 31] ?? 'A').join('');
  return `T${date}${rand}`;
}
