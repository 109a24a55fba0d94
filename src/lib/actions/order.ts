/**
 * The purchase actions (docs/upstream.md "Tickets and orders"; spec §4 guard, §5 discount
 * message, §9 hold):
 *
 * - `order`: the buyer form → createOrderNew → doUnifiedOrder → the cashier's `payUrl` (303 on
 *   this site, a "continue to payment" page for another origin; JSON `navigate`, or `jsapi` for
 *   the messaging app's JS bridge).
 * - `orderAction`: cancel, refund (with a reason), cancel the refund, pay again.
 * - `discount`: checks a discount code before paying.
 *
 * Orders and discount checks count against the abuse limits per verified contact and client
 * address. Every action needs the verified contact of the page's expo (cookie `vc`), and the
 * upstream receives only that contact. An order is read or changed only when it is in that
 * contact's own order list (findOrderListByPhone): someone else's order number is refused like
 * an unknown one. Prices are never read from the post: the upstream computes every total.
 */
import { z } from 'zod';
import { CONTACT_COOKIE, expiredContact, lookupValues, provenFor, verifyContact, type ContactUse, type VerifiedContact } from '../lookup/contact-cookie';
import { DRAFT_COOKIE, DRAFT_MAX_AGE_S, displayText, encodeFlash } from '../page/flash';
import { contactLock } from '../form/contact';
import { parseFormDefinition } from '../form/schema';
import { validateForm } from '../form/validation';
import { formatPrice, marketOf } from '../tickets/money';
import { parsePathParams, type PathParams } from '../core/routes';
import { absoluteUrl, handoffPage, payTarget } from '../tickets/cashier';
import { ticketPaths } from '../tickets/paths';
import { DISCOUNT_CODE, HOLD_COOLDOWN_MINUTES, MAX_QUANTITY, ORDER_NO, OrderStatus, TicketCode, holdRefusalNumber, orderActions, type Order } from '../tickets/tickets';
import type { Lang } from '../core/languages';
import { redactPath } from '../ops/redact';
import type { Upstream, VerifiedBuyer } from '../contract';
import { defineAction, FaultAt, type ActionContext, type ActionOutcome, type CookieWrite } from './outcome';
import { limitOutcome, type LimitRefusal } from './limits';
import type { OrderOutcome } from './replies';

/** A contact the edge verified, as the upstream receives it (declared in the contract). */
export type { VerifiedBuyer };

/** The upstream calls of the purchase (their signatures: src/lib/contract/tickets.ts). */
export type OrderUpstream = Pick<
  Upstream,
  | 'getCustomerId'
  | 'createOrderNew'
  | 'doUnifiedOrder'
  | 'findOrderListByPhone'
  | 'ifOpenRefund'
  | 'deleteOrderById'
  | 'WxRefundJSAPIByOrderNo'
  | 'cancelRefundByOrderNo'
  | 'selectDiscountTicketByCode'
>;

export interface OrderPorts {
  up: OrderUpstream;
  /** SESSION_SECRET: signs the verified-contact cookie */
  secret: string;
  /** counts an order or a discount check (functions/limits `checkPurchaseLimits`); null: it may go on */
  limit(s: { contact: string; kind: 'order' | 'discount'; triesCode: boolean }): Promise<LimitRefusal | null>;
  /** the messaging app's openid, when the visitor is in its browser (the JS bridge pays with it) */
  openId: string | undefined;
  /** logs what only an operator can fix */
  log(message: string, detail: string): void;
}

/** Hidden fields the forms post about themselves; everything else of /api/order is a buyer value. */
const PAGE_FIELDS: ReadonlySet<string> = new Set(['path', 'ticketId', 'quantity', 'discountCode', 'payType', 'idem', 'orderNo', 'action', 'reason']);
const MAX_VALUE = 2000;

/** The page of the post (`path` = `{fId}/{eid}/{ty}`), or null for a page none of ours makes. */
function paramsOf(fields: Readonly<Record<string, string>>): PathParams | null {
  const path = (fields['path'] ?? '').trim();
  return path.length <= 120 ? parsePathParams(path.split('/').filter(Boolean)) : null;
}

/** Every field, the page parsed: a broken page is a broken request (400). */
const Page = z.record(z.string(), z.string()).transform((fields, ctx) => {
  const params = paramsOf(fields);
  if (params) return { fields, params };
  ctx.addIssue({ code: 'custom', message: 'not a page of ours' });
  return z.NEVER;
});
type Page = z.infer<typeof Page>;

const positive = z.string().trim().regex(/^\d{1,9}$/).transform(Number).pipe(z.number().int().positive());
const OrderFields = z.object({
  ticketId: positive,
  quantity: positive.pipe(z.number().max(MAX_QUANTITY)),
  discountCode: z.string().trim().default('').pipe(z.union([z.literal(''), z.string().regex(DISCOUNT_CODE)])),
  payType: z.enum(['1', '2']).transform((v) => Number(v) as 1 | 2),
});
const ActionFields = z.object({
  orderNo: z.string().trim().regex(ORDER_NO),
  action: z.enum(['cancel', 'refund', 'cancelRefund', 'pay']),
  reason: z.string().trim().max(500).default(''),
});

/** The posted ticket, when it is one. */
function ticketIdOf(fields: Readonly<Record<string, string>>): number | null {
  const id = Number(fields['ticketId']);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The buyer form of the ticket (or the ticket list): where the order and the discount check come back to. */
function formBack(fields: Readonly<Record<string, string>>): string {
  const params = paramsOf(fields);
  if (!params) return fields['back'] ?? '';
  const paths = ticketPaths(params);
  const ticketId = ticketIdOf(fields);
  return ticketId !== null ? paths.form(ticketId) : paths.list;
}

/** The buyer's typed values and the form's own choices, refilled when the form comes back. */
function buyerValues(fields: Readonly<Record<string, string>>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) if (!PAGE_FIELDS.has(k) && k.length <= 64) values[k] = v.slice(0, MAX_VALUE);
  return values;
}
function keepBuyer(fields: Readonly<Record<string, string>>): Record<string, string> {
  return {
    ...buyerValues(fields),
    quantity: (fields['quantity'] ?? '').slice(0, 8),
    discountCode: (fields['discountCode'] ?? '').slice(0, 40),
    payType: (fields['payType'] ?? '').slice(0, 2),
  };
}

type Outcome = ActionOutcome<OrderOutcome>;

/** A field the visitor must correct: JSON 400 with the field (the island focuses it). */
function invalid(field: string, message: string, form: { key: string | null; text: string | null }, code = 400): Outcome {
  return {
    kind: 'invalid',
    errors: [{ field, ...form }],
    status: code === 400 ? 400 : 200,
    code,
    data: { outcome: 'invalid', field, message },
  };
}

/** A refusal shown on the page (`to`: another page, without the typed values); JSON 200 with the code (403 as is). */
function refused(message: string, code: number, more: { to?: string; values?: Record<string, string> } = {}): Outcome {
  return {
    kind: 'notice',
    notice: { tone: 'error', key: null, text: message },
    ...more,
    status: code === 403 ? 403 : 200,
    code,
    data: { outcome: 'refused', message },
  };
}

/**
 * The translated text of a known refusal code, else the upstream's message. The hold refusals
 * (docs/upstream.md "Open orders") carry a number in their message: how many one contact may
 * hold, or the minutes to wait; without it, the share reads as over the per-person limit and the
 * wait as the documented 15 minutes.
 */
function refusedText(t: ActionContext['t'], code: number, msg: string | null): string {
  const known: Readonly<Record<number, string>> = {
    [TicketCode.DISCOUNT_USED_UP]: 'form.discountTimes',
    [TicketCode.SOLD_OUT]: 'ticket.soldOutError',
    [TicketCode.OVER_LIMIT]: 'ticket.overLimit',
    [TicketCode.OPEN_ORDERS]: 'ticket.openOrder',
  };
  if (code === TicketCode.HOLD_SHARE) {
    const n = holdRefusalNumber(code, msg);
    return n === null ? t('ticket.overLimit') : t('ticket.holdShare', { n });
  }
  if (code === TicketCode.HOLD_COOLDOWN) return t('ticket.holdCooldown', { n: holdRefusalNumber(code, msg) ?? HOLD_COOLDOWN_MINUTES });
  const key = known[code];
  return key ? t(key) : displayText(msg?.trim() || t('error.generic'));
}

/** The buyer form's `draft` (src/lib/page/flash.ts): what was typed, on the form page's own path, for a form window. */
function buyerDraft(fields: Readonly<Record<string, string>>, back: string): CookieWrite {
  return { name: DRAFT_COOKIE, value: encodeFlash({ path: back, values: keepBuyer(fields) }), path: draftPathOf(back), maxAge: DRAFT_MAX_AGE_S };
}
/** The path a form page's draft cookie is set on: the page without its query. */
const draftPathOf = (back: string): string => back.split('?')[0] ?? back;

/**
 * The verified contact of the page's expo, or the answer that sends the visitor to verify (spec §4
 * guard). A post of the buyer form (`form`: the order and the discount check) reads it for the
 * form's own window (`register`, as the registration form does: the 10 minutes after the proof
 * are not enough to fill it in); when that ran out too, the lookup says so (`form.expired`), with
 * the contact filled in when the browser still holds the expired proof, every typed value kept in
 * the draft cookie of the form's page, which the new code leads back to (issue 30). The buyer form
 * is only ever shown to a proven contact of its expo, so a post of it without one is a proof that
 * ran out (or whose cookie the browser has since dropped). An order page's post (`form` false)
 * reads the 10-minute window and asks to verify.
 */
async function buyerOf(
  page: Page,
  back: string,
  ports: OrderPorts,
  ctx: ActionContext,
  form: boolean,
): Promise<{ vc: VerifiedContact; buyer: VerifiedBuyer } | Outcome> {
  const use: ContactUse = form ? 'register' : 'read';
  const vc = provenFor(await verifyContact(ctx.cookies[CONTACT_COOKIE], ports.secret, ctx.now, use), page.params.expoId);
  if (vc) return { vc, buyer: { checkType: vc.checkType, contact: vc.contact } };
  const location = ticketPaths(page.params).verify(back);
  if (form) {
    const old = provenFor(await expiredContact(ctx.cookies[CONTACT_COOKIE], ports.secret, ctx.now).catch(() => null), page.params.expoId);
    return {
      kind: 'notice',
      notice: { tone: 'info', key: 'form.expired', text: null },
      to: location,
      values: old ? lookupValues(old) : {},
      // an island follows `location` itself: the lookup shows the notice with the contact filled in
      flashWithJson: true,
      status: 401,
      cookies: [buyerDraft(page.fields, back)],
      code: 401,
      data: { outcome: 'navigate', location },
    };
  }
  return {
    kind: 'notice',
    notice: { tone: 'error', key: 'form.verifyFirst', text: null },
    to: location,
    status: 401,
    code: 401,
    data: { outcome: 'navigate', location },
  };
}

/**
 * Starts payment of an order the contact owns. `returnUrl` is this site's absolute URL (the
 * provider lives on its own host). The cashier is reached with JavaScript on or off: a cashier on
 * this site by `303`; one on another origin by a page of ours that links and meta-refreshes to it
 * (src/lib/tickets/cashier.ts: `form-action 'self'` blocks a cross-origin redirect after a form
 * post); JSON callers get the URL to navigate to. Refusals go to `back`, without typed values.
 */
async function startPayment(page: Page, orderNo: string, payType: 1 | 2, back: string, ports: OrderPorts, ctx: ActionContext): Promise<Outcome> {
  const successPath = ticketPaths(page.params).success(orderNo);
  const returnUrl = absoluteUrl(successPath, ctx.origin);
  const openId = payType === 1 ? ports.openId : undefined;
  const r = await ports.up.doUnifiedOrder({ expoId: page.params.expoId, orderNo, payType, returnUrl, openId });
  if (!r.ok) return refused(refusedText(ctx.t, r.code, r.msg), r.code, { to: back });
  if (r.data.kind === 'jsapi') {
    // Without JS the bridge cannot run: the order page, where "pay" offers the cashier.
    return { kind: 'navigate', location: successPath, data: { outcome: 'jsapi', jsapi: r.data.jsapi, returnUrl } };
  }
  const target = payTarget(r.data.payUrl);
  if (!target) {
    // its scheme and host, never its path or query (they may name the order, the buyer or our own credential link)
    ports.log('doUnifiedOrder answered an unusable payUrl (only http(s) URLs and site paths are followed)', redactPath(r.data.payUrl));
    return refused(ctx.t('error.relatedData'), 502, { to: back });
  }
  const location = target.kind === 'site' ? target.location : target.url;
  const data = { outcome: 'navigate' as const, location };
  if (target.kind === 'site') return { kind: 'navigate', location, data };
  const html = handoffPage({
    lang: ctx.lang,
    title: ctx.t('order.toCashier'),
    lead: ctx.t('order.toCashierLead', { host: target.host }),
    link: ctx.t('order.toCashier'),
    url: target.url,
  });
  return { kind: 'navigate', location, html, data };
}

/**
 * The form's idempotency key: the posted one (one per form view), else one derived from the
 * contact and the whole post within a 10-minute window, so identical posts make one order.
 */
export async function idemKey(vc: Pick<VerifiedContact, 'expoId' | 'contact'>, fields: Readonly<Record<string, string>>, now: number): Promise<string> {
  const posted = (fields['idem'] ?? '').trim();
  if (/^[A-Za-z0-9_-]{16,64}$/.test(posted)) return posted;
  const bucket = Math.floor(now / 600_000);
  const text = JSON.stringify([vc.expoId, vc.contact, bucket, Object.entries(fields).sort()]);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return `d${Array.from(digest.slice(0, 16), (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** The order when the contact owns it: it is in their own list (never trust a posted number). */
async function ownOrder(up: OrderUpstream, expoId: number, buyer: VerifiedBuyer, orderNo: string): Promise<Order | null> {
  const list = await up.findOrderListByPhone({ expoId, buyer });
  return list.ok ? (list.data.find((o) => o.orderNo === orderNo) ?? null) : null;
}

/** The buyer form's failing field, in the order the form shows them. */
const ORDER_FIELD_KEYS: Readonly<Record<string, string>> = { discountCode: 'ticket.discountInvalid', payType: 'ticket.payTypeRequired' };

/** What the buyer form's posts share: the whole registration form plus four fields, and the form to come back to. */
const buyerForm = {
  bodyLimit: 64 * 1024,
  input: Page,
  back: formBack,
  keep: keepBuyer,
  // a refused post's values survive a reload of the buyer form (issue 30)
  draftPath: (fields: Readonly<Record<string, string>>) => (paramsOf(fields) && ticketIdOf(fields) !== null ? draftPathOf(formBack(fields)) : null),
};

export const order = defineAction({
  ...buyerForm,
  path: '/api/order',
  async run(page, ports: OrderPorts, ctx): Promise<Outcome> {
    const { t } = ctx;
    const back = formBack(page.fields);
    const who = await buyerOf(page, back, ports, ctx, true);
    if ('kind' in who) return who;
    const f = OrderFields.safeParse(page.fields);
    if (!f.success) {
      const field = String(f.error.issues[0]?.path[0] ?? 'quantity');
      const message = t(ORDER_FIELD_KEYS[field] ?? 'ticket.quantityInvalid');
      return invalid(field, message, { key: null, text: message });
    }
    const { vc } = who;
    const { expoId, fId, ty } = page.params;
    const config = await ports.up.getCustomerId({ expoId, fId, ty });
    if (!config.ok) return refused(refusedText(t, config.code, config.msg), config.code);
    const fields = parseFormDefinition(config.data.customerForm).fields;
    const lock = contactLock(fields, vc, expoId);
    const checked = validateForm(fields, { ...buyerValues(page.fields), ...lock?.values }, { lang: ctx.lang as Lang });
    if (!checked.ok) {
      const { name, message: key } = checked.failure;
      return invalid(name, t(key), { key, text: null });
    }
    // Orders per contact and address, before the upstream sees the order.
    const limited = await ports.limit({ contact: vc.contact, kind: 'order', triesCode: f.data.discountCode !== '' });
    if (limited) return limitOutcome(limited) as Outcome;
    // The verified contact only, whatever was posted for it (docs/upstream.md: the edge sends only a verified contact).
    const contact = vc.checkType === 1 ? { phone: vc.contact, checkType: 1 } : { email: vc.contact, checkType: 2 };
    const created = await ports.up.createOrderNew({
      expoId,
      urlsId: fId,
      ticketId: f.data.ticketId,
      quantity: f.data.quantity,
      discountCode: f.data.discountCode || undefined,
      payType: f.data.payType,
      values: { ...checked.data, ...contact, idem: await idemKey(vc, page.fields, ctx.now) },
    });
    if (!created.ok) {
      // An unknown code reads like a used-up one: the order form is no oracle.
      if (f.data.discountCode && (created.code === TicketCode.DISCOUNT_USED_UP || created.code === 404))
        return refused(t('form.discountTimes'), TicketCode.DISCOUNT_USED_UP);
      return refused(refusedText(t, created.code, created.msg), created.code);
    }
    // From here the order exists: any failure leads to its page, where it can be paid while the hold lasts.
    const details = ticketPaths(page.params).details(created.data.orderNo);
    try {
      const paying = await startPayment(page, created.data.orderNo, f.data.payType, details, ports, ctx);
      // The order holds what was typed now: a draft kept while the proof was renewed is done with.
      const draftGone = { name: DRAFT_COOKIE, value: null, path: draftPathOf(back) };
      return { ...paying, cookies: [...(paying.cookies ?? []), draftGone] };
    } catch (e) {
      throw new FaultAt(details, e);
    }
  },
});

/** The notice of each done order action. */
const DONE: Readonly<Record<'cancel' | 'refund' | 'cancelRefund', string>> = {
  cancel: 'order.cancelDone',
  refund: 'order.refundDone',
  cancelRefund: 'order.cancelRefundDone',
};

export const orderAction = defineAction({
  path: '/api/order/action',
  bodyLimit: 8 * 1024,
  input: Page,
  back(fields) {
    const params = paramsOf(fields);
    if (!params) return fields['back'] ?? '';
    const orderNo = (fields['orderNo'] ?? '').trim();
    const paths = ticketPaths(params);
    return ORDER_NO.test(orderNo) ? paths.details(orderNo) : paths.orders;
  },
  async run(page, ports: OrderPorts, ctx): Promise<Outcome> {
    const { t } = ctx;
    const a = ActionFields.safeParse(page.fields);
    if (!a.success) {
      // The island is told the order is unknown; a form post gets the page for a broken request.
      return { kind: 'broken', message: t('api.badPage'), data: { outcome: 'refused', message: t('order.unknown') } };
    }
    const { orderNo, action, reason } = a.data;
    const { expoId } = page.params;
    const paths = ticketPaths(page.params);
    const back = paths.details(orderNo);
    const who = await buyerOf(page, back, ports, ctx, false);
    if ('kind' in who) return who;
    const own = await ownOrder(ports.up, expoId, who.buyer, orderNo);
    // Someone else's order is not described: the same answer as an unknown one.
    if (!own) return refused(t('order.notYours'), 403, { to: paths.orders });
    const refund = action === 'refund' ? await ports.up.ifOpenRefund({ expoId }) : null;
    const allowed = orderActions(own, refund?.ok ? refund.data : null, ctx.now, marketOf(expoId).utcOffsetMinutes);
    if (!allowed[action]) return refused(t(action === 'refund' ? 'order.refundClosed' : 'order.notAllowed'), 409);
    if (action === 'pay') return startPayment(page, orderNo, own.payType === 1 ? 1 : 2, back, ports, ctx);
    if (action === 'refund' && reason === '') return invalid('reason', t('order.reasonRequired'), { key: 'order.reasonRequired', text: null });
    const r =
      action === 'cancel'
        ? await ports.up.deleteOrderById({ expoId, orderNo })
        : action === 'refund'
          ? await ports.up.WxRefundJSAPIByOrderNo({ expoId, orderNo, reason })
          : await ports.up.cancelRefundByOrderNo({ expoId, orderNo });
    if (!r.ok) {
      // A parallel application won: say so, not what the upstream guessed.
      const after = action === 'refund' ? await ownOrder(ports.up, expoId, who.buyer, orderNo) : null;
      const applied = after?.status === OrderStatus.REFUND_APPLIED || after?.status === OrderStatus.REFUNDED;
      const message = applied ? t('order.refundAlreadyApplied') : refusedText(t, r.code, r.msg);
      return refused(message, r.code, action === 'refund' ? { values: { reason } } : {});
    }
    const key = DONE[action];
    return {
      kind: 'notice',
      notice: { tone: 'info', key, text: null },
      data: { outcome: 'navigate', location: back },
    };
  },
});

/** The id of the buyer form's discount field (src/components/screens/TicketFormScreen.astro). */
export const DISCOUNT_ANCHOR = 'discount';

export const discount = defineAction({
  ...buyerForm,
  path: '/api/discount',
  async run(page, ports: OrderPorts, ctx): Promise<Outcome> {
    const { t } = ctx;
    const who = await buyerOf(page, formBack(page.fields), ports, ctx, true);
    if ('kind' in who) return who;
    const ticketId = ticketIdOf(page.fields);
    const code = (page.fields['discountCode'] ?? '').trim();
    if (ticketId === null || !DISCOUNT_CODE.test(code))
      return invalid('discountCode', t('ticket.discountInvalid'), { key: 'ticket.discountInvalid', text: null });
    // Discount codes tried per contact and address (266 guesses in 1.5 s found two).
    const limited = await ports.limit({ contact: who.vc.contact, kind: 'discount', triesCode: true });
    if (limited) return limitOutcome(limited) as Outcome;
    const r = await ports.up.selectDiscountTicketByCode({ expoId: page.params.expoId, ticketId, discountCode: code });
    if (!r.ok) {
      // Unknown, used up or refused for any other reason: one code and one message (spec §5's
      // 'not available enough times'), so an answer never tells a guesser that a code exists.
      const message = t('form.discountTimes');
      return invalid('discountCode', message, { key: null, text: message }, TicketCode.DISCOUNT_USED_UP);
    }
    const formatted = formatPrice(r.data.price, marketOf(page.params.expoId).currency, ctx.lang as Lang);
    return {
      kind: 'notice',
      // `unit` and `code` let the page add up its total with the code (src/lib/screens/tickets.ts)
      notice: { tone: 'info', key: 'ticket.discountApplied', vars: { price: formatted, unit: r.data.price, code }, text: null },
      // a form post comes back at the code's field, where the answer is shown
      anchor: DISCOUNT_ANCHOR,
      // the island shows the price from `data`
      msg: null,
      data: { outcome: 'discount', price: r.data.price, formatted },
    };
  },
});
