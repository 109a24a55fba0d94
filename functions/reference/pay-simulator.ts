/**
 * The payment simulator: the "provider's cashier" that doUnifiedOrder's `payUrl`
 * points at, so the whole purchase runs on a fresh machine. Mounted at `/dev/pay`, and served
 * only while `DEV_OUTBOX=1` or `PAY_SIMULATOR=1` and no `UPSTREAM_URL` (middleware/dev-faces.ts).
 *
 * `GET /dev/pay/{orderNo}` shows the order and its choices: pay, fail, abandon, let the hold run
 * out (the hold's end moved to now: a timed-out order without the wait), and, for an order
 * pending review, the organiser's approval. Paying signs a notification with the
 * merchant key (`REF_PAY_SECRET`, required) and hands it to the same receiver a provider's callback reaches
 * (`POST /custom/customFrom/payNotify`, payments.ts), then returns to the order's `returnUrl`
 * (set by doUnifiedOrder, a path of this site). A real provider plugs in at the organiser's
 * doUnifiedOrder: its cashier URL instead of this page, its callback instead of this form.
 */
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../env';
import { findExpo } from './expo';
import { escapeHtml } from './outbox';
import { statusAt, type OrderRow } from './orders';
import { approveOrder, receiveNotification, signNotification } from './payments';

export const paySimulator = new Hono<{ Bindings: AppEnv }>();

const ORDER_NO = /^[A-Za-z0-9_-]{6,64}$/;

async function orderOf(c: Context<{ Bindings: AppEnv }>): Promise<OrderRow | null> {
  const orderNo = c.req.param('orderNo') ?? '';
  if (!ORDER_NO.test(orderNo)) return null;
  return c.env.DB.prepare('SELECT * FROM orders WHERE order_no = ?').bind(orderNo).first<OrderRow>();
}

/** Where the cashier sends the visitor back: the order's returnUrl with `pay=` telling what happened. */
function back(row: OrderRow, outcome: 'paid' | 'failed' | 'abandoned'): string | null {
  if (!row.return_url) return null;
  // The simulator lives on this Worker: only the path and query of the (absolute) returnUrl.
  const u = new URL(row.return_url, 'http://site.invalid');
  u.searchParams.set('pay', outcome);
  return `${u.pathname}${u.search}`;
}

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;

paySimulator.get('/:orderNo', async function cashierPage(c) {
  const row = await orderOf(c);
  if (!row) return c.html(page('Payment simulator', '<p>No such order.</p>'), 404);
  const status = statusAt(row, Date.now());
  const actions =
    status === 0
      ? `<form method="post"><button name="action" value="pay">Pay ${escapeHtml(String(row.total_fee))} (minor units)</button>
         <button name="action" value="fail">Fail the payment</button>
         <button name="action" value="abandon">Abandon</button>
         <button name="action" value="expire">Let the hold run out</button></form>`
      : status === 1
        ? `<form method="post"><button name="action" value="approve">Approve (the organiser's review)</button></form>`
        : `<p>This order cannot be paid (status ${status}).</p>`;
  return c.html(
    page(
      'Payment simulator',
      `<p>The reference upstream's stand-in for a payment provider's cashier (development only).</p>
       <dl><dt>Order</dt><dd>${escapeHtml(row.order_no)}</dd><dt>Ticket</dt><dd>${escapeHtml(row.ticket_name)} × ${row.quantity}</dd>
       <dt>Total</dt><dd data-total="${row.total_fee}">${row.total_fee}</dd><dt>Status</dt><dd>${status}</dd></dl>${actions}`,
    ),
  );
});

paySimulator.post('/:orderNo', async function cashierPay(c) {
  const row = await orderOf(c);
  if (!row) return c.html(page('Payment simulator', '<p>No such order.</p>'), 404);
  const expo = await findExpo(c.env.DB, row.expo_id);
  if (!expo) return c.html(page('Payment simulator', '<p>No such expo.</p>'), 404);
  const form = await c.req.parseBody();
  const action = typeof form['action'] === 'string' ? form['action'] : '';
  if (action === 'approve') {
    await approveOrder(c.env.DB, expo, row.order_no);
    return c.html(page('Payment simulator', '<p>Approved.</p>'));
  }
  if (action === 'expire') {
    // Development only, like the whole simulator: what 30 minutes of waiting would do, at once
    // (the hold's end moved to now), so a test or a demo sees a timed-out order without waiting
    // REF_ORDER_HOLD_S. Only an unpaid order still in its hold; the read and the sweep do the rest.
    const now = Date.now();
    await c.env.DB.prepare('UPDATE orders SET expire_ms = ?1 WHERE order_no = ?2 AND status = 0 AND expire_ms > ?1')
      .bind(now, row.order_no)
      .run();
    const to = back(row, 'abandoned');
    return to ? c.redirect(to, 303) : c.html(page('Payment simulator', '<p>The hold has run out.</p>'));
  }
  if (action === 'abandon') {
    const to = back(row, 'abandoned');
    return to ? c.redirect(to, 303) : c.html(page('Payment simulator', '<p>Abandoned.</p>'));
  }
  if (action !== 'pay' && action !== 'fail') return c.html(page('Payment simulator', '<p>Unknown action.</p>'), 400);
  // The provider's callback: a signed notification, as a provider would send it.
  const txId = `SIM${Array.from(crypto.getRandomValues(new Uint8Array(10)), (b) => b.toString(16).padStart(2, '0')).join('')}`;
  const body = JSON.stringify({
    expoId: row.expo_id,
    orderNo: row.order_no,
    txId,
    totalFee: row.total_fee,
    result: action === 'pay' ? 'SUCCESS' : 'FAIL',
  });
  // Signed with REF_PAY_SECRET like a provider's; without it the receiver refuses (and logs why).
  const r = await receiveNotification(c.env, expo, body, (await signNotification(c.env, body)) ?? '');
  const outcome =
    action === 'pay' && r.ok && (r.applied === 'paid' || r.applied === 'pending-review' || r.applied === 'paid-late')
      ? 'paid'
      : 'failed';
  const to = back(row, outcome);
  return to ? c.redirect(to, 303) : c.html(page('Payment simulator', `<p>${outcome}</p>`));
});
