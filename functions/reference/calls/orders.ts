/**
 * The order calls of docs/upstream.md "Tickets and orders", "Payments" and "Open orders" on D1:
 * create, go to pay, read, list and cancel.
 *
 * Money is computed here only: the price comes from the ticket or the discount code, never
 * from the request. Stock, the per-contact limit and discount uses are one conditional INSERT
 * (orders.ts), so parallel orders for the last tickets never oversell.
 */
import { z } from 'zod';
import { TicketCode, OrderStatus } from '../../../src/lib/contract';
import { MAX_QUANTITY } from '../rules';
import { mailboxKey, normalizeEmail, normalizePhone } from '../contact';
import { RefCode, ok, reply } from '../envelope';
import type { AppEnv } from '../../env';
import { expoLocalTime } from '../expo';
import { DecimalId, FormValues, decryptValues, parseInput, readJsonBody } from '../inputs';
import { CONTACT_KEY, HOLDING, OPEN, checkoutHoldMs, codesOf, findOrder, heldByContact, holdCountsOf, holdMs, newOrderNo, openOrderCaps, statusAt, toOrder, usesLeft, type OrderRow } from '../orders';
import { COOLING, HOLD_COOLDOWN_MS, cooldownEnds, holdShareSql, mayHold, mayOrderNow, minutesUntil } from '../holds';

import { queriedContact, DiscountCode as Code, Encrypted, OrderBody, OrderNo, OrderQuery, PayType, sameExpo, ticketRow, type Ctx } from './order-inputs';

const CreateBody = z.object({
  expoId: DecimalId.optional(),
  urlsId: DecimalId,
  ticketId: DecimalId,
  quantity: z
    .union([
      z.number().int(),
      z
        .string()
        .regex(/^\d{1,3}$/)
        .transform(Number),
    ])
    .pipe(z.number().int().min(1).max(MAX_QUANTITY)),
  discountCode: z.union([Code, z.literal(''), z.null()]).optional(),
  payType: PayType,
  data: Encrypted,
});

/** The buyer's values: the registration form's (inputs.ts FormValues) plus the form's idempotency key. */
const BuyerValues = FormValues.and(
  z.object({
    idem: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{8,64}$/)
      .optional(),
  }),
);

/**
 * `POST /CustomerUserInfo/createOrderNew`: an unpaid order holding its tickets until
 * `expireTime` (spec §9). 20102 sold out, 20103 over the per-contact limit, 20101 code used up;
 * 20104 not on sale; 20107 an unpaid order still open; 20109 more than the contact's share of a
 * limited stock, 20110 its cooldown after letting an unpaid order of the ticket go (holds.ts).
 * A repeat of the same buyer form (its `idem` key) answers the same order.
 */
export async function createOrderNew(c: Ctx): Promise<Response> {
  const expo = c.var.expo;
  const db = c.env.DB;
  const body = parseInput(CreateBody, await readJsonBody(c.req.raw));
  if (!body.ok) return reply(c, RefCode.BAD_INPUT, body.msg);
  const bad = sameExpo(c, body.value.expoId);
  if (bad) return bad;
  const { urlsId, ticketId, quantity, payType } = body.value;
  const code = body.value.discountCode ? body.value.discountCode : null;

  const values = await decryptValues(body.value.data, expo.aes_key, BuyerValues);
  if (!values.ok) return reply(c, RefCode.BAD_INPUT, values.msg);
  const v = values.value;
  // Whose order this is: the contact the edge verified (checkType), as addUserInfo decides it.
  const column: 'phone' | 'email' =
    v.checkType === 1 ? 'phone' : v.checkType === 2 ? 'email' : v.email ? 'email' : 'phone';
  const rawContact =
    column === 'phone'
      ? v.phone && !v.phone.startsWith('+') && v.areaCode
        ? `${v.areaCode}${v.phone}`
        : (v.phone ?? '')
      : (v.email ?? '');
  const contact = column === 'phone' ? normalizePhone(rawContact) : normalizeEmail(rawContact);
  if (!contact) return reply(c, RefCode.BAD_INPUT, `bad input: the verified ${column} is missing or malformed in data`);
  // What limits count by: the mailbox (`a+1@x` and `a+2@x` are one person; contact.ts mailboxKey).
  const key = mailboxKey(contact) ?? contact;
  const caps = openOrderCaps(c.env);
  const idem = v.idem ?? null;

  const ticket = await ticketRow(db, expo.id, ticketId);
  if (!ticket || ticket.urls_id !== urlsId) return reply(c, RefCode.NOT_FOUND, 'no such ticket for this customer url');
  const now = Date.now();

  // The same buyer form again: the order it made (a double submit is not a second order).
  const again = async (): Promise<Response | null> => {
    if (idem === null) return null;
    const row = await db
      .prepare('SELECT * FROM orders WHERE expo_id = ? AND contact = ? AND idem = ?')
      .bind(expo.id, contact, idem)
      .first<OrderRow>();
    return row ? ok(c, created(row, expo.utc_offset_minutes)) : null;
  };
  const before = await again();
  if (before) return before;

  const local = expoLocalTime(now, expo.utc_offset_minutes);
  const start = ticket.sale_start ?? ticket.sale_date;
  if ((start && local < start) || (ticket.sale_end && local > ticket.sale_end)) {
    return reply(c, TicketCode.NOT_ON_SALE, 'this ticket is not on sale now');
  }
  let price = ticket.current_price;
  if (code !== null) {
    const d = await usesLeft(db, expo.id, ticketId, code, now);
    if (!d) return reply(c, RefCode.NOT_FOUND, 'no such discount code for this ticket');
    price = d.price;
  }
  const total = price * quantity;
  if (!Number.isSafeInteger(total)) return reply(c, RefCode.BAD_INPUT, 'bad input: the total is out of range');

  const orderNo = newOrderNo(now, expo.utc_offset_minutes);
  const { checkType: _ct, idem: _idem, update: _u, userId: _uid, euCode: _e, ...kept } = v;
  // One statement: the order exists only if stock, the contact's limit, the code's uses, the
  // caps on open unpaid orders, the contact's share of a limited stock and its cooldown after
  // an unpaid order let go (holds.ts) all allow it at this instant. ?9 = now, ?18 = now − cooldown.
  // The hold starts short (the checkout hold); going to pay starts spec §9's 30 minutes.
  const hold = HOLDING.replaceAll('?now', '?9');
  const open = OPEN.replaceAll('?now', '?9');
  const cooling = COOLING.replaceAll('?now', '?9').replaceAll('?cut', '?18');
  const row = await db
    .prepare(
      `INSERT INTO orders (order_no, expo_id, urls_id, ticket_id, ticket_name, quantity, price, discount_code, total_fee, pay_type, status,
         contact_column, contact, form_values, idem, create_ms, expire_ms, contact_key)
       SELECT ?1, t.expo_id, t.urls_id, t.id, t.ticket_name, ?2, ?3, ?4, ?5, ?6, 0, ?7, ?8, ?10, ?11, ?9, ?12, ?15
       FROM tickets t
       WHERE t.id = ?13 AND t.expo_id = ?14
         AND (t.stock = 0 OR t.stock - t.sold_count - (SELECT coalesce(sum(o.quantity), 0) FROM orders o WHERE o.ticket_id = t.id AND ${hold}) >= ?2)
         AND (t.limit_per_contact = 0 OR (SELECT coalesce(sum(o.quantity), 0) FROM orders o WHERE o.expo_id = t.expo_id AND ${CONTACT_KEY} = ?15 AND ${hold}) + ?2 <= t.limit_per_contact)
         AND (?4 IS NULL OR EXISTS (SELECT 1 FROM discount_codes d WHERE d.expo_id = t.expo_id AND d.ticket_id = t.id AND d.code = ?4
               AND (d.max_uses = 0 OR d.max_uses - d.used_before - (SELECT coalesce(sum(o.quantity), 0) FROM orders o WHERE o.ticket_id = t.id AND o.discount_code = ?4 AND ${hold}) >= ?2)))
         AND (SELECT count(*) FROM orders o WHERE o.expo_id = t.expo_id AND ${CONTACT_KEY} = ?15 AND ${open}) < ?16
         AND (SELECT count(*) FROM orders o WHERE o.ticket_id = t.id AND ${CONTACT_KEY} = ?15 AND ${open}) < ?17
         AND (t.stock = 0 OR NOT EXISTS (SELECT 1 FROM orders o WHERE o.ticket_id = t.id AND ${CONTACT_KEY} = ?15 AND ${cooling}))
         AND (t.stock = 0 OR EXISTS (
               SELECT 1 FROM (SELECT coalesce(sum(o.quantity), 0) AS held,
                                     coalesce(sum(CASE WHEN ${CONTACT_KEY} = ?15 AND ${open} THEN o.quantity ELSE 0 END), 0) AS mine
                              FROM orders o WHERE o.ticket_id = ?13 AND ${hold}) h
               WHERE h.mine + ?2 <= ${holdShareSql('t.stock - t.sold_count - h.held + h.mine')}))
       ON CONFLICT DO NOTHING
       RETURNING *`,
    )
    .bind(
      orderNo,
      quantity,
      price,
      code,
      total,
      payType,
      column,
      contact,
      now,
      JSON.stringify(kept),
      idem,
      now + checkoutHoldMs(c.env),
      ticketId,
      expo.id,
      key,
      caps.perContact,
      caps.perTicket,
      now - HOLD_COOLDOWN_MS,
    )
    .first<OrderRow>();
  if (row) return ok(c, created(row, expo.utc_offset_minutes));

  // Refused (or a parallel twin of the same form won): say which condition failed.
  const twin = await again();
  if (twin) return twin;
  if (code !== null) {
    const d = await usesLeft(db, expo.id, ticketId, code, now);
    if (d && d.left !== -1 && d.left < quantity)
      return reply(c, TicketCode.DISCOUNT_USED_UP, 'not available enough times');
  }
  if (
    ticket.limit_per_contact > 0 &&
    (await heldByContact(db, expo.id, key, now)) + quantity > ticket.limit_per_contact
  ) {
    return reply(c, TicketCode.OVER_LIMIT, `at most ${ticket.limit_per_contact} tickets per contact`);
  }
  const openNow = await db
    .prepare(
      `SELECT count(*) AS n, coalesce(sum(o.ticket_id = ?3), 0) AS here FROM orders o WHERE o.expo_id = ?1 AND ${CONTACT_KEY} = ?2 AND ${OPEN.replace('?now', '?4')}`,
    )
    .bind(expo.id, key, ticketId, now)
    .first<{ n: number; here: number }>();
  if ((openNow?.n ?? 0) >= caps.perContact || (openNow?.here ?? 0) >= caps.perTicket) {
    return reply(c, TicketCode.OPEN_ORDERS, 'an unpaid order of this contact is still open: pay or cancel it first');
  }
  if (ticket.stock > 0) {
    const counts = await holdCountsOf(db, ticket, key, now);
    const ends = cooldownEnds(counts.releasedMs, now);
    if (ends !== null) {
      return reply(
        c,
        TicketCode.HOLD_COOLDOWN,
        `an unpaid order of this ticket was let go a moment ago: this contact may order it again in ${minutesUntil(ends, now)} min`,
      );
    }
    // Enough left for the order, but more than this contact may hold unpaid.
    if (counts.stock - counts.taken >= quantity && mayOrderNow(counts) < quantity) {
      return reply(
        c,
        TicketCode.HOLD_SHARE,
        `few tickets are left: one contact may hold at most ${mayHold(counts)} of them unpaid; order fewer, or pay first`,
      );
    }
  }
  return reply(c, TicketCode.SOLD_OUT, 'sold out');
}

function created(row: OrderRow, offset: number): { orderNo: string; totalFee: number; expireTime: string } {
  return { orderNo: row.order_no, totalFee: row.total_fee, expireTime: expoLocalTime(row.expire_ms, offset) };
}

const UnifiedBody = z.object({
  expoId: DecimalId.optional(),
  orderNo: OrderNo,
  payType: PayType,
  returnUrl: z.string().trim().max(1024),
  openId: z.string().trim().max(128).optional(),
});

/** A same-site path (one `/`, then neither `/` nor `\`). */
export function isSitePath(p: string): boolean {
  return /^\/(?![/\\])[^\s]*$/.test(p) && !/[\u0000-\u001f]/.test(p);
}

/**
 * Where a cashier may send the buyer back: the site's absolute http(s) URL,
 * as the edge sends it (a provider on its own host needs the whole URL), or a path of the site
 * (older callers). Anything else (another scheme, credentials in the URL, spaces) is refused.
 */
export function isReturnUrl(p: string): boolean {
  if (isSitePath(p)) return true;
  if (/[\s\u0000-\u001f]/.test(p)) return false;
  try {
    const u = new URL(p);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.username === '' && u.password === '';
  } catch {
    return false;
  }
}

/**
 * The cashier's URL for an order: the simulator's `/dev/pay/{orderNo}` on this Worker, or with
 * `REF_CASHIER_URL` a provider's page on another origin (tests/e2e/fake-cashier.ts), given the
 * order, the amount and where to return (a provider learns these from the merchant's unified
 * order call; ours carries them in the URL).
 */
export function cashierUrl(
  env: Pick<AppEnv, 'REF_CASHIER_URL'>,
  o: { expoId: number; orderNo: string; totalFee: number; returnUrl: string },
): string {
  const base = (env.REF_CASHIER_URL ?? '').trim();
  if (base === '') return `/dev/pay/${encodeURIComponent(o.orderNo)}`;
  const u = new URL(`${base.replace(/\/+$/, '')}/${encodeURIComponent(o.orderNo)}`);
  u.searchParams.set('expoId', String(o.expoId));
  u.searchParams.set('totalFee', String(o.totalFee));
  u.searchParams.set('returnUrl', o.returnUrl);
  return u.href;
}

/**
 * `POST /customFrom/doUnifiedOrder`: the provider's cashier for an unpaid order in its hold.
 * The reference's provider is its payment simulator (pay-simulator.ts): `payUrl` is
 * `/dev/pay/{orderNo}` on this Worker; inside the messaging app (payType 1 with an openId) it
 * answers simulated `jsapi` parameters; with `REF_CASHIER_URL`, a provider's page on another
 * origin. `returnUrl` is the site's absolute URL (or a path of it). The first call starts the
 * 30-minute payment window of spec §9.
 */
export async function doUnifiedOrder(c: Ctx): Promise<Response> {
  const body = parseInput(UnifiedBody, await readJsonBody(c.req.raw));
  if (!body.ok) return reply(c, RefCode.BAD_INPUT, body.msg);
  const bad = sameExpo(c, body.value.expoId);
  if (bad) return bad;
  const { orderNo, payType, returnUrl, openId } = body.value;
  if (!isReturnUrl(returnUrl))
    return reply(c, RefCode.BAD_INPUT, 'bad input: returnUrl must be an http(s) URL or a path of this site');
  const db = c.env.DB;
  const now = Date.now();
  const row = await findOrder(db, c.var.expo.id, orderNo);
  if (!row) return reply(c, RefCode.NOT_FOUND, 'no such order');
  if (statusAt(row, now) !== OrderStatus.UNPAID)
    return reply(c, TicketCode.WRONG_STATE, 'this order cannot be paid now');
  // The visitor goes to pay: spec §9's 30-minute window starts now, once (a second call to the
  // cashier does not renew it). SET reads the old pay_start_ms.
  const started = await db
    .prepare(
      `UPDATE orders SET return_url = ?1, pay_type = ?2, pay_start_ms = coalesce(pay_start_ms, ?4),
         expire_ms = CASE WHEN pay_start_ms IS NULL THEN ?4 + ?5 ELSE expire_ms END
       WHERE order_no = ?3 AND status = 0 AND expire_ms > ?4`,
    )
    .bind(returnUrl, payType, orderNo, now, holdMs(c.env))
    .run();
  if (started.meta.changes !== 1) return reply(c, TicketCode.WRONG_STATE, 'this order cannot be paid now');
  if (payType === 1 && openId) {
    const timeStamp = String(Math.floor(now / 1000));
    const nonceStr = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join(
      '',
    );
    return ok(c, {
      jsapi: {
        appId: 'wx-simulator',
        timeStamp,
        nonceStr,
        package: `prepay_id=sim_${orderNo}`,
        signType: 'HMAC-SHA256',
        paySign: 'simulated',
      },
    });
  }
  return ok(c, {
    payUrl: cashierUrl(c.env, { expoId: row.expo_id, orderNo, totalFee: row.total_fee, returnUrl }),
  });
}


/** `GET /customFrom/getOrderStatus`: one order. */
export async function getOrderStatus(c: Ctx): Promise<Response> {
  const q = parseInput(OrderQuery, c.req.query());
  if (!q.ok) return reply(c, RefCode.BAD_INPUT, q.msg);
  const bad = sameExpo(c, q.value.expoId);
  if (bad) return bad;
  const row = await findOrder(c.env.DB, c.var.expo.id, q.value.orderNo);
  if (!row) return reply(c, RefCode.NOT_FOUND, 'no such order');
  const codes = await codesOf(c.env.DB, [row.order_no]);
  return ok(c, toOrder(row, codes.get(row.order_no) ?? [], Date.now(), c.var.expo.utc_offset_minutes));
}

/** `GET /customFrom/findOrderListByPhone`: the contact's orders, newest first. */
export async function findOrderListByPhone(c: Ctx): Promise<Response> {
  const contact = queriedContact(c);
  if (typeof contact !== 'string') return contact;
  const { results } = await c.env.DB.prepare(
    'SELECT * FROM orders WHERE expo_id = ? AND contact = ? ORDER BY create_ms DESC, order_no DESC LIMIT 100',
  )
    .bind(c.var.expo.id, contact)
    .all<OrderRow>();
  const codes = await codesOf(
    c.env.DB,
    results.map((r) => r.order_no),
  );
  const now = Date.now();
  return ok(
    c,
    results.map((r) => toOrder(r, codes.get(r.order_no) ?? [], now, c.var.expo.utc_offset_minutes)),
  );
}

/** `POST /customFrom/deleteOrderById`: cancels an unpaid order in its hold; its tickets are free again. */
export async function deleteOrderById(c: Ctx): Promise<Response> {
  const body = parseInput(OrderBody, await readJsonBody(c.req.raw));
  if (!body.ok) return reply(c, RefCode.BAD_INPUT, body.msg);
  const bad = sameExpo(c, body.value.expoId);
  if (bad) return bad;
  const res = await c.env.DB.prepare(
    'UPDATE orders SET status = 3, released_ms = ?3 WHERE expo_id = ?1 AND order_no = ?2 AND status = 0 AND expire_ms > ?3',
  )
    .bind(c.var.expo.id, body.value.orderNo, Date.now())
    .run();
  if (res.meta.changes === 1) return ok(c, null);
  const row = await findOrder(c.env.DB, c.var.expo.id, body.value.orderNo);
  return row
    ? reply(c, TicketCode.WRONG_STATE, 'only an unpaid order can be cancelled')
    : reply(c, RefCode.NOT_FOUND, 'no such order');
}

