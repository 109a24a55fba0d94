/**
 * The calls of docs/upstream.md "Tickets and orders", one typed method each, on the shared core
 * (core.ts). Replies are read through contract/tickets.ts; refusals (20101 code used up, 20102
 * sold out, 20103 over the limit, anything else) come back as values, transport faults are
 * thrown as UpstreamError like every other call.
 *
 * Contacts: the edge sends only a contact it verified with a code (docs/upstream.md "Seats,
 * tickets, orders"): `phone` full E.164 or `email`.
 */
import { z } from 'zod';
import { encryptJson } from '../contract/aes';
import { isSuccessCode } from '../contract';
import {
  BuyCount,
  CreatedOrder,
  DiscountPrice,
  Order,
  OrderList,
  RefundOpen,
  Surplus,
  TicketList,
  TicketPath,
  UnifiedOrder,
} from '../contract';
import type { UpstreamCore } from '../core';
import type { UpstreamResult } from '../result';
import type { Order as OrderT, RefundWindow, Ticket } from '../../../src/lib/tickets/tickets';
import type { NewOrder } from '../../../src/lib/actions/order';

/** A contact the edge verified: `checkType` 1 phone (full E.164), 2 e-mail (spec §2.1). */
export interface VerifiedBuyer {
  checkType: 1 | 2;
  contact: string;
}

/** The order fields of createOrderNew: declared once, with the purchase action that sends them. */
export type { NewOrder } from '../../../src/lib/actions/order';

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
  getOrderStatus(p: { expoId: number; orderNo: string }): Promise<UpstreamResult<OrderT>>;
  /** `GET /customFrom/findOrderListByPhone`: the contact's orders, newest first. */
  findOrderListByPhone(p: { expoId: number; buyer: VerifiedBuyer }): Promise<UpstreamResult<OrderT[]>>;
  /** `POST /customFrom/deleteOrderById`: cancels an unpaid order. */
  deleteOrderById(p: { expoId: number; orderNo: string }): Promise<UpstreamResult<null>>;
  /** `GET /customFrom/ifOpenRefund`: whether refunds are open, and until when. */
  ifOpenRefund(p: { expoId: number }): Promise<UpstreamResult<RefundWindow>>;
  /** `POST /customFrom/WxRefundJSAPIByOrderNo`: a paid order becomes refund applied. */
  WxRefundJSAPIByOrderNo(p: { expoId: number; orderNo: string; reason: string }): Promise<UpstreamResult<null>>;
  /** `POST /customFrom/cancelRefundByOrderNo`: refund applied goes back to paid. */
  cancelRefundByOrderNo(p: { expoId: number; orderNo: string }): Promise<UpstreamResult<null>>;
}

/** The query of a verified contact: `phone` or `email`. */
const contactQuery = (b: VerifiedBuyer): Record<string, string> =>
  b.checkType === 1 ? { phone: b.contact } : { email: b.contact };

/** The ticket calls on a core. */
export function ticketCalls(core: UpstreamCore): TicketCalls {
  const { call, read, readEncrypted, encryptParams, aesKeyOf, plainCall, ok, refused } = core;

  /** A GET whose data is read through a schema. */
  async function get<S extends z.ZodType>(
    path: string,
    expoId: number,
    query: Record<string, string>,
    schema: S,
  ): Promise<UpstreamResult<z.output<S>>> {
    const env = await call(path, expoId, { method: 'GET', query });
    return isSuccessCode(env.code) ? ok(env, read(path, schema, env.data)) : refused(env);
  }

  return {
    async selectUrlsTicketList({ expoId, urlsId }) {
      const path = TicketPath.selectUrlsTicketList;
      const aesKey = await aesKeyOf(expoId);
      const query = await encryptParams({ expoId: String(expoId), urlsId: String(urlsId) }, aesKey);
      const env = await call(path, expoId, { method: 'GET', query });
      if (!isSuccessCode(env.code)) return refused(env);
      // No tickets may come as empty data rather than an encrypted empty list.
      if (env.data === null || env.data === undefined || env.data === '') return ok(env, []);
      return ok(env, await readEncrypted(path, expoId, aesKey, TicketList, env.data));
    },

    checkSurplusTicket({ expoId, ticketId }) {
      return get(
        TicketPath.checkSurplusTicket,
        expoId,
        { expoId: String(expoId), ticketId: String(ticketId) },
        Surplus,
      );
    },

    selectDiscountTicketByCode({ expoId, ticketId, discountCode }) {
      return get(
        TicketPath.selectDiscountTicketByCode,
        expoId,
        { expoId: String(expoId), ticketId: String(ticketId), discountCode },
        DiscountPrice,
      );
    },

    findUserBuyOrderNumByPhoneExpoId({ expoId, buyer }) {
      return get(
        TicketPath.findUserBuyOrderNumByPhoneExpoId,
        expoId,
        { expoId: String(expoId), ...contactQuery(buyer) },
        BuyCount,
      );
    },

    async createOrderNew({ expoId, urlsId, ticketId, quantity, discountCode, payType, values }) {
      const path = TicketPath.createOrderNew;
      const aesKey = await aesKeyOf(expoId);
      const data = await encryptJson(values, aesKey);
      const body: Record<string, unknown> = { expoId, urlsId, ticketId, quantity, payType, data };
      if (discountCode) body['discountCode'] = discountCode;
      const env = await call(path, expoId, { method: 'POST', body });
      return isSuccessCode(env.code) ? ok(env, read(path, CreatedOrder, env.data)) : refused(env);
    },

    async doUnifiedOrder({ expoId, orderNo, payType, returnUrl, openId }) {
      const path = TicketPath.doUnifiedOrder;
      const body: Record<string, unknown> = { expoId, orderNo, payType, returnUrl };
      if (openId) body['openId'] = openId;
      const env = await call(path, expoId, { method: 'POST', body });
      return isSuccessCode(env.code) ? ok(env, read(path, UnifiedOrder, env.data)) : refused(env);
    },

    getOrderStatus({ expoId, orderNo }) {
      return get(TicketPath.getOrderStatus, expoId, { expoId: String(expoId), orderNo }, Order);
    },

    findOrderListByPhone({ expoId, buyer }) {
      return get(
        TicketPath.findOrderListByPhone,
        expoId,
        { expoId: String(expoId), ...contactQuery(buyer) },
        OrderList,
      );
    },

    deleteOrderById({ expoId, orderNo }) {
      return plainCall(TicketPath.deleteOrderById, expoId, { method: 'POST', body: { expoId, orderNo } });
    },

    ifOpenRefund({ expoId }) {
      return get(TicketPath.ifOpenRefund, expoId, { expoId: String(expoId) }, RefundOpen);
    },

    WxRefundJSAPIByOrderNo({ expoId, orderNo, reason }) {
      return plainCall(TicketPath.WxRefundJSAPIByOrderNo, expoId, {
        method: 'POST',
        body: { expoId, orderNo, reason },
      });
    },

    cancelRefundByOrderNo({ expoId, orderNo }) {
      return plainCall(TicketPath.cancelRefundByOrderNo, expoId, { method: 'POST', body: { expoId, orderNo } });
    },
  };
}
