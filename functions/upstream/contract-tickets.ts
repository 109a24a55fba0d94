/**
 * The wire side of docs/upstream.md "Tickets and orders": call paths and the shapes of what comes
 * back, read loosely (numbers as strings, missing fields as null; docs/upstream.md "Records") and
 * checked against the domain types of src/lib/tickets/tickets.ts. A malformed entry of a list is
 * dropped rather than failing the page.
 */
import { z } from 'zod';
import type * as domain from '../../src/lib/tickets/tickets';

/** Every call path of this part, relative to `{UPSTREAM_URL}/custom`. */
export const TicketPath = {
  selectUrlsTicketList: '/customFrom/selectUrlsTicketList',
  checkSurplusTicket: '/customFrom/checkSurplusTicket',
  selectDiscountTicketByCode: '/customFrom/selectDiscountTicketByCode',
  findUserBuyOrderNumByPhoneExpoId: '/customFrom/findUserBuyOrderNumByPhoneExpoId',
  createOrderNew: '/CustomerUserInfo/createOrderNew',
  doUnifiedOrder: '/customFrom/doUnifiedOrder',
  getOrderStatus: '/customFrom/getOrderStatus',
  findOrderListByPhone: '/customFrom/findOrderListByPhone',
  deleteOrderById: '/customFrom/deleteOrderById',
  ifOpenRefund: '/customFrom/ifOpenRefund',
  WxRefundJSAPIByOrderNo: '/customFrom/WxRefundJSAPIByOrderNo',
  cancelRefundByOrderNo: '/customFrom/cancelRefundByOrderNo',
  /** ours, beyond the contract (README): the payment provider's signed notification */
  payNotify: '/customFrom/payNotify',
} as const;

const looseInt = z.preprocess((v) => {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v.trim());
  return null;
}, z.number().int().nullable());
const looseString = z.preprocess((v) => {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}, z.string().nullable());
const opt = <T extends z.ZodType>(s: T) => s.optional().transform((v) => (v === undefined ? null : v));
const int = looseInt.pipe(z.number().int());
const text = looseString.pipe(z.string().min(1));

/** A list whose misshapen entries are dropped. */
const tolerantList = <T extends z.ZodType>(item: T) =>
  z
    .array(z.unknown())
    .nullish()
    .transform((items) =>
      (items ?? []).flatMap((x) => {
        const r = item.safeParse(x);
        return r.success ? [r.data as z.output<T>] : [];
      }),
    );

export const Ticket = z.object({
  id: int,
  ticketName: opt(looseString),
  originalPrice: opt(looseInt),
  currentPrice: opt(looseInt),
  soldCount: opt(looseInt),
  stock: opt(looseInt),
  saleStart: opt(looseString),
  saleEnd: opt(looseString),
  limitPerContact: opt(looseInt),
  needReview: opt(looseInt),
}) satisfies z.ZodType<domain.Ticket>;

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

const Refund = z.object({
  status: opt(looseInt),
  reason: opt(looseString),
  applyTime: opt(looseString),
  doneTime: opt(looseString),
}) satisfies z.ZodType<domain.Refund>;

export const Order = z.object({
  orderNo: text,
  expoId: opt(looseInt),
  ticketId: opt(looseInt),
  ticketName: opt(looseString),
  quantity: opt(looseInt),
  price: opt(looseInt),
  discountCode: opt(looseString),
  totalFee: opt(looseInt),
  payType: opt(looseInt),
  status: opt(looseInt),
  createTime: opt(looseString),
  expireTime: opt(looseString),
  payTime: opt(looseString),
  refund: Refund.nullish()
    .catch(null)
    .transform((v) => v ?? null),
  euCodes: z
    .array(z.unknown())
    .nullish()
    .catch(null)
    .transform((v) => (v ?? []).filter((x): x is string => typeof x === 'string' && x !== '')),
}) satisfies z.ZodType<domain.Order>;

export const OrderList = tolerantList(Order);

export const RefundOpen = z.object({
  open: looseInt.transform((v) => v === 1),
  deadline: opt(looseString),
}) satisfies z.ZodType<domain.RefundWindow>;
