/**
 * The organiser's ticket shapes (docs/upstream.md "Tickets and orders"), the product's types too:
 * src/lib/tickets/tickets.ts re-exports them; the wire schemas of ./tickets.ts read replies into them.
 * Declared with the contract, below every folder of src/lib.
 */
/** A ticket of `selectUrlsTicketList`; any field may be missing in a real reply (null). */
export interface Ticket {
  id: number;
  ticketName: string | null;
  /** minor units */
  originalPrice: number | null;
  /** minor units */
  currentPrice: number | null;
  soldCount: number | null;
  /** 0 = unlimited */
  stock: number | null;
  /** expo-local "YYYY-MM-DD HH:mm:ss" */
  saleStart: string | null;
  saleEnd: string | null;
  /** 0 or null: no limit */
  limitPerContact: number | null;
  /** 1: a paid order waits for the organiser's review */
  needReview: number | null;
}
/** An order's refund record (spec §3 'refund record'). */
export interface Refund {
  /** 0 applied, 1 refunded, 2 application withdrawn (the reference's reading) */
  status: number | null;
  reason: string | null;
  applyTime: string | null;
  doneTime: string | null;
}
/** An order (docs/upstream.md "An order"). */
export interface Order {
  orderNo: string;
  expoId: number | null;
  ticketId: number | null;
  ticketName: string | null;
  quantity: number | null;
  /** per ticket, minor units (with the discount) */
  price: number | null;
  discountCode: string | null;
  totalFee: number | null;
  /** 1 messaging-app pay, 2 payment-app pay */
  payType: number | null;
  status: number | null;
  createTime: string | null;
  expireTime: string | null;
  payTime: string | null;
  refund: Refund | null;
  euCodes: string[];
}
/** The refund window of an expo (ifOpenRefund). */
export interface RefundWindow {
  open: boolean;
  /** expo-local; null: no deadline */
  deadline: string | null;
}
