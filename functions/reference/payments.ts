/**
 * Payment notifications (issue 11): how a provider's callback tells the organiser an order is
 * paid. The body is JSON `{ expoId, orderNo, txId, totalFee, result }`, signed with HMAC-SHA-256
 * (hex, header `x-pay-signature`) under the merchant key: `REF_PAY_SECRET`, else the expo's
 * aesKey. Applying one is idempotent: only an unpaid order in its hold changes, in one D1 batch
 * (a transaction) that also creates one class 8 registration per ticket (UPSTREAM.md "An
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
import { findOrder, statusAt, type OrderRow } from './orders';

export const PAY_SIGNATURE_HEADER = 'x-pay-signature';

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

async function key(env: Pick<AppEnv, 'REF_PAY_SECRET'>, expo: Pick<ExpoRow, 'aes_key'>): Promise<CryptoKey> {
  const secret = env.REF_PAY_SECRET?.trim() || expo.aes_key;
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

/** The signature of a notification body. */
export async function signNotification(
  env: Pick<AppEnv, 'REF_PAY_SECRET'>,
  expo: Pick<ExpoRow, 'aes_key'>,
  body: string,
): Promise<string> {
  return hex(await crypto.subtle.sign('HMAC', await key(env, expo), encoder.encode(body)));
}

/** Constant-time comparison of two hex signatures. */
function sameHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** What applying a notification did. */
export type Applied = 'paid' | 'pending-review' | 'unchanged' | 'failed-recorded';

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
        // (issue 19 item 1, migration 0005): the ticket is found by that contact's lookup alone.
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
  if ((results.at(-1)?.meta.changes ?? 0) === 0) return 'unchanged';
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
 * `POST /customFrom/payNotify` (ours, beyond UPSTREAM.md: the provider's callback): a signed
 * notification. A bad signature is refused (401); a repeat answers success and changes nothing.
 */
export async function payNotify(c: Context<RefEnv>): Promise<Response> {
  const r = await receiveNotification(c.env, c.var.expo, await c.req.text(), c.req.header(PAY_SIGNATURE_HEADER) ?? '');
  return r.ok ? ok(c, { applied: r.applied }) : reply(c, r.code, r.msg);
}

/** Verifies and applies a notification body as the provider sent it (the route and the simulator share this). */
export async function receiveNotification(
  env: AppEnv,
  expo: ExpoRow,
  raw: string,
  signature: string,
): Promise<{ ok: true; applied: Applied } | { ok: false; code: number; msg: string }> {
  if (raw.length > 4096) return { ok: false, code: RefCode.BAD_INPUT, msg: 'bad input: notification too large' };
  if (!sameHex(signature.trim().toLowerCase(), await signNotification(env, expo, raw)))
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
  return { ok: true, applied };
}
