/**
 * The calls of docs/upstream.md "Tickets and orders" on D1. Every handler reads its
 * input through a schema, answers the envelope, and trusts the edge for the contact it sends
 * (docs/upstream.md "Seats, tickets, orders": the edge sends only a contact it verified).
 *
 * Money is computed here only: the price comes from the ticket or the discount code, never
 * from the request. Stock, the per-contact limit and discount uses are one conditional INSERT
 * (orders.ts), so parallel orders for the last tickets never oversell.
 */
import type { Context } from 'hono';
import { z } from 'zod';
import { encryptJson } from '../../upstream/aes';
import { TicketCode, MAX_QUANTITY, OrderStatus } from '../../../src/lib/tickets/tickets';
import { mailboxKey, normalizeEmail, normalizePhone } from '../contact';
import { RefCode, ok, reply } from '../envelope';
import type { AppEnv } from '../../env';
import { expoLocalTime, parseExpoId, type RefEnv } from '../expo';
import { DecimalId, FormValues, decryptParam, parseInput, readJsonBody } from '../inputs';
import {
  CONTACT_KEY,
  HOLDING,
  OPEN,
  checkoutHoldMs,
  codesOf,
  findOrder,
  heldByContact,
  holdMs,
  newOrderNo,
  openOrderCaps,
  statusAt,
  surplusOf,
  toOrder,
  toTicket,
  usesLeft,
  type OrderRow,
  type TicketRow,
} from '../orders';

type Ctx = Context<RefEnv>;

/** Codes of this part the reference answers beyond docs/upstream.md's three (README "Beyond docs/upstream.md"). */
export const RefTicketCode = {
  ...TicketCode,
  /** the ticket is not on sale now (before saleStart or after saleEnd) */
  NOT_ON_SALE: 20104,
  /** the order is not in a state that allows this (paid, cancelled, timed out, ...) */
  WRONG_STATE: 20105,
  /** refunds are closed, past the deadline, or a ticket of the order has been used */
  REFUND_REFUSED: 20106,
  /** the contact has as many unpaid orders open as it may (REF_OPEN_ORDERS_PER_*): pay or cancel one first */
  OPEN_ORDERS: 20107,
  /** payNotify: paid after the hold ended and no ticket left: marked for automatic refund (the provider refunds) */
  LATE_REFUND: 20108,
} as const;

const Code = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be a discount code');
const OrderNo = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{6,64}$/, 'must be an order number');
const PayType = z.union([z.literal(1), z.literal(2), z.enum(['1', '2']).transform(Number)]);
const Encrypted = z.string().trim().min(1, 'is required').max(65_536, 'is too long');

const ContactQuery = z
  .object({
    expoId: DecimalId.optional(),
    phone: z.string().trim().max(32).optional(),
    email: z.string().trim().max(254).optional(),
  })
  .refine((q) => Boolean(q.phone) !== Boolean(q.email), {
    message: 'give exactly one of phone or email',
    path: ['phone'],
  });

/** The contact of a query (phone full E.164 or e-mail), normalised as stored; null when malformed. */
function contactOf(q: { phone?: string | undefined; email?: string | undefined }): string | null {
  return q.phone ? normalizePhone(q.phone) : normalizeEmail(q.email ?? '');
}

/** A body or query whose `expoId`, when given, must be the header's. */
function sameExpo(c: Ctx, given: number | undefined): Response | null {
  return given !== undefined && given !== c.var.expo.id
    ? reply(c, RefCode.BAD_INPUT, 'bad input: expoId does not match the expoId header')
    : null;
}

async function ticketRow(db: D1Database, expoId: number, id: number): Promise<TicketRow | null> {
  return db.prepare('SELECT * FROM tickets WHERE expo_id = ? AND id = ?').bind(expoId, id).first<TicketRow>();
}

/** Paid tickets per ticket id (the wire's soldCount adds them to the seed's). */
async function paidCounts(db: D1Database, expoId: number): Promise<Map<number, number>> {
  const { results } = await db
    .prepare(
      'SELECT ticket_id, sum(quantity) AS n FROM orders WHERE expo_id = ? AND status IN (1, 2, 5) GROUP BY ticket_id',
    )
    .bind(expoId)
    .all<{ ticket_id: number; n: number }>();
  return new Map(results.map((r) => [r.ticket_id, r.n]));
}

/** `GET /customFrom/selectUrlsTicketList`: `expoId`, `urlsId` encrypted; data encrypted `{ ticketList }`. */
export async function selectUrlsTicketList(c: Ctx): Promise<Response> {
  const expo = c.var.expo;
  const q = parseInput(z.object({ expoId: Encrypted, urlsId: Encrypted }), c.req.query());
  if (!q.ok) return reply(c, RefCode.BAD_INPUT, q.msg);
  const expoId = parseExpoId(await decryptParam(q.value.expoId, expo.aes_key));
  const urlsId = parseExpoId(await decryptParam(q.value.urlsId, expo.aes_key));
  if (expoId !== expo.id) return reply(c, RefCode.BAD_INPUT, 'bad input: expoId does not decrypt to the expoId header');
  if (urlsId === null) return reply(c, RefCode.BAD_INPUT, "bad input: urlsId does not decrypt with this expo's key");
  const { results } = await c.env.DB.prepare('SELECT * FROM tickets WHERE expo_id = ? AND urls_id = ? ORDER BY id')
    .bind(expo.id, urlsId)
    .all<TicketRow>();
  const paid = await paidCounts(c.env.DB, expo.id);
  const ticketList = results.map((r) => toTicket(r, paid.get(r.id) ?? 0));
  return ok(c, await encryptJson({ ticketList }, expo.aes_key));
}

/** `GET /customFrom/checkSurplusTicket`: `{ surplus }`, -1 unlimited. */
export async function checkSurplusTicket(c: Ctx): Promise<Response> {
  const q = parseInput(z.object({ expoId: DecimalId.optional(), ticketId: DecimalId }), c.req.query());
  if (!q.ok) return reply(c, RefCode.BAD_INPUT, q.msg);
  const bad = sameExpo(c, q.value.expoId);
  if (bad) return bad;
  const ticket = await ticketRow(c.env.DB, c.var.expo.id, q.value.ticketId);
  if (!ticket) return reply(c, RefCode.NOT_FOUND, 'no such ticket in this expo');
  return ok(c, { surplus: await surplusOf(c.env.DB, ticket, Date.now()) });
}

/** `GET /customFrom/selectDiscountTicketByCode`: `{ discountCode, price }`; 20101 when used up. */
export async function selectDiscountTicketByCode(c: Ctx): Promise<Response> {
  const q = parseInput(
    z.object({ expoId: DecimalId.optional(), ticketId: DecimalId, discountCode: Code }),
    c.req.query(),
  );
  if (!q.ok) return reply(c, RefCode.BAD_INPUT, q.msg);
  const bad = sameExpo(c, q.value.expoId);
  if (bad) return bad;
  const code = await usesLeft(c.env.DB, c.var.expo.id, q.value.ticketId, q.value.discountCode, Date.now());
  if (!code) return reply(c, RefCode.NOT_FOUND, 'no such discount code for this ticket');
  if (code.left === 0) return reply(c, RefTicketCode.DISCOUNT_USED_UP, 'not available enough times');
  return ok(c, { discountCode: q.value.discountCode, price: code.price });
}

/** `GET /customFrom/findUserBuyOrderNumByPhoneExpoId`: `{ count }` tickets held or reserved. */
export async function findUserBuyOrderNumByPhoneExpoId(c: Ctx): Promise<Response> {
  const q = parseInput(ContactQuery, c.req.query());
  if (!q.ok) return reply(c, RefCode.BAD_INPUT, q.msg);
  const bad = sameExpo(c, q.value.expoId);
  if (bad) return bad;
  const contact = contactOf(q.value);
  if (!contact) return reply(c, RefCode.BAD_INPUT, 'bad input: not a valid phone (E.164) or e-mail');
  return ok(c, { count: await heldByContact(c.env.DB, c.var.expo.id, mailboxKey(contact) ?? contact, Date.now()) });
}

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
 * 20104 not on sale. A repeat of the same buyer form (its `idem` key) answers the same order.
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

  const plain = await decryptParam(body.value.data, expo.aes_key);
  if (plain === null) return reply(c, RefCode.BAD_INPUT, "bad input: data does not decrypt with this expo's key");
  let json: unknown;
  try {
    json = JSON.parse(plain) as unknown;
  } catch {
    return reply(c, RefCode.BAD_INPUT, 'bad input: data is not JSON');
  }
  const values = parseInput(BuyerValues, json);
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
    return reply(c, RefTicketCode.NOT_ON_SALE, 'this ticket is not on sale now');
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
  // One statement: the order exists only if stock, the contact's limit, the code's uses and the
  // caps on open unpaid orders all allow it at this instant. ?9 = now.
  // The hold starts short (the checkout hold); going to pay starts spec §9's 30 minutes.
  const hold = HOLDING.replaceAll('?now', '?9');
  const open = OPEN.replaceAll('?now', '?9');
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
    )
    .first<OrderRow>();
  if (row) return ok(c, created(row, expo.utc_offset_minutes));

  // Refused (or a parallel twin of the same form won): say which condition failed.
  const twin = await again();
  if (twin) return twin;
  if (code !== null) {
    const d = await usesLeft(db, expo.id, ticketId, code, now);
    if (d && d.left !== -1 && d.left < quantity)
      return reply(c, RefTicketCode.DISCOUNT_USED_UP, 'not available enough times');
  }
  if (
    ticket.limit_per_contact > 0 &&
    (await heldByContact(db, expo.id, key, now)) + quantity > ticket.limit_per_contact
  ) {
    return reply(c, RefTicketCode.OVER_LIMIT, `at most ${ticket.limit_per_contact} tickets per contact`);
  }
  const openNow = await db
    .prepare(
      `SELECT count(*) AS n, coalesce(sum(o.ticket_id = ?3), 0) AS here FROM orders o WHERE o.expo_id = ?1 AND ${CONTACT_KEY} = ?2 AND ${OPEN.replace('?now', '?4')}`,
    )
    .bind(expo.id, key, ticketId, now)
    .first<{ n: number; here: number }>();
  if ((openNow?.n ?? 0) >= caps.perContact || (openNow?.here ?? 0) >= caps.perTicket) {
    return reply(c, RefTicketCode.OPEN_ORDERS, 'an unpaid order of this contact is still open: pay or cancel it first');
  }
  return reply(c, RefTicketCode.SOLD_OUT, 'sold out');
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
    return reply(c, RefTicketCode.WRONG_STATE, 'this order cannot be paid now');
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
  if (started.meta.changes !== 1) return reply(c, RefTicketCode.WRONG_STATE, 'this order cannot be paid now');
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

const OrderQuery = z.object({ expoId: DecimalId.optional(), orderNo: OrderNo });
const OrderBody = OrderQuery;

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
  const q = parseInput(ContactQuery, c.req.query());
  if (!q.ok) return reply(c, RefCode.BAD_INPUT, q.msg);
  const bad = sameExpo(c, q.value.expoId);
  if (bad) return bad;
  const contact = contactOf(q.value);
  if (!contact) return reply(c, RefCode.BAD_INPUT, 'bad input: not a valid phone (E.164) or e-mail');
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
    'UPDATE orders SET status = 3 WHERE expo_id = ? AND order_no = ? AND status = 0 AND expire_ms > ?',
  )
    .bind(c.var.expo.id, body.value.orderNo, Date.now())
    .run();
  if (res.meta.changes === 1) return ok(c, null);
  const row = await findOrder(c.env.DB, c.var.expo.id, body.value.orderNo);
  return row
    ? reply(c, RefTicketCode.WRONG_STATE, 'only an unpaid order can be cancelled')
    : reply(c, RefCode.NOT_FOUND, 'no such order');
}

/** `GET /customFrom/ifOpenRefund`: `{ open, deadline }`. */
export async function ifOpenRefund(c: Ctx): Promise<Response> {
  const row = await c.env.DB.prepare('SELECT open, deadline FROM refund_settings WHERE expo_id = ?')
    .bind(c.var.expo.id)
    .first<{ open: number; deadline: string | null }>();
  return ok(c, { open: row?.open === 1 ? 1 : 0, deadline: row?.deadline ?? null });
}

const RefundBody = OrderBody.extend({ reason: z.string().trim().min(1, 'is required').max(500, 'is too long') });

/**
 * `POST /customFrom/WxRefundJSAPIByOrderNo`: a paid order becomes refund applied; refused when
 * refunds are closed, the deadline has passed, or a ticket of it has been used.
 */
export async function WxRefundJSAPIByOrderNo(c: Ctx): Promise<Response> {
  const body = parseInput(RefundBody, await readJsonBody(c.req.raw));
  if (!body.ok) return reply(c, RefCode.BAD_INPUT, body.msg);
  const bad = sameExpo(c, body.value.expoId);
  if (bad) return bad;
  const expo = c.var.expo;
  const db = c.env.DB;
  const now = Date.now();
  const row = await findOrder(db, expo.id, body.value.orderNo);
  if (!row) return reply(c, RefCode.NOT_FOUND, 'no such order');
  const settings = await db
    .prepare('SELECT open, deadline FROM refund_settings WHERE expo_id = ?')
    .bind(expo.id)
    .first<{ open: number; deadline: string | null }>();
  if (settings?.open !== 1) return reply(c, RefTicketCode.REFUND_REFUSED, 'refunds are closed for this expo');
  if (settings.deadline && expoLocalTime(now, expo.utc_offset_minutes) > settings.deadline) {
    return reply(c, RefTicketCode.REFUND_REFUSED, 'the refund deadline has passed');
  }
  // One transaction: the order becomes refund applied (paid, and no ticket of
  // it used) and its class 8 credentials are void (use_status 2) at the same instant: no moment
  // where a refunded ticket still opens the gate.
  const [res] = await db.batch([
    db
      .prepare(
        `UPDATE orders SET status = 5, refund_status = 0, refund_reason = ?1, refund_apply_ms = ?2, refund_done_ms = NULL
         WHERE expo_id = ?3 AND order_no = ?4 AND status = 2
           AND NOT EXISTS (SELECT 1 FROM registrations r WHERE r.order_no = ?4 AND (r.use_status = 1 OR r.used_count > 0))`,
      )
      .bind(body.value.reason, now, expo.id, body.value.orderNo),
    voidStatement(db, expo.id, body.value.orderNo),
  ]);
  if (res?.meta.changes === 1) return ok(c, null);
  // Refused: say why, from the order as it is now (a parallel application may have won).
  const after = (await findOrder(db, expo.id, body.value.orderNo)) ?? row;
  if (after.status === OrderStatus.REFUND_APPLIED || after.status === OrderStatus.REFUNDED)
    return reply(c, RefTicketCode.WRONG_STATE, 'a refund has already been applied for this order');
  if (after.status !== OrderStatus.PAID) return reply(c, RefTicketCode.WRONG_STATE, 'only a paid order can be refunded');
  return reply(c, RefTicketCode.REFUND_REFUSED, 'a ticket of this order has been used');
}

/**
 * The credentials of an order follow its refund: void (use_status 2) while a
 * refund is applied or done, unused again (0) when the application is withdrawn. Run in the
 * same batch (one transaction) as the order's change; a used ticket (1) is never touched.
 */
function voidStatement(db: D1Database, expoId: number, orderNo: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE registrations SET use_status = CASE (SELECT o.status FROM orders o WHERE o.expo_id = ?1 AND o.order_no = ?2) WHEN 5 THEN 2 WHEN 6 THEN 2 ELSE 0 END
       WHERE order_no = ?2 AND expo_id = ?1 AND use_status IN (0, 2) AND used_count = 0`,
    )
    .bind(expoId, orderNo);
}

/**
 * `POST /customFrom/cancelRefundByOrderNo`: refund applied goes back to paid, and its credentials
 * are valid again (unused), in one transaction (README "Tickets and orders": the application is
 * withdrawn, so the tickets are the buyer's again).
 */
export async function cancelRefundByOrderNo(c: Ctx): Promise<Response> {
  const body = parseInput(OrderBody, await readJsonBody(c.req.raw));
  if (!body.ok) return reply(c, RefCode.BAD_INPUT, body.msg);
  const bad = sameExpo(c, body.value.expoId);
  if (bad) return bad;
  const db = c.env.DB;
  const [res] = await db.batch([
    db
      .prepare('UPDATE orders SET status = 2, refund_status = 2 WHERE expo_id = ? AND order_no = ? AND status = 5')
      .bind(c.var.expo.id, body.value.orderNo),
    voidStatement(db, c.var.expo.id, body.value.orderNo),
  ]);
  if (res?.meta.changes === 1) return ok(c, null);
  const row = await findOrder(c.env.DB, c.var.expo.id, body.value.orderNo);
  return row
    ? reply(c, RefTicketCode.WRONG_STATE, 'this order has no refund application to cancel')
    : reply(c, RefCode.NOT_FOUND, 'no such order');
}
