/**
 * Tickets, orders and refunds (docs/upstream.md "Tickets and orders", "Payments", "Refunds"):
 * call paths, codes and the shapes of what comes back, read loosely (loose.ts) and checked
 * against the ticket shapes (./ticket-shapes.ts, which src/lib/tickets/tickets.ts re-exports). A malformed entry of a list is dropped
 * rather than failing the page. Every path is relative to `{UPSTREAM_URL}/custom`.
 */
import { z } from 'zod';
import type * as domain from './ticket-shapes';
import { int, looseFields, looseInt, looseList, looseString, opt } from './loose';
import { under } from './wire';
import type { UpstreamResult } from './result';

export const TicketPath = {
  ...under('/customFrom', 'selectUrlsTicketList checkSurplusTicket selectDiscountTicketByCode findUserBuyOrderNumByPhoneExpoId'),
  ...under('/CustomerUserInfo', 'createOrderNew'),
  ...under('/customFrom', 'doUnifiedOrder getOrderStatus findOrderListByPhone deleteOrderById'),
  ...under('/customFrom', 'ifOpenRefund WxRefundJSAPIByOrderNo cancelRefundByOrderNo'),
  /** payNotify, beyond the original contract: the payment provider's signed notification */
  ...under('/customFrom', 'payNotify'),
};

/** The refusals of this area (docs/upstream.md "Codes"). */
export const TicketCode = {
  /** the discount code is used up ('not available enough times') */
  DISCOUNT_USED_UP: 20101,
  SOLD_OUT: 20102,
  /** over the ticket's `limitPerContact` */
  OVER_LIMIT: 20103,
  /** the ticket is not on sale now (before saleStart or after saleEnd) */
  NOT_ON_SALE: 20104,
  /** the order is not in a state that allows this (a refund already applied for, paid, cancelled, timed out …) */
  WRONG_STATE: 20105,
  /** refunds are closed, past the deadline, or a ticket of the order has been used */
  REFUND_REFUSED: 20106,
  /** the contact already has as many unpaid orders open as it may: pay or cancel one first */
  OPEN_ORDERS: 20107,
  /** payNotify: paid after the hold ended and the order cannot be honoured: marked for an automatic refund */
  LATE_REFUND: 20108,
  /** more than one contact may hold unpaid of what is left of a ticket; `msg` says "at most N" (our reading, issue 29) */
  HOLD_SHARE: 20109,
  /** the contact let an unpaid order of this ticket go a moment ago; `msg` says "in N min" (our reading, issue 29) */
  HOLD_COOLDOWN: 20110,
} as const;

/** Order states (docs/upstream.md "An order"). */
// prettier-ignore
export const OrderStatus = { UNPAID: 0, PENDING_REVIEW: 1, PAID: 2, CANCELLED: 3, TIMED_OUT: 4, REFUND_APPLIED: 5, REFUNDED: 6 } as const;

const text = looseString.pipe(z.string().min(1));

/** A list whose misshapen entries are dropped; missing or null reads as empty, anything else is not a list. */
const tolerantList = <T extends z.ZodType>(item: T) =>
  z
    .array(z.unknown())
    .nullish()
    .transform((items) => looseList(item, Number.MAX_SAFE_INTEGER).parse(items ?? []));

export const Ticket = z.object({
  id: int,
  ...looseFields('ticketName originalPrice:int currentPrice:int soldCount:int stock:int saleStart saleEnd'),
  ...looseFields('limitPerContact:int needReview:int'),
}) satisfies z.ZodType<domain.Ticket>;
export type Ticket = z.infer<typeof Ticket>;

/** selectUrlsTicketList's decrypted data. */
export const TicketList = z
  .object({ ticketList: tolerantList(Ticket) })
  .nullish()
  .transform((v) => v?.ticketList ?? []);

export const Surplus = z.object({ surplus: int });
export const DiscountPrice = z.object({ discountCode: opt(looseString), price: int });
export const BuyCount = z.object({ count: int });
export const CreatedOrder = z.object({ orderNo: text, totalFee: opt(looseInt), expireTime: opt(looseString) });
export type CreatedOrder = z.infer<typeof CreatedOrder>;

/** The messaging app's JS payment parameters (doUnifiedOrder, payType 1 inside the app). */
export const JsApi = z.object({
  appId: z.string(),
  timeStamp: looseString.pipe(z.string()),
  nonceStr: z.string(),
  package: z.string(),
  signType: z.string(),
  paySign: z.string(),
});
export type JsApi = z.infer<typeof JsApi>;

/** doUnifiedOrder: a cashier page, or the JS bridge's parameters. */
export const UnifiedOrder = z.union([
  z.object({ jsapi: JsApi }).transform((v) => ({ kind: 'jsapi' as const, jsapi: v.jsapi })),
  z.object({ payUrl: text }).transform((v) => ({ kind: 'payUrl' as const, payUrl: v.payUrl })),
]);
export type UnifiedOrder = z.infer<typeof UnifiedOrder>;

const Refund = z.object(looseFields('status:int reason applyTime doneTime')) satisfies z.ZodType<domain.Refund>;

export const Order = z.object({
  orderNo: text,
  ...looseFields('expoId:int ticketId:int ticketName quantity:int price:int discountCode totalFee:int payType:int'),
  ...looseFields('status:int createTime expireTime payTime'),
  refund: Refund.nullish()
    .catch(null)
    .transform((v) => v ?? null),
  euCodes: z
    .array(z.unknown())
    .nullish()
    .catch(null)
    .transform((v) => (v ?? []).filter((x): x is string => typeof x === 'string' && x !== '')),
}) satisfies z.ZodType<domain.Order>;
export type Order = z.infer<typeof Order>;

export const OrderList = tolerantList(Order);

export const RefundOpen = z.object({
  open: looseInt.transform((v) => v === 1),
  deadline: opt(looseString),
}) satisfies z.ZodType<domain.RefundWindow>;

// The calls of this area as the client answers them: the one declaration the client implements and src/lib picks its ports from.
/** The order fields of createOrderNew (docs/upstream.md); `values` become the encrypted `data`. */
export interface NewOrder {
  expoId: number;
  urlsId: number;
  ticketId: number;
  quantity: number;
  discountCode?: string | undefined;
  /** 1 messaging-app pay, 2 payment-app pay */
  payType: 1 | 2;
  /** the buyer's form values (as addUserInfo), the verified contact included */
  values: Readonly<Record<string, unknown>>;
}

/** A contact the edge verified: `checkType` 1 phone (full E.164), 2 e-mail (spec §2.1). */
export interface VerifiedBuyer {
  checkType: 1 | 2;
  contact: string;
}

export interface TicketCalls {
  /** `GET /customFrom/selectUrlsTicketList`: the tickets of a customer url (encrypted both ways). */
  selectUrlsTicketList(p: { expoId: number; urlsId: number }): Promise<UpstreamResult<Ticket[]>>;
  /** `GET /customFrom/checkSurplusTicket`: tickets left, `-1` unlimited. */
  checkSurplusTicket(p: { expoId: number; ticketId: number }): Promise<UpstreamResult<{ surplus: number }>>;
  /** `GET /customFrom/selectDiscountTicketByCode`: the price per ticket with the code; 20101 used up. */
  selectDiscountTicketByCode(p: {
    expoId: number;
    ticketId: number;
    discountCode: string;
  }): Promise<UpstreamResult<{ discountCode: string | null; price: number }>>;
  /** `GET /customFrom/findUserBuyOrderNumByPhoneExpoId`: tickets the contact holds or has reserved. */
  findUserBuyOrderNumByPhoneExpoId(p: {
    expoId: number;
    buyer: VerifiedBuyer;
  }): Promise<UpstreamResult<{ count: number }>>;
  /** `POST /CustomerUserInfo/createOrderNew`: an unpaid order holding its tickets; 20101, 20102, 20103 refusals. */
  createOrderNew(p: NewOrder): Promise<UpstreamResult<CreatedOrder>>;
  /** `POST /customFrom/doUnifiedOrder`: the cashier's `payUrl`, or the JS bridge's `jsapi`. */
  doUnifiedOrder(p: {
    expoId: number;
    orderNo: string;
    payType: 1 | 2;
    returnUrl: string;
    openId?: string | undefined;
  }): Promise<UpstreamResult<UnifiedOrder>>;
  /** `GET /customFrom/getOrderStatus`: one order. */
  getOrderStatus(p: { expoId: number; orderNo: string }): Promise<UpstreamResult<domain.Order>>;
  /** `GET /customFrom/findOrderListByPhone`: the contact's orders, newest first. */
  findOrderListByPhone(p: { expoId: number; buyer: VerifiedBuyer }): Promise<UpstreamResult<domain.Order[]>>;
  /** `POST /customFrom/deleteOrderById`: cancels an unpaid order. */
  deleteOrderById(p: { expoId: number; orderNo: string }): Promise<UpstreamResult<null>>;
  /** `GET /customFrom/ifOpenRefund`: whether refunds are open, and until when. */
  ifOpenRefund(p: { expoId: number }): Promise<UpstreamResult<domain.RefundWindow>>;
  /** `POST /customFrom/WxRefundJSAPIByOrderNo`: a paid order becomes refund applied. */
  WxRefundJSAPIByOrderNo(p: { expoId: number; orderNo: string; reason: string }): Promise<UpstreamResult<null>>;
  /** `POST /customFrom/cancelRefundByOrderNo`: refund applied goes back to paid. */
  cancelRefundByOrderNo(p: { expoId: number; orderNo: string }): Promise<UpstreamResult<null>>;
}
