/**
 * The purchase screens' data (spec §2.3 `/ticket`, `/ticketForm`, `/ticketSuccess`,
 * `/orderList`, `/orderDetails`; §3 ticket labels; §4 order states): what every one of them
 * shares (the verified contact of the page's expo as the buyer, the expo's market, the paths)
 * and each one's upstream reads: only the verified contact's own orders, never one read by
 * number alone. src/components/screens/Ticket*Screen.astro and Order*Screen.astro render them.
 * Pure over the upstream ports.
 */
import { contactLock } from '../form/contact';
import { newIdemKey } from '../form/idempotency';
import { inputNames, parseFormDefinition, type FormField } from '../form/schema';
import { provenFor } from '../lookup/contact-cookie';
import { decodeFlash, DRAFT_COOKIE } from '../page/flash';
import type { PathParams } from '../core/routes';
import { marketOf, type ExpoMarket } from '../tickets/money';
import { payNames, type PayNames } from '../tickets/pay-names';
import { preselectedPayType } from '../tickets/pay-default';
import { orderTotal, type OrderTotal } from '../tickets/total';
import { savedTimes } from '../expo/entry';
import { OFFLINE_UNTIL_HEADER, offlineUntil } from '../page/offline-copy';
import { copyMetaHeader, OFFLINE_COPY_HEADER } from '../page/offline-list';
import { ticketPaths } from '../tickets/paths';
import { effectiveStatus, MAX_QUANTITY, openFirst, saleState, ticketsAdmit, type Order, type RefundWindow, type SaleState, type Ticket } from '../tickets/tickets';
import { errorOf, pageForm, type PageNotice } from './form-state';
import { available, selfPath, type Buyer, type ScreenPage, type ScreenPorts } from './page';
import { defineScreen } from './define';

/** What every purchase screen shares. */
export interface TicketBase {
  params: PathParams;
  name: string | null;
  market: ExpoMarket;
  paths: ReturnType<typeof ticketPaths>;
  /** the notice a no-JS post flashed back to this exact page */
  notice: Omit<PageNotice, 'key'> | null;
  /** a refusal naming the refund's reason */
  reasonError: string | null;
  self: string;
  /** ms */
  now: number;
  /** the payment methods' names the organiser's config gives (src/lib/tickets/pay-names.ts) */
  payNames: PayNames;
}

function baseOf(page: ScreenPage, params: PathParams): TicketBase & { buyer: Buyer | null } {
  const vc = provenFor(page.contact, params.expoId);
  const self = selfPath(page.url);
  const form = pageForm(page.flash?.path === self ? page.flash : null, page.t);
  return {
    params,
    name: page.view.name,
    market: marketOf(params.expoId),
    paths: ticketPaths(params),
    notice: form.notice && form.notice.message !== '' ? { tone: form.notice.tone, message: form.notice.message } : null,
    reasonError: errorOf(form, 'reason'),
    self,
    now: page.now,
    payNames: payNames(page.config?.customerWx),
    buyer: vc ? { checkType: vc.checkType, contact: vc.contact } : null,
  };
}

const strip = <T extends { buyer: unknown }>({ buyer: _buyer, ...rest }: T): Omit<T, 'buyer'> => rest;

/** The contact's orders (null: the upstream failed; none without a buyer). */
async function ownOrders(ports: ScreenPorts, expoId: number, buyer: Buyer | null): Promise<Order[] | null> {
  return buyer ? available(ports.findOrderListByPhone({ expoId, buyer })) : [];
}

/** The contact's own order of that number, or null. */
async function ownOrder(ports: ScreenPorts, expoId: number, buyer: Buyer | null, orderNo: string): Promise<Order | null> {
  if (!buyer || !/^[A-Za-z0-9_-]{6,64}$/.test(orderNo)) return null;
  return (await ownOrders(ports, expoId, buyer))?.find((o) => o.orderNo === orderNo) ?? null;
}

export interface TicketListData extends TicketBase {
  kind: 'ticketList';
  /** the url's ticket list could not be read */
  listFailed: boolean;
  rows: { tk: Ticket; left: number | null; state: SaleState }[];
}

/** @example (await loadTicketList(page, ports, params)).rows.length */
export async function loadTicketList(page: ScreenPage, ports: ScreenPorts, params: PathParams): Promise<TicketListData> {
  const base = baseOf(page, params);
  const list = await available(ports.selectUrlsTicketList({ expoId: params.expoId, urlsId: params.fId }));
  const tickets = list ?? [];
  const surplus = await Promise.all(tickets.map((tk) => available(ports.checkSurplusTicket({ expoId: params.expoId, ticketId: tk.id }))));
  const rows = tickets.map((tk, i) => {
    const left = surplus[i]?.surplus ?? null;
    return { tk, left, state: saleState(tk, page.now, base.market.utcOffsetMinutes, left) };
  });
  return { ...strip(base), kind: 'ticketList', listFailed: list === null, rows };
}

export interface TicketFormData extends TicketBase {
  kind: 'ticketForm';
  status: 200 | 404;
  /** the url's ticket list could not be read */
  listFailed: boolean;
  ticket: Ticket | null;
  state: SaleState | null;
  surplus: number | null;
  maxQuantity: number;
  fields: FormField[];
  values: Record<string, string>;
  locked: string[];
  /** the form field a refusal names (its message under it) */
  errorField: string | undefined;
  /** a refusal naming quantity, discountCode or payType */
  ownError: { name: string; message: string } | null;
  error: { name: string; message: string } | null;
  quantity: number;
  payType: '1' | '2';
  idem: string;
  path: string;
  /** the discount check's answer, shown under the code's field (not at the top of the page) */
  discountResult: string | null;
  /** the code that check accepted, while it is still the one in the field */
  checkedCode: string | null;
  /** quantity × price (− the checked code's discount), shown above the pay button; null without a price */
  total: OrderTotal | null;
}

/** The discount check's success: /api/discount's notice (src/lib/actions/order.ts), routed to its field. */
const DISCOUNT_APPLIED = 'ticket.discountApplied';

/**
 * The discount a check of this page accepted: its price per ticket (minor units) and code, while
 * the field still holds that code. The flash is the visitor's own cookie: a forged one changes only
 * their own page's sum, never the order, whose total the upstream computes.
 */
function checkedDiscount(flash: ScreenPage['flash'], values: Record<string, string>): { code: string; unit: number } | null {
  const n = flash?.notice;
  if (!n || n.key !== DISCOUNT_APPLIED) return null;
  const unit = n.vars?.['unit'];
  const code = n.vars?.['code'];
  if (typeof unit !== 'number' || !Number.isSafeInteger(unit) || unit < 0 || typeof code !== 'string') return null;
  return code !== '' && (values['discountCode'] ?? '').trim() === code ? { code, unit } : null;
}

/** @example (await loadTicketForm(page, ports, params)).status // 404 without `?ticketId=` of the url */
export async function loadTicketForm(page: ScreenPage, ports: ScreenPorts, params: PathParams): Promise<TicketFormData> {
  const base = baseOf(page, params);
  const ticketId = Number(page.url.searchParams.get('ticketId') ?? '');
  const [list, surplusR, heldR] = await Promise.all([
    available(ports.selectUrlsTicketList({ expoId: params.expoId, urlsId: params.fId })),
    Number.isSafeInteger(ticketId) && ticketId > 0 ? available(ports.checkSurplusTicket({ expoId: params.expoId, ticketId })) : null,
    base.buyer ? available(ports.findUserBuyOrderNumByPhoneExpoId({ expoId: params.expoId, buyer: base.buyer })) : null,
  ]);
  const ticket = list?.find((x) => x.id === ticketId) ?? null;
  const surplus = surplusR?.surplus ?? null;
  const limit = ticket?.limitPerContact ? Math.max(0, ticket.limitPerContact - (heldR?.count ?? 0)) : MAX_QUANTITY;
  const fields = parseFormDefinition(page.config?.customerForm ?? null).fields;
  const lock = contactLock(fields, provenFor(page.contact, params.expoId), params.expoId);
  // The flash of a refused post, for this exact page only.
  const flash = page.flash?.path === base.self ? page.flash : null;
  const form = pageForm(flash, page.t);
  // What was typed before the proof ran out, kept while a new code was fetched (the order action's draft).
  const draft = base.buyer ? decodeFlash(page.cookie(DRAFT_COOKIE), base.self) : null;
  const values: Record<string, string> = { ...(draft?.values ?? {}), ...form.values, ...(lock?.values ?? {}) };
  const error = flash?.error ? { name: flash.error.field, message: form.errors[0]?.message ?? '' } : null;
  const applied = form.notice?.key === DISCOUNT_APPLIED ? form.notice.message : null;
  const checked = checkedDiscount(flash, values);
  const quantity = Number(values['quantity'] ?? '1') || 1;
  return {
    ...strip(base),
    // the check's answer goes under its field, not to the top of the page
    notice: applied !== null ? null : base.notice,
    discountResult: applied,
    checkedCode: checked?.code ?? null,
    total: ticket?.currentPrice != null ? orderTotal(quantity, ticket.currentPrice, checked?.unit ?? null) : null,
    kind: 'ticketForm',
    status: ticket ? 200 : 404,
    listFailed: list === null,
    ticket,
    state: ticket ? saleState(ticket, page.now, base.market.utcOffsetMinutes, surplus) : null,
    surplus,
    maxQuantity: Math.max(1, Math.min(MAX_QUANTITY, limit, surplus !== null && surplus > 0 ? surplus : MAX_QUANTITY)),
    fields,
    values,
    locked: lock?.locked ?? [],
    errorField: error ? fields.find((f) => inputNames(f).includes(error.name) || f.key === error.name)?.key : undefined,
    ownError: error && ['quantity', 'discountCode', 'payType'].includes(error.name) ? error : null,
    error,
    quantity,
    // the visitor's own choice, else the method of the browser the page opens in (issue 30)
    payType: preselectedPayType(page.userAgent, values['payType']),
    idem: newIdemKey(),
    path: `${params.fId}/${params.eid}/${params.ty}`,
  };
}

export interface OrderListData extends TicketBase {
  kind: 'orderList';
  /** null: the upstream failed */
  orders: Order[] | null;
}

/** @example (await loadOrderList(page, ports, params)).orders // [] without a verified contact */
export async function loadOrderList(page: ScreenPage, ports: ScreenPorts, params: PathParams): Promise<OrderListData> {
  const base = baseOf(page, params);
  return { ...strip(base), kind: 'orderList', orders: await ownOrders(ports, params.expoId, base.buyer) };
}

/** The purchase entry (spec §2.3 `/order`, fId, eid, ty): the ticket list of `/ticket` and the buyer's orders, open ones first. */
export interface OrderEntryData extends Omit<TicketListData, 'kind'> {
  kind: 'orderEntry';
  /** null: the upstream failed */
  orders: Order[] | null;
}

/** @example (await loadOrderEntry(page, ports, params)).orders // the buyer's orders, unpaid first */
export async function loadOrderEntry(page: ScreenPage, ports: ScreenPorts, params: PathParams): Promise<OrderEntryData> {
  const buyer = baseOf(page, params).buyer;
  const [list, orders] = await Promise.all([loadTicketList(page, ports, params), ownOrders(ports, params.expoId, buyer)]);
  return { ...list, kind: 'orderEntry', orders: orders && openFirst(orders, page.now, list.market.utcOffsetMinutes) };
}

export interface OrderData extends TicketBase {
  kind: 'orderDetails' | 'ticketSuccess';
  httpStatus: 200 | 404;
  order: Order | null;
  /** the order's state now (src/lib/tickets/tickets.ts effectiveStatus), null without an order */
  status: ReturnType<typeof effectiveStatus> | null;
  refund: RefundWindow | null;
  /** `?pay=` of the cashier's return */
  payOutcome: string | null;
  /** `{fId}/{eid}/{ty}` of the page */
  path: string;
  /**
   * A paid order's e-tickets are kept offline like a credential (src/lib/page/offline-copy.ts):
   * `X-Offline-Until` and what the copy is (src/lib/page/offline-list.ts); none for any other order
   */
  headers: Record<string, string>;
  /** the offline copy's "saved" line, both ways (src/lib/expo/entry.ts savedTimes), hidden until the worker serves the copy */
  saved: { today: string; later: string; dayEnd: number };
}

/** One order of the verified contact (`?orderNo=`): its details, or where the cashier returns. */
export async function loadOrder(
  page: ScreenPage,
  ports: ScreenPorts,
  params: PathParams,
  kind: OrderData['kind'],
): Promise<OrderData> {
  const base = baseOf(page, params);
  const orderNo = page.url.searchParams.get('orderNo') ?? '';
  const [order, refund] = await Promise.all([
    ownOrder(ports, params.expoId, base.buyer, orderNo),
    kind === 'orderDetails' ? available(ports.ifOpenRefund({ expoId: params.expoId })) : null,
  ]);
  const status = order ? effectiveStatus(order, page.now, base.market.utcOffsetMinutes) : null;
  const headers: Record<string, string> = {};
  // spec §2.3: a paid order's tickets admit; only its page is kept offline, until the expo's end plus a day.
  if (order && ticketsAdmit(status) && order.euCodes.length > 0) {
    headers[OFFLINE_UNTIL_HEADER] = String(offlineUntil(page.config?.expoInfo?.endTime, page.now));
    headers[OFFLINE_COPY_HEADER] = copyMetaHeader({ expo: params.expoId, kind: 'ticket', codes: order.euCodes, offset: base.market.utcOffsetMinutes, lang: page.lang });
  }
  const saved = savedTimes(page.now, base.market.utcOffsetMinutes, page.lang);
  return {
    ...strip(base),
    kind,
    httpStatus: order ? 200 : 404,
    order,
    status,
    headers,
    saved: { today: page.t('offlineLink.ticketSaved', { time: saved.today }), later: page.t('offlineLink.ticketSaved', { time: saved.later }), dayEnd: saved.dayEnd },
    refund,
    payOutcome: page.url.searchParams.get('pay'),
    path: `${params.fId}/${params.eid}/${params.ty}`,
  };
}

const TICKET_LOADERS = {
  ticket: loadTicketList,
  ticketForm: loadTicketForm,
  orderList: loadOrderList,
  order: loadOrderEntry,
  ticketSuccess: (page: ScreenPage, ports: ScreenPorts, params: PathParams) => loadOrder(page, ports, params, 'ticketSuccess'),
  orderDetails: (page: ScreenPage, ports: ScreenPorts, params: PathParams) => loadOrder(page, ports, params, 'orderDetails'),
} as const;

/** The purchase screens (spec §2.3 `/ticket` … `/orderDetails`): personal (the buyer's contact and orders). */
export const ticketScreen = defineScreen<'ticket', TicketListData | TicketFormData | OrderListData | OrderEntryData | OrderData>({
  name: 'ticket',
  components: { ticketList: 'TicketListScreen', ticketForm: 'TicketFormScreen', orderList: 'OrderListScreen', orderEntry: 'OrderEntryScreen', orderDetails: 'OrderScreen', ticketSuccess: 'OrderScreen' },
  load: (m, page, ports) => TICKET_LOADERS[m.which](page, ports, m.params),
  personal: true,
  missingIsNotFound: false,
  prepare: {},
});
