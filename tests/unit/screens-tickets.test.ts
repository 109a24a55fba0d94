import { describe, expect, it } from 'vitest';
import { loadOrder, loadOrderList, loadTicketForm, loadTicketList } from '../../src/lib/screens/tickets';
import type { Order, Ticket } from '../../src/lib/tickets/tickets';
import { readCopyMeta } from '../../src/lib/page/offline-list';
import { contact, flash, ok, page, paramsOf, pathOf, ports } from './screens-helpers';

const params = paramsOf(1308);
const ticket: Ticket = {
  id: 5,
  ticketName: 'Day pass',
  originalPrice: 1000,
  currentPrice: 800,
  soldCount: 1,
  stock: 0,
  saleStart: '2025-01-01 00:00:00',
  saleEnd: '2099-01-01 00:00:00',
  limitPerContact: 4,
  needReview: 0,
};
const order: Order = {
  orderNo: 'ORD123456',
  expoId: 1308,
  ticketId: 5,
  ticketName: 'Day pass',
  quantity: 1,
  price: 800,
  discountCode: null,
  totalFee: 800,
  payType: 2,
  status: 2,
  createTime: '2025-06-01 10:00:00',
  expireTime: null,
  payTime: '2025-06-01 10:01:00',
  refund: null,
  euCodes: ['EU1'],
};

describe('loadTicketList', () => {
  it('each ticket with its places left and sale state', async () => {
    const p = ports({ selectUrlsTicketList: ok([ticket]), checkSurplusTicket: ok({ surplus: 7 }) });
    const d = await loadTicketList(page(`/ticket${pathOf(1308)}`), p, params);
    expect(d.listFailed).toBe(false);
    expect(d.rows).toMatchObject([{ tk: { id: 5 }, left: 7, state: 'on-sale' }]);
  });

  it('a failed list is said, not thrown; a flash of another page is not shown', async () => {
    const d = await loadTicketList(page(`/ticket${pathOf(1308)}`, { flash: flash('/elsewhere', { notice: { tone: 'error', key: 'x', vars: {}, text: null } }) }), ports(), params);
    expect(d.listFailed).toBe(true);
    expect(d.notice).toBeNull();
  });
});

describe('loadTicketForm', () => {
  it('404 without the ticket; the quantity limited by what the contact holds', async () => {
    expect((await loadTicketForm(page(`/ticketForm${pathOf(1308)}?ticketId=9`), ports({ selectUrlsTicketList: ok([ticket]) }), params)).status).toBe(404);
    const p = ports({
      selectUrlsTicketList: ok([ticket]),
      checkSurplusTicket: ok({ surplus: 50 }),
      findUserBuyOrderNumByPhoneExpoId: ok({ count: 3 }),
    });
    const d = await loadTicketForm(page(`/ticketForm${pathOf(1308)}?ticketId=5`, { contact: contact(1308) }), p, params);
    expect(d.status).toBe(200);
    expect(d.maxQuantity).toBe(1);
    expect(p.findUserBuyOrderNumByPhoneExpoId).toHaveBeenCalledWith({ expoId: 1308, buyer: { checkType: 2, contact: 'a@b.example' } });
  });

  it('a refusal naming the quantity is the form’s own error; the typed values come back', async () => {
    const path = `/ticketForm${pathOf(1308)}?ticketId=5`;
    const f = flash(path, { values: { quantity: '2', payType: '1' }, error: { field: 'quantity', key: 'order.quantity', text: null } });
    const d = await loadTicketForm(page(path, { flash: f }), ports({ selectUrlsTicketList: ok([ticket]) }), params);
    expect(d.ownError).toEqual({ name: 'quantity', message: 'order.quantity' });
    expect(d.quantity).toBe(2);
    expect(d.payType).toBe('1');
  });
});

describe('loadOrderList and loadOrder', () => {
  it('no orders without the verified contact, and the upstream is not asked', async () => {
    const p = ports();
    expect((await loadOrderList(page(`/orderList${pathOf(1308)}`), p, params)).orders).toEqual([]);
    expect(p.findOrderListByPhone).not.toHaveBeenCalled();
  });

  it('only the contact’s own order of that number, with its state', async () => {
    const p = ports({ findOrderListByPhone: ok([order]), ifOpenRefund: ok({ open: true, deadline: null }) });
    const path = `/orderDetails${pathOf(1308)}?orderNo=ORD123456`;
    const d = await loadOrder(page(path, { contact: contact(1308) }), p, params, 'orderDetails');
    expect(d.httpStatus).toBe(200);
    expect(d.order?.orderNo).toBe('ORD123456');
    expect(d.status).toBe(2);
    const other = await loadOrder(page(`/ticketSuccess${pathOf(1308)}?orderNo=ORD999999`, { contact: contact(1308) }), p, params, 'ticketSuccess');
    expect(other.httpStatus).toBe(404);
    expect(other.refund).toBeNull();
    expect(other.headers).toEqual({});
  });

  it('a paid order with tickets is kept offline like a credential (its codes, its expo); an unpaid one is not', async () => {
    const paid = { ...order, euCodes: ['TKA111', 'TKB222'] };
    const path = `/ticketSuccess${pathOf(1308)}?orderNo=ORD123456`;
    const d = await loadOrder(page(path, { contact: contact(1308) }), ports({ findOrderListByPhone: ok([paid]) }), params, 'ticketSuccess');
    expect(d.headers['x-offline-until']).toMatch(/^\d+$/);
    expect(readCopyMeta(d.headers['x-offline-copy'])).toMatchObject({ expo: 1308, kind: 'ticket', codes: ['TKA111', 'TKB222'] });
    expect(d.saved.today).not.toBe('');
    const unpaid = await loadOrder(page(path, { contact: contact(1308) }), ports({ findOrderListByPhone: ok([{ ...paid, status: 0, expireTime: '2099-01-01 00:00:00' }]) }), params, 'ticketSuccess');
    expect(unpaid.headers).toEqual({});
  });
});
