/**
 * Orders of the reference upstream (UPSTREAM.md "Tickets and orders"): rows, the wire record,
 * and the SQL every count shares. Stock, per-contact limits and discount uses are counted from
 * the orders themselves, so one conditional INSERT decides a purchase atomically (D1 runs one
 * statement at a time) and an unpaid order past its hold stops counting the moment it expires:
 * no sweep is needed for correctness (the Cron Trigger only writes status 4 down).
 */
import type { Order, Ticket } from '../../src/lib/tickets';
import { OrderStatus, ORDER_HOLD_MINUTES } from '../../src/lib/tickets';
import type { AppEnv } from '../env';
import { expoLocalTime } from './expo';

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

/** Tickets the contact holds or has reserved in an expo (findUserBuyOrderNumByPhoneExpoId, limitPerContact). */
export async function heldByContact(db: D1Database, expoId: number, contact: string, now: number): Promise<number> {
  const row = await db
    .prepare(
      `SELECT coalesce(sum(o.quantity), 0) AS n FROM orders o WHERE o.expo_id = ?1 AND o.contact = ?2 AND ${HOLDING.replace('?now', '?3')}`,
    )
    .bind(expoId, contact, now)
    .first<{ n: number }>();
  return row?.n ?? 0;
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

/** The wire order (UPSTREAM.md "An order"). */
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
