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
import { encryptJson } from '../../../src/lib/contract/aes';
import { isSuccessCode } from '../../../src/lib/contract';
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
} from '../../../src/lib/contract';
import type { UpstreamCore } from '../core';
import type { TicketCalls, UpstreamResult, VerifiedBuyer } from '../../../src/lib/contract';


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
