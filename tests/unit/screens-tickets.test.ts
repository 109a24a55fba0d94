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

describe('loadTicketForm: the discount beside its field, the total before paying, the pay names', () => {
  const path = `/ticketForm${pathOf(1308)}?ticketId=5`;
  const applied = (values: Record<string, string>) =>
    flash(path, { values, notice: { tone: 'info', key: 'ticket.discountApplied', vars: { price: '¥5.00', unit: 500, code: 'SAVE3' }, text: null } });

  it('the check\'s success is the field\'s answer, not a page notice; the total takes the code off', async () => {
    const d = await loadTicketForm(page(path, { flash: applied({ quantity: '2', discountCode: 'SAVE3' }) }), ports({ selectUrlsTicketList: ok([ticket]) }), params);
    expect(d.notice).toBeNull();
    expect(d.discountResult).toMatch(/^ticket.discountApplied/);
    expect(d.checkedCode).toBe('SAVE3');
    expect(d.total).toMatchObject({ quantity: 2, unit: 800, gross: 1600, discount: 600, total: 1000 });
  });

  it('without a check, or with another code in the field, quantity × price', async () => {
    const none = await loadTicketForm(page(path, { flash: flash(path, { values: { quantity: '3' } }) }), ports({ selectUrlsTicketList: ok([ticket]) }), params);
    expect(none.total).toMatchObject({ quantity: 3, discount: 0, total: 2400 });
    const other = await loadTicketForm(page(path, { flash: applied({ quantity: '1', discountCode: 'OTHER' }) }), ports({ selectUrlsTicketList: ok([ticket]) }), params);
    expect(other.total).toMatchObject({ total: 800, discount: 0 });
    expect(other.checkedCode).toBeNull();
  });

  it('another notice stays at the top of the page', async () => {
    const f = flash(path, { values: {}, notice: { tone: 'error', key: 'order.holdExpired', vars: {}, text: null } });
    const d = await loadTicketForm(page(path, { flash: f }), ports({ selectUrlsTicketList: ok([ticket]) }), params);
    expect(d.notice).toMatchObject({ tone: 'error' });
    expect(d.discountResult).toBeNull();
  });

  it("the payment method preselected by the browser: the messaging app's pay inside it, the payment app elsewhere; a choice kept wins (issue 30)", async () => {
    const wechat = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.49(0x18003137) NetType/4G Language/zh_CN';
    const list = () => ports({ selectUrlsTicketList: ok([ticket]) });
    expect((await loadTicketForm(page(path, { userAgent: wechat }), list(), params)).payType).toBe('1');
    expect((await loadTicketForm(page(path, { userAgent: 'Mozilla/5.0 (Linux; Android 14) Chrome/140.0 Mobile Safari/537.36' }), list(), params)).payType).toBe('2');
    expect((await loadTicketForm(page(path, { userAgent: wechat, flash: flash(path, { values: { payType: '2' } }) }), list(), params)).payType).toBe('2');
  });

  it('the payment methods by the organiser\'s names when the config gives them', async () => {
    const d = await loadTicketForm(page(path, { config: { customerWx: { payName1: '微信支付', payName2: '支付宝' } } }), ports({ selectUrlsTicketList: ok([ticket]) }), params);
    expect(d.payNames).toEqual({ 1: '微信支付', 2: '支付宝' });
    const plain = await loadTicketForm(page(path), ports({ selectUrlsTicketList: ok([ticket]) }), params);
    expect(plain.payNames).toEqual({ 1: null, 2: null });
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
