/**
 * The purchase endpoints (docs/upstream.md "Tickets and orders"; spec §4 guard, §5
 * discount message, §9 hold). JSON from islands or plain form posts (no JS: 303 on or back,
 * with the flash cookie so nothing typed is lost).
 *
 * - `POST /api/order`: the buyer form → createOrderNew → doUnifiedOrder → the cashier's `payUrl`
 *   (303 on this site, a "continue to payment" page for another origin; JSON `navigate`, or
 *   `jsapi` for the messaging app's JS bridge).
 * - `POST /api/order/action`: cancel, refund (with a reason), cancel the refund, pay again.
 * - `POST /api/discount`: checks a discount code before paying.
 *
 * Orders and discount checks count against the abuse limits per verified
 * contact and client address. Every route needs the verified contact of the page's expo (cookie `vc`), and the upstream
 * receives only that contact. An order is read or changed only when it is in that contact's
 * own order list (findOrderListByPhone): someone else's order number is refused like an
 * unknown one. Prices are never read from the post: the upstream computes every total.
 */
import { Hono, type Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import type { AppEnv } from '../env';
import { upstreamFor, type Upstream } from '../upstream';
import type { VerifiedBuyer } from '../upstream/calls/tickets';
import { faultJson, upstreamFault } from './fault';
import { badRequest } from './bad-request';
import { readInput, type Input } from './input';
import { OPENID_COOKIE } from '../middleware/guard';
import { CONTACT_COOKIE, provenFor, verifyContact, type VerifiedContact } from '../../src/lib/lookup/contact-cookie';
import { displayText, encodeFlash, FLASH_COOKIE, FLASH_MAX_AGE_S, type FlashInput } from '../../src/lib/page/flash';
import { contactLock } from '../../src/lib/form/contact';
import { parseFormDefinition } from '../../src/lib/form/schema';
import { validateForm } from '../../src/lib/form/validation';
import { inMessagingApp } from '../../src/lib/page/guard';
import { formatPrice, marketOf } from '../../src/lib/tickets/money';
import { parsePathParams, type PathParams } from '../../src/lib/page/routes';
import { absoluteUrl, handoffPage, payTarget } from '../../src/lib/tickets/cashier';
import { checkPurchaseLimits, limitedReply } from '../limits';
import { ticketPaths } from '../../src/lib/tickets/paths';
import {
  DISCOUNT_CODE,
  MAX_QUANTITY,
  ORDER_NO,
  OrderStatus,
  TicketCode,
  orderActions,
  type Order,
} from '../../src/lib/tickets/tickets';

/** The reference's answer when the contact has as many unpaid orders open as it may (README "Beyond docs/upstream.md"). */
const OPEN_ORDERS = 20107;

type Ctx = Context<{ Bindings: AppEnv }>;

/** What an island receives (`{code, msg, data}`, spec §7). */
export type OrderOutcome =
  | { outcome: 'navigate'; location: string }
  | { outcome: 'jsapi'; jsapi: Record<string, string>; returnUrl: string }
  | { outcome: 'invalid'; field: string; message: string }
  | { outcome: 'refused'; message: string }
  | { outcome: 'discount'; price: number; formatted: string };
export interface OrderReply {
  code: number;
  msg: string | null;
  data: OrderOutcome | null;
}

/** Hidden fields the forms post about themselves; everything else of /api/order is a buyer value. */
const PAGE_FIELDS = [
  'path',
  'ticketId',
  'quantity',
  'discountCode',
  'payType',
  'idem',
  'orderNo',
  'action',
  'reason',
] as const;
const MAX_VALUE = 2000;

const positive = z
  .string()
  .trim()
  .regex(/^\d{1,9}$/, 'a positive number')
  .transform(Number)
  .pipe(z.number().int().positive());
const OrderFields = z.object({
  ticketId: positive,
  quantity: positive.pipe(z.number().max(MAX_QUANTITY)),
  discountCode: z
    .string()
    .trim()
    .default('')
    .pipe(z.union([z.literal(''), z.string().regex(DISCOUNT_CODE)])),
  payType: z.enum(['1', '2']).transform((v) => Number(v) as 1 | 2),
});
const ActionFields = z.object({
  orderNo: z.string().trim().regex(ORDER_NO),
  action: z.enum(['cancel', 'refund', 'cancelRefund', 'pay']),
  reason: z.string().trim().max(500).default(''),
});

interface Posted {
  input: Input;
  params: PathParams;
  paths: ReturnType<typeof ticketPaths>;
  values: Record<string, string>;
}

const secure = (c: Ctx) => new URL(c.req.url).protocol === 'https:';

/** Reads the post and its page (`path` = `{fId}/{eid}/{ty}`); a broken page is a 400. */
async function parse(c: Ctx): Promise<Posted | Response> {
  const input = await readInput(c);
  const path = (input.fields['path'] ?? '').trim();
  const params = path.length <= 120 ? parsePathParams(path.split('/').filter(Boolean)) : null;
  if (!params) return badRequest(c, input, input.t('api.badPage'), input.t('app.back'), input.fields['back']);
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(input.fields)) {
    if (!(PAGE_FIELDS as readonly string[]).includes(k) && k.length <= 64) values[k] = v.slice(0, MAX_VALUE);
  }
  return { input, params, paths: ticketPaths(params), values };
}

/** 303 to `to` with a flash that belongs to that exact path and query (src/lib/page/flash.ts). */
function flashTo(c: Ctx, to: string, flash: Omit<FlashInput, 'path'>): Response {
  setCookie(c, FLASH_COOKIE, encodeFlash({ path: to, ...flash }), {
    path: '/',
    maxAge: FLASH_MAX_AGE_S,
    httpOnly: true,
    sameSite: 'Lax',
    secure: secure(c),
  });
  return c.redirect(to, 303);
}

const json = (
  c: Ctx,
  data: OrderOutcome | null,
  code = 200,
  msg: string | null = null,
  status: 200 | 400 | 401 | 403 | 404 | 409 = 200,
) => c.json<OrderReply>({ code, msg, data }, status);

/** The verified contact of the page's expo, or the answer that sends the visitor to verify (spec §4 guard). */
async function buyerOf(
  c: Ctx,
  p: Posted,
  back: string,
): Promise<{ vc: VerifiedContact; buyer: VerifiedBuyer } | Response> {
  const vc = provenFor(await verifyContact(getCookie(c, CONTACT_COOKIE), c.env.SESSION_SECRET ?? ''), p.params.expoId);
  if (vc) return { vc, buyer: { checkType: vc.checkType, contact: vc.contact } };
  const location = p.paths.verify(back);
  const message = p.input.t('form.verifyFirst');
  if (p.input.json) return json(c, { outcome: 'navigate', location }, 401, message, 401);
  return flashTo(c, location, { notice: { tone: 'error', key: 'form.verifyFirst', text: null } });
}

/** A refusal shown on `back`: the translated text of a known code, else the upstream's message. */
function refusedText(t: Input['t'], code: number, msg: string | null): string {
  if (code === TicketCode.DISCOUNT_USED_UP) return t('form.discountTimes');
  if (code === TicketCode.SOLD_OUT) return t('ticket.soldOutError');
  if (code === TicketCode.OVER_LIMIT) return t('ticket.overLimit');
  if (code === OPEN_ORDERS) return t('ticket.openOrder');
  return displayText(msg?.trim() || t('error.generic'));
}

function refused(
  c: Ctx,
  p: Posted,
  back: string,
  message: string,
  code: number,
  keep: Record<string, string> = {},
): Response {
  if (p.input.json) return json(c, { outcome: 'refused', message }, code, message, code === 403 ? 403 : 200);
  return flashTo(c, back, { values: keep, notice: { tone: 'error', key: null, text: message } });
}

function fault(c: Ctx, p: Posted, back: string, e: unknown, keep: Record<string, string> = {}): Response {
  const f = upstreamFault(e, p.input.t, new URL(c.req.url).pathname);
  if (p.input.json) return faultJson(c, f);
  return flashTo(c, back, { values: keep, notice: f.notice });
}

/**
 * Starts payment of an order the contact owns. `returnUrl` is this site's
 * absolute URL (the provider lives on its own host). The cashier is reached with JavaScript on
 * or off: a cashier on this site by `303`; one on another origin by a page of ours that links
 * and meta-refreshes to it (src/lib/tickets/cashier.ts: `form-action 'self'` blocks a cross-origin
 * redirect after a form post); JSON callers get the URL to navigate to.
 */
async function startPayment(
  c: Ctx,
  p: Posted,
  up: Upstream,
  orderNo: string,
  payType: 1 | 2,
  back: string,
): Promise<Response> {
  const successPath = p.paths.success(orderNo);
  const returnUrl = absoluteUrl(successPath, c.req.url);
  const openId =
    payType === 1 && inMessagingApp(c.req.header('user-agent') ?? '') ? getCookie(c, OPENID_COOKIE)?.trim() : undefined;
  const r = await up.doUnifiedOrder({ expoId: p.params.expoId, orderNo, payType, returnUrl, openId });
  if (!r.ok) return refused(c, p, back, refusedText(p.input.t, r.code, r.msg), r.code);
  if (r.data.kind === 'jsapi') {
    if (p.input.json) return json(c, { outcome: 'jsapi', jsapi: r.data.jsapi, returnUrl });
    // Without JS the bridge cannot run: the order page, where "pay" offers the cashier.
    return c.redirect(successPath, 303);
  }
  const target = payTarget(r.data.payUrl);
  if (!target) {
    console.error('doUnifiedOrder answered an unusable payUrl (only http(s) URLs and site paths are followed)', r.data.payUrl.slice(0, 200));
    return refused(c, p, back, p.input.t('error.relatedData'), 502);
  }
  const location = target.kind === 'site' ? target.location : target.url;
  if (p.input.json) return json(c, { outcome: 'navigate', location });
  if (target.kind === 'site') return c.redirect(location, 303);
  const t = p.input.t;
  return c.html(
    handoffPage({
      lang: p.input.lang,
      title: t('order.toCashier'),
      lead: t('order.toCashierLead', { host: target.host }),
      link: t('order.toCashier'),
      url: target.url,
    }),
  );
}

/**
 * The form's idempotency key: the posted one (one per form view), else one derived from the
 * contact and the whole post within a 10-minute window, so identical posts make one order.
 */
async function idemKey(vc: VerifiedContact, p: Posted, posted: string): Promise<string> {
  if (/^[A-Za-z0-9_-]{16,64}$/.test(posted)) return posted;
  const bucket = Math.floor(Date.now() / 600_000);
  const text = JSON.stringify([vc.expoId, vc.contact, bucket, Object.entries(p.input.fields).sort()]);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return `d${Array.from(digest.slice(0, 16), (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Whether the contact owns the order: it is in their own list (never trust a posted number). */
async function ownOrder(up: Upstream, expoId: number, buyer: VerifiedBuyer, orderNo: string): Promise<Order | null> {
  const list = await up.findOrderListByPhone({ expoId, buyer });
  return list.ok ? (list.data.find((o) => o.orderNo === orderNo) ?? null) : null;
}

export const order = new Hono<{ Bindings: AppEnv }>();

order.post('/order', async (c) => {
  const p = await parse(c);
  if (p instanceof Response) return p;
  const { t, lang } = p.input;
  const f = OrderFields.safeParse(p.input.fields);
  const ticketId = Number(p.input.fields['ticketId']);
  const back = Number.isSafeInteger(ticketId) && ticketId > 0 ? p.paths.form(ticketId) : p.paths.list;
  const keep = {
    ...p.values,
    quantity: (p.input.fields['quantity'] ?? '').slice(0, 8),
    discountCode: (p.input.fields['discountCode'] ?? '').slice(0, 40),
    payType: (p.input.fields['payType'] ?? '').slice(0, 2),
  };
  const who = await buyerOf(c, p, back);
  if (who instanceof Response) return who;
  if (!f.success) {
    const field = String(f.error.issues[0]?.path[0] ?? 'quantity');
    const message = t(
      field === 'discountCode'
        ? 'ticket.discountInvalid'
        : field === 'payType'
          ? 'ticket.payTypeRequired'
          : 'ticket.quantityInvalid',
    );
    if (p.input.json) return json(c, { outcome: 'invalid', field, message }, 400, message, 400);
    return flashTo(c, back, { values: keep, error: { field, key: null, text: message } });
  }
  const { vc } = who;
  const up = upstreamFor(c.env);
  try {
    const config = await up.getCustomerId({ expoId: p.params.expoId, fId: p.params.fId, ty: p.params.ty });
    if (!config.ok) return refused(c, p, back, refusedText(t, config.code, config.msg), config.code, keep);
    const fields = parseFormDefinition(config.data.customerForm).fields;
    const lock = contactLock(fields, vc, p.params.expoId);
    const checked = validateForm(fields, { ...p.values, ...lock?.values }, { lang });
    if (!checked.ok) {
      const { name, message: key } = checked.failure;
      const message = t(key);
      if (p.input.json) return json(c, { outcome: 'invalid', field: name, message }, 400, message, 400);
      return flashTo(c, back, { values: keep, error: { field: name, key, text: null } });
    }
    // Orders per contact and address, before the upstream sees the order.
    const limited = await checkPurchaseLimits(c, {
      contact: vc.contact,
      kind: 'order',
      triesCode: f.data.discountCode !== '',
    });
    if (limited) return limitedReply(c, limited, p.input, (notice) => flashTo(c, back, { values: keep, notice }));
    // The verified contact only, whatever was posted for it (docs/upstream.md: the edge sends only a verified contact).
    const contact = vc.checkType === 1 ? { phone: vc.contact, checkType: 1 } : { email: vc.contact, checkType: 2 };
    const values = { ...checked.data, ...contact, idem: await idemKey(vc, p, (p.input.fields['idem'] ?? '').trim()) };
    const created = await up.createOrderNew({
      expoId: p.params.expoId,
      urlsId: p.params.fId,
      ticketId: f.data.ticketId,
      quantity: f.data.quantity,
      discountCode: f.data.discountCode || undefined,
      payType: f.data.payType,
      values,
    });
    if (!created.ok) {
      // An unknown code reads like a used-up one: the order form is no oracle.
      if (f.data.discountCode && (created.code === TicketCode.DISCOUNT_USED_UP || created.code === 404))
        return refused(c, p, back, t('form.discountTimes'), TicketCode.DISCOUNT_USED_UP, keep);
      return refused(c, p, back, refusedText(t, created.code, created.msg), created.code, keep);
    }
    // From here the order exists: any failure leads to its page, where it can be paid while the hold lasts.
    const details = p.paths.details(created.data.orderNo);
    try {
      return await startPayment(c, p, up, created.data.orderNo, f.data.payType, details);
    } catch (e) {
      return fault(c, p, details, e);
    }
  } catch (e) {
    return fault(c, p, back, e, keep);
  }
});

order.post('/order/action', async (c) => {
  const p = await parse(c);
  if (p instanceof Response) return p;
  const { t } = p.input;
  const a = ActionFields.safeParse(p.input.fields);
  if (!a.success)
    return json(
      c,
      { outcome: 'refused', message: t('order.unknown') },
      400,
      t('api.badPage'),
      400,
    );
  const { orderNo, action, reason } = a.data;
  const back = p.paths.details(orderNo);
  const who = await buyerOf(c, p, back);
  if (who instanceof Response) return who;
  const up = upstreamFor(c.env);
  const expoId = p.params.expoId;
  try {
    const own = await ownOrder(up, expoId, who.buyer, orderNo);
    // Someone else's order is not described: the same answer as an unknown one.
    if (!own) return refused(c, p, p.paths.orders, t('order.notYours'), 403);
    const refund = action === 'refund' ? await up.ifOpenRefund({ expoId }) : null;
    const market = marketOf(expoId);
    const allowed = orderActions(own, refund?.ok ? refund.data : null, Date.now(), market.utcOffsetMinutes);
    if (!allowed[action])
      return refused(c, p, back, t(action === 'refund' ? 'order.refundClosed' : 'order.notAllowed'), 409);
    if (action === 'pay') return await startPayment(c, p, up, orderNo, own.payType === 1 ? 1 : 2, back);
    if (action === 'refund' && reason === '') {
      const message = t('order.reasonRequired');
      if (p.input.json) return json(c, { outcome: 'invalid', field: 'reason', message }, 400, message, 400);
      return flashTo(c, back, { error: { field: 'reason', key: 'order.reasonRequired', text: null } });
    }
    const r =
      action === 'cancel'
        ? await up.deleteOrderById({ expoId, orderNo })
        : action === 'refund'
          ? await up.WxRefundJSAPIByOrderNo({ expoId, orderNo, reason })
          : await up.cancelRefundByOrderNo({ expoId, orderNo });
    if (!r.ok) {
      // A parallel application won: say so, not what the upstream guessed.
      const after = action === 'refund' ? await ownOrder(up, expoId, who.buyer, orderNo) : null;
      const applied = after?.status === OrderStatus.REFUND_APPLIED || after?.status === OrderStatus.REFUNDED;
      const message = applied ? t('order.refundAlreadyApplied') : refusedText(t, r.code, r.msg);
      return refused(c, p, back, message, r.code, action === 'refund' ? { reason } : {});
    }
    const key =
      action === 'cancel' ? 'order.cancelDone' : action === 'refund' ? 'order.refundDone' : 'order.cancelRefundDone';
    if (p.input.json) return json(c, { outcome: 'navigate', location: back }, 200, t(key));
    return flashTo(c, back, { notice: { tone: 'info', key, text: null } });
  } catch (e) {
    return fault(c, p, back, e);
  }
});

order.post('/discount', async (c) => {
  const p = await parse(c);
  if (p instanceof Response) return p;
  const { t, lang } = p.input;
  const ticketId = Number(p.input.fields['ticketId']);
  const back = Number.isSafeInteger(ticketId) && ticketId > 0 ? p.paths.form(ticketId) : p.paths.list;
  const keep = {
    ...p.values,
    discountCode: (p.input.fields['discountCode'] ?? '').slice(0, 40),
    quantity: (p.input.fields['quantity'] ?? '').slice(0, 8),
    payType: (p.input.fields['payType'] ?? '').slice(0, 2),
  };
  const who = await buyerOf(c, p, back);
  if (who instanceof Response) return who;
  const code = (p.input.fields['discountCode'] ?? '').trim();
  if (!(Number.isSafeInteger(ticketId) && ticketId > 0) || !DISCOUNT_CODE.test(code)) {
    const message = t('ticket.discountInvalid');
    if (p.input.json) return json(c, { outcome: 'invalid', field: 'discountCode', message }, 400, message, 400);
    return flashTo(c, back, {
      values: keep,
      error: { field: 'discountCode', key: 'ticket.discountInvalid', text: null },
    });
  }
  // Discount codes tried per contact and address (item 8: 266 guesses in 1.5 s found two).
  const limited = await checkPurchaseLimits(c, { contact: who.vc.contact, kind: 'discount', triesCode: true });
  if (limited) return limitedReply(c, limited, p.input, (notice) => flashTo(c, back, { values: keep, notice }));
  try {
    const r = await upstreamFor(c.env).selectDiscountTicketByCode({
      expoId: p.params.expoId,
      ticketId,
      discountCode: code,
    });
    if (!r.ok) {
      // Unknown, used up or refused for any other reason: one code and one message (spec §5's
      // 'not available enough times'), so an answer never tells a guesser that a code exists.
      const message = t('form.discountTimes');
      const code = TicketCode.DISCOUNT_USED_UP;
      if (p.input.json) return json(c, { outcome: 'invalid', field: 'discountCode', message }, code, message);
      return flashTo(c, back, { values: keep, error: { field: 'discountCode', key: null, text: message } });
    }
    const formatted = formatPrice(r.data.price, marketOf(p.params.expoId).currency, lang);
    if (p.input.json) return json(c, { outcome: 'discount', price: r.data.price, formatted });
    return flashTo(c, back, {
      values: keep,
      notice: { tone: 'info', key: 'ticket.discountApplied', vars: { price: formatted }, text: null },
    });
  } catch (e) {
    return fault(c, p, back, e, keep);
  }
});
