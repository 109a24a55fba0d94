/**
 * Payment notifications: how a provider's callback tells the organiser an order is
 * paid. The body is JSON `{ expoId, orderNo, txId, totalFee, result }`, signed with HMAC-SHA-256
 * (hex, header `x-pay-signature`) under the merchant key `REF_PAY_SECRET`, which is required:
 * never the expo's aesKey, which the legacy contract hands to anyone (selectAESKey;
 * docs/upstream.md "Payments"). Without it every notification is refused and the log says why. Applying one is idempotent: only an unpaid order in its hold changes, in one D1 batch
 * (a transaction) that also creates one class 8 registration per ticket (docs/upstream.md "An
 * order") unless the ticket needs the organiser's review (then status 1 and no registration
 * until the review passes: `approveOrder`).
 */
import type { Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../env';
import { newEuCode } from './euCode';
import { RefCode, ok, reply } from './envelope';
import { expoLocalTime, type ExpoRow, type RefEnv } from './expo';
import { DecimalId, parseInput } from './inputs';
import { CONTACT_KEY, HOLDING, findOrder, statusAt, type OrderRow } from './orders';
import { OrderStatus } from '../../src/lib/contract';

export const PAY_SIGNATURE_HEADER = 'x-pay-signature';

/** payNotify's answer to a late payment that could not be honoured (RefTicketCode.LATE_REFUND). */
export const LATE_REFUND_CODE = 20108;

export const Notification = z.object({
  expoId: DecimalId,
  orderNo: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{6,64}$/),
  txId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{8,64}$/),
  totalFee: z.number().int().min(0),
  result: z.enum(['SUCCESS', 'FAIL']),
});
export type Notification = z.infer<typeof Notification>;

const encoder = new TextEncoder();
const hex = (b: ArrayBuffer) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, '0')).join('');

/** The merchant key: `REF_PAY_SECRET`, at least 16 characters; null when it is not set. */
export function paySecret(env: Pick<AppEnv, 'REF_PAY_SECRET'>): string | null {
  const secret = (env.REF_PAY_SECRET ?? '').trim();
  return secret.length >= 16 ? secret : null;
}

/** Signs with a merchant key (the simulator, and tests/e2e/fake-cashier.ts does the same in Node). */
export async function hmacHex(secret: string, body: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return hex(await crypto.subtle.sign('HMAC', key, encoder.encode(body)));
}

/** The signature of a notification body under `REF_PAY_SECRET`; null when the secret is not set. */
export async function signNotification(env: Pick<AppEnv, 'REF_PAY_SECRET'>, body: string): Promise<string | null> {
  const secret = paySecret(env);
  return secret === null ? null : hmacHex(secret, body);
}

/** Constant-time comparison of two hex signatures. */
function sameHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** What applying a notification did. */
export type Applied = 'paid' | 'pending-review' | 'paid-late' | 'refund-late' | 'unchanged' | 'failed-recorded';

/** The statements that turn an order's tickets into class 8 registrations, if `status` still holds. */
function registrationsOf(
  db: D1Database,
  row: OrderRow,
  expo: ExpoRow,
  now: number,
  fromStatus: number,
): D1PreparedStatement[] {
  const createtime = expoLocalTime(now, expo.utc_offset_minutes);
  return Array.from({ length: row.quantity }, () =>
    db
      .prepare(
        // Owned by the buyer's verified contact (the order's contact), on its channel only
        // (migration 0005): the ticket is found by that contact's lookup alone.
        `INSERT INTO registrations (expo_id, urls_id, eu_code, uname, eu_class, ticket_name, createtime, ucompany, ucompany_title, email, phone, form_values, order_no, max_count,
           owner_phone, owner_email)
         SELECT o.expo_id, o.urls_id, ?1, json_extract(o.form_values, '$.uname'), 8, o.ticket_name, ?2, json_extract(o.form_values, '$.ucompany'),
                json_extract(o.form_values, '$.ucompanyTitle'), CASE o.contact_column WHEN 'email' THEN o.contact END,
                CASE o.contact_column WHEN 'phone' THEN o.contact END, o.form_values, o.order_no, 1,
                CASE o.contact_column WHEN 'phone' THEN o.contact END, CASE o.contact_column WHEN 'email' THEN o.contact END
         FROM orders o JOIN tickets t ON t.id = o.ticket_id
         WHERE o.order_no = ?3 AND o.status = ?4 AND (?4 = 1 OR (o.expire_ms > ?5 AND t.need_review = 0))`,
      )
      .bind(newEuCode(), createtime, row.order_no, fromStatus, now),
  );
}

/**
 * Whether a late payment can still have its tickets (alias `x` the order, `?now`): stock, the
 * contact's limit and the discount code's uses, counted as createOrderNew counts them (the
 * order itself holds nothing once its hold ended, so it is not in the sums).
 */
const LATE_ALLOWED = `(t.stock = 0 OR t.stock - t.sold_count - (SELECT coalesce(sum(o.quantity), 0) FROM orders o WHERE o.ticket_id = t.id AND ${HOLDING}) >= x.quantity)
  AND (t.limit_per_contact = 0 OR (SELECT coalesce(sum(o.quantity), 0) FROM orders o WHERE o.expo_id = x.expo_id AND ${CONTACT_KEY} = coalesce(x.contact_key, lower(x.contact)) AND ${HOLDING}) + x.quantity <= t.limit_per_contact)
  AND (x.discount_code IS NULL OR EXISTS (SELECT 1 FROM discount_codes d WHERE d.expo_id = x.expo_id AND d.ticket_id = t.id AND d.code = x.discount_code
        AND (d.max_uses = 0 OR d.max_uses - d.used_before - (SELECT coalesce(sum(o.quantity), 0) FROM orders o WHERE o.ticket_id = t.id AND o.discount_code = x.discount_code AND ${HOLDING}) >= x.quantity)))`;

/** An order whose hold ended before it was paid: timed out (read or written down) or cancelled. */
const LATE = `(x.status IN (3, 4) OR (x.status = 0 AND x.expire_ms <= ?now)) AND x.pay_tx IS NULL`;

/**
 * A payment for an order whose hold had ended: honoured when stock, the
 * contact's limit and the code still allow it (paid, tickets issued), otherwise written down for
 * an automatic refund (the order stays timed out and holds nothing; refund applied, reason
 * given). One batch each way, conditioned on the same test, so a repeat or a parallel
 * notification changes nothing; logged for the operator either way.
 */
async function applyLate(
  db: D1Database,
  expo: ExpoRow,
  row: OrderRow,
  n: Notification,
  log: D1PreparedStatement,
  now: number,
): Promise<Applied> {
  const cond = `${LATE.replaceAll('?now', '?9')} AND ${LATE_ALLOWED.replaceAll('?now', '?9')}`;
  const createtime = expoLocalTime(now, expo.utc_offset_minutes);
  const honour = await db.batch([
    log,
    ...Array.from({ length: row.quantity }, () =>
      db
        .prepare(
          `INSERT INTO registrations (expo_id, urls_id, eu_code, uname, eu_class, ticket_name, createtime, ucompany, ucompany_title, email, phone, form_values, order_no, max_count)
           SELECT x.expo_id, x.urls_id, ?1, json_extract(x.form_values, '$.uname'), 8, x.ticket_name, ?2, json_extract(x.form_values, '$.ucompany'),
                  json_extract(x.form_values, '$.ucompanyTitle'), CASE x.contact_column WHEN 'email' THEN x.contact END,
                  CASE x.contact_column WHEN 'phone' THEN x.contact END, x.form_values, x.order_no, 1
           FROM orders x JOIN tickets t ON t.id = x.ticket_id
           WHERE x.order_no = ?3 AND t.need_review = 0 AND ${cond}`,
        )
        .bind(newEuCode(), createtime, row.order_no, null, null, null, null, null, now),
    ),
    db
      .prepare(
        `UPDATE orders AS x SET status = CASE (SELECT need_review FROM tickets WHERE id = x.ticket_id) WHEN 1 THEN 1 ELSE 2 END,
           pay_ms = ?9, pay_tx = ?1, late_payment = 1
         WHERE x.order_no = ?2 AND EXISTS (SELECT 1 FROM tickets t WHERE t.id = x.ticket_id AND ${cond})`,
      )
      .bind(n.txId, row.order_no, null, null, null, null, null, null, now),
  ]);
  if ((honour.at(-1)?.meta.changes ?? 0) === 1) {
    console.warn(
      `[reference upstream] late payment honoured: order ${row.order_no} (expo ${expo.id}) was paid after its hold ended (tx ${n.txId}); stock allowed it, tickets issued`,
    );
    const after = await findOrder(db, expo.id, row.order_no);
    return after?.status === 1 ? 'pending-review' : 'paid-late';
  }
  // No ticket left for it: refund applied, automatically, and the order holds nothing.
  const refund = await db
    .prepare(
      `UPDATE orders AS x SET status = 4, pay_ms = ?3, pay_tx = ?1, late_payment = 2, refund_status = 0,
         refund_reason = 'automatic: paid after the 30-minute hold ended and no ticket was left', refund_apply_ms = ?3
       WHERE x.order_no = ?2 AND ${LATE.replaceAll('?now', '?3')}`,
    )
    .bind(n.txId, row.order_no, now)
    .run();
  if (refund.meta.changes === 1) {
    console.error(
      `[reference upstream] late payment to refund: order ${row.order_no} (expo ${expo.id}) was paid after its hold ended (tx ${n.txId}, ${n.totalFee} minor units) and no ticket is left; marked for automatic refund (orders.late_payment = 2): refund it at the provider`,
    );
    return 'refund-late';
  }
  // A repeat: what the first one decided.
  const again = await findOrder(db, expo.id, row.order_no);
  return again?.late_payment === 2 && again.pay_tx === n.txId ? 'refund-late' : 'unchanged';
}

/** Applies a verified notification; a repeat (or one for an order no longer unpaid) changes nothing. */
export async function applyNotification(
  db: D1Database,
  expo: ExpoRow,
  n: Notification,
  now = Date.now(),
): Promise<Applied | 'unknown-order' | 'wrong-amount'> {
  const row = await findOrder(db, expo.id, n.orderNo);
  if (!row) return 'unknown-order';
  if (n.result === 'SUCCESS' && n.totalFee !== row.total_fee) return 'wrong-amount';
  const log = db
    .prepare(
      'INSERT INTO pay_notifications (tx_id, order_no, result, received_ms) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
    )
    .bind(n.txId, n.orderNo, n.result, now);
  if (n.result === 'FAIL') {
    await log.run();
    return 'failed-recorded';
  }
  if (statusAt(row, now) !== OrderStatus.UNPAID && row.pay_tx === null) return applyLate(db, expo, row, n, log, now);
  if (row.late_payment === 2 && row.pay_tx === n.txId) return 'refund-late';
  const results = await db.batch([
    log,
    ...registrationsOf(db, row, expo, now, 0),
    db
      .prepare(
        `UPDATE orders SET status = CASE (SELECT need_review FROM tickets WHERE id = orders.ticket_id) WHEN 1 THEN 1 ELSE 2 END, pay_ms = ?1, pay_tx = ?2
         WHERE order_no = ?3 AND status = 0 AND expire_ms > ?1`,
      )
      .bind(now, n.txId, n.orderNo),
  ]);
  if ((results.at(-1)?.meta.changes ?? 0) === 0) {
    // The hold ended between the read and the write: a late payment after all.
    const again = await findOrder(db, expo.id, n.orderNo);
    return again && again.pay_tx === null && statusAt(again, now) !== OrderStatus.UNPAID
      ? applyLate(db, expo, again, n, log, now)
      : 'unchanged';
  }
  const after = await findOrder(db, expo.id, n.orderNo);
  return after?.status === 1 ? 'pending-review' : 'paid';
}

/** The organiser's review of a paid order (status 1 → 2), with its registrations; idempotent. */
export async function approveOrder(db: D1Database, expo: ExpoRow, orderNo: string, now = Date.now()): Promise<boolean> {
  const row = await findOrder(db, expo.id, orderNo);
  if (!row || statusAt(row, now) !== 1) return false;
  const results = await db.batch([
    ...registrationsOf(db, row, expo, now, 1),
    db.prepare('UPDATE orders SET status = 2 WHERE order_no = ? AND status = 1').bind(orderNo),
  ]);
  return (results.at(-1)?.meta.changes ?? 0) === 1;
}

/**
 * `POST /customFrom/payNotify` (ours, beyond docs/upstream.md: the provider's callback): a signed
 * notification. A bad signature is refused (401); a repeat answers success and changes nothing.
 */
export async function payNotify(c: Context<RefEnv>): Promise<Response> {
  const r = await receiveNotification(c.env, c.var.expo, await c.req.text(), c.req.header(PAY_SIGNATURE_HEADER) ?? '');
  return r.ok ? ok(c, { applied: r.applied }) : reply(c, r.code, r.msg, r.code === LATE_REFUND_CODE ? { applied: 'refund-late' } : null);
}

/** Verifies and applies a notification body as the provider sent it (the route and the simulator share this). */
export async function receiveNotification(
  env: AppEnv,
  expo: ExpoRow,
  raw: string,
  signature: string,
): Promise<{ ok: true; applied: Applied } | { ok: false; code: number; msg: string }> {
  if (raw.length > 4096) return { ok: false, code: RefCode.BAD_INPUT, msg: 'bad input: notification too large' };
  const expected = await signNotification(env, raw);
  if (expected === null) {
    console.error(
      `[reference upstream] payment notification for expo ${expo.id} refused: REF_PAY_SECRET is not set (or shorter than 16 characters); set the merchant key the payment provider signs with (wrangler secret put REF_PAY_SECRET)`,
    );
    return { ok: false, code: RefCode.CODE_REFUSED, msg: 'notifications are not accepted: the merchant key is not configured' };
  }
  if (!sameHex(signature.trim().toLowerCase(), expected))
    return { ok: false, code: RefCode.CODE_REFUSED, msg: 'bad signature' };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, code: RefCode.BAD_INPUT, msg: 'bad input: not JSON' };
  }
  const n = parseInput(Notification, json);
  if (!n.ok) return { ok: false, code: RefCode.BAD_INPUT, msg: n.msg };
  if (n.value.expoId !== expo.id)
    return { ok: false, code: RefCode.BAD_INPUT, msg: 'bad input: expoId does not match the expoId header' };
  const applied = await applyNotification(env.DB, expo, n.value);
  if (applied === 'unknown-order') return { ok: false, code: RefCode.NOT_FOUND, msg: 'no such order' };
  if (applied === 'wrong-amount')
    return { ok: false, code: RefCode.BAD_INPUT, msg: 'bad input: totalFee is not the order total' };
  // Tell the provider: the payment is not taken, refund it (the order says so to the buyer).
  if (applied === 'refund-late')
    return {
      ok: false,
      code: LATE_REFUND_CODE,
      msg: 'paid after the hold ended and no ticket is left: marked for automatic refund',
    };
  return { ok: true, applied };
}
