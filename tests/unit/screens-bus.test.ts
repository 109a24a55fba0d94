/** The shuttle bus screens' loader (src/lib/screens/bus.ts) and the purchase entry's (loadOrderEntry). */
import { describe, expect, it } from 'vitest';
import type { BusLine } from '../../src/lib/bus/bus';
import { matchRoute, routePath, type BusLink } from '../../src/lib/core/routes';
import { loadBus } from '../../src/lib/screens/bus';
import { loadCredential } from '../../src/lib/screens/credential';
import { loadOrderEntry } from '../../src/lib/screens/tickets';
import type { Credential } from '../../src/lib/util/domain';
import { OrderStatus, type Order } from '../../src/lib/tickets/tickets';
import { contact, flash, ok, page, paramsOf, pathOf, ports } from './screens-helpers';

const params = { urlId: 21308, euCode: 'MINE01', expoId: 1308, fId: 21308, euUserId: 100001 };
const busPath = routePath({ screen: 'bus', which: 'bus', params });
const infoPath = routePath({ screen: 'bus', which: 'busInfo', params });
const linkOf = (path: string): BusLink => {
  const m = matchRoute(path);
  if (m?.screen !== 'bus') throw new Error('not a bus link');
  return m.link;
};
const line: BusLine = {
  id: 801,
  name: 'Metro line',
  note: '',
  stops: [{ id: 8011, name: 'Exit B' }],
  departures: [
    { id: 8101, departTime: '2026-12-01 08:30:00', capacity: 40, booked: 12 },
    { id: 8103, departTime: '2026-12-02 08:30:00', capacity: 40, booked: 40 },
  ],
};
const seat = { id: 3, lineId: 801, lineName: 'Metro line', departureId: 8101, departTime: '2026-12-01 08:30:00', stopId: 8011, stopName: 'Exit B' };
const owner = contact(1308, { codes: ['MINE01'] });

describe('loadBus', () => {
  it("the owner: the lines with each departure's offer, their seat, the links", async () => {
    const selectBusUser = ok([seat]);
    const d = await loadBus(page(busPath, { contact: owner }), ports({ selectBusList: ok([line]), selectBusUser }), 'bus', linkOf(busPath));
    expect(d).toMatchObject({ status: 200, owner: true, missing: [], listFailed: false, euCode: 'MINE01' });
    expect(d.lines[0]?.offers).toEqual(['held', 'lineHeld']);
    expect(d.mine).toEqual([seat]);
    expect(d.paths).toMatchObject({ bus: busPath, busInfo: infoPath, lookup: '/IEAESearch/21308/MTMwOA/visitor' });
    expect(d.paths.credential).toMatch(/^\/IEAESuccess\//);
    expect(selectBusUser).toHaveBeenCalledWith({ expoId: 1308, euCode: 'MINE01' });
  });

  it("anyone else (no cookie, another code's cookie, another expo's): the lines, never the reservations", async () => {
    for (const c of [null, contact(1308, { codes: ['OTHER'] }), contact(1216, { codes: ['MINE01'] })]) {
      const selectBusUser = ok([seat]);
      const d = await loadBus(page(infoPath, { contact: c }), ports({ selectBusList: ok([line]), selectBusUser }), 'busInfo', linkOf(infoPath));
      expect(d.owner).toBe(false);
      expect(d.mine).toEqual([]);
      expect(d.lines[0]?.offers).toEqual(['reserve', 'full']);
      expect(selectBusUser).not.toHaveBeenCalled();
    }
  });

  it('a failed list is said; a notice shows only on its own page', async () => {
    const n = { tone: 'info' as const, key: 'bus.reserved', vars: {}, text: null };
    const d = await loadBus(page(infoPath, { contact: owner, flash: flash(infoPath, { notice: n }) }), ports(), 'busInfo', linkOf(infoPath));
    expect(d.listFailed).toBe(true);
    expect(d.notice).toEqual({ tone: 'info', message: 'bus.reserved' });
    expect((await loadBus(page(busPath, { flash: flash(infoPath, { notice: n }) }), ports(), 'bus', linkOf(busPath))).notice).toBeNull();
  });

  it('an incomplete link: 400 naming the parts, a lookup link when it names the expo and url, no upstream call', async () => {
    const p = ports();
    const none = await loadBus(page('/bus'), p, 'bus', linkOf('/bus'));
    expect(none).toMatchObject({ status: 400, missing: ['urlId', 'euCode', 'eid', 'fId', 'euUserId'], paths: { lookup: null, bus: null } });
    const short = infoPath.split('/').slice(0, -1).join('/');
    expect(await loadBus(page(short), p, 'busInfo', linkOf(short))).toMatchObject({ status: 400, missing: ['euUserId'], paths: { lookup: '/IEAESearch/21308/MTMwOA/visitor' } });
    expect(p.selectBusList).not.toHaveBeenCalled();
  });
});

const order = (orderNo: string, status: number, expireTime: string | null = null): Order => ({
  orderNo,
  expoId: 1308,
  ticketId: 5,
  ticketName: 'Day pass',
  quantity: 1,
  price: 800,
  discountCode: null,
  totalFee: 800,
  payType: 2,
  status,
  createTime: '2025-06-01 10:00:00',
  expireTime,
  payTime: null,
  refund: null,
  euCodes: [],
});

describe('loadOrderEntry (/order)', () => {
  it("the buyer's orders, open ones first (an unpaid one past its hold is not open), and the ticket list", async () => {
    const orders = [order('PAID0001', OrderStatus.PAID), order('LATE0001', OrderStatus.UNPAID, '2025-01-01 00:00:00'), order('OPEN0001', OrderStatus.UNPAID, '2099-01-01 00:00:00'), order('REVIEW01', OrderStatus.PENDING_REVIEW)];
    const p = ports({ findOrderListByPhone: ok(orders), selectUrlsTicketList: ok([]) });
    const d = await loadOrderEntry(page(`/order${pathOf(1308)}`, { contact: contact(1308) }), p, paramsOf(1308));
    expect(d.kind).toBe('orderEntry');
    expect(d.orders?.map((o) => o.orderNo)).toEqual(['OPEN0001', 'REVIEW01', 'PAID0001', 'LATE0001']);
    expect(d.listFailed).toBe(false);
    expect(d.paths.entry).toBe(`/order${pathOf(1308)}`);
  });

  it('without a verified contact of this expo: no orders asked for', async () => {
    const p = ports();
    const d = await loadOrderEntry(page(`/order${pathOf(1308)}`, { contact: contact(1216) }), p, paramsOf(1308));
    expect(d.orders).toEqual([]);
    expect(p.findOrderListByPhone).not.toHaveBeenCalled();
  });
});

describe('the credential page links the bus', () => {
  const credential = { urlId: 21308, euCode: 'MINE01', expoId: 1308, fId: 21308 };
  const record = { id: 100001, euCode: 'MINE01', uname: 'Ann', euClass: 0, useStatus: 0 } as unknown as Credential;
  it('where the expo has lines, with the registration id as euUserId; not without lines or an id', async () => {
    const withLines = await loadCredential(page('/success/x'), ports({ selectBusList: ok([line]) }), { params: credential, variant: null }, { kind: 'found', record });
    expect(withLines.bus).toBe(busPath);
    expect((await loadCredential(page('/success/x'), ports({ selectBusList: ok([]) }), { params: credential, variant: null }, { kind: 'found', record })).bus).toBeNull();
    expect((await loadCredential(page('/success/x'), ports(), { params: credential, variant: null }, { kind: 'found', record })).bus).toBeNull();
    const noId = { ...record, id: null } as unknown as Credential;
    const p = ports({ selectBusList: ok([line]) });
    expect((await loadCredential(page('/success/x'), p, { params: credential, variant: null }, { kind: 'found', record: noId })).bus).toBeNull();
    expect(p.selectBusList).not.toHaveBeenCalled();
  });
});
