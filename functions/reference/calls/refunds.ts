/**
 * The refund calls of docs/upstream.md "Tickets and orders" and "Refunds" on D1: whether refunds
 * are open, apply (which voids the order's tickets) and withdraw.
 */
import { z } from 'zod';
import { TicketCode, OrderStatus } from '../../../src/lib/contract';
import { RefCode, ok, reply } from '../envelope';
import { expoLocalTime } from '../expo';
import { parseInput, readJsonBody } from '../inputs';
import { findOrder } from '../orders';

import { OrderBody, sameExpo, type Ctx } from './order-inputs';

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
  if (settings?.open !== 1) return reply(c, TicketCode.REFUND_REFUSED, 'refunds are closed for this expo');
  if (settings.deadline && expoLocalTime(now, expo.utc_offset_minutes) > settings.deadline) {
    return reply(c, TicketCode.REFUND_REFUSED, 'the refund deadline has passed');
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
    return reply(c, TicketCode.WRONG_STATE, 'a refund has already been applied for this order');
  if (after.status !== OrderStatus.PAID) return reply(c, TicketCode.WRONG_STATE, 'only a paid order can be refunded');
  return reply(c, TicketCode.REFUND_REFUSED, 'a ticket of this order has been used');
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
    ? reply(c, TicketCode.WRONG_STATE, 'this order has no refund application to cancel')
    : reply(c, RefCode.NOT_FOUND, 'no such order');
}
