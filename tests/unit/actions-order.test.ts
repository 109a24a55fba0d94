/** The purchase actions (order, order action, discount) over fake ports, in node: every outcome branch. */
import { describe, expect, it } from 'vitest';
import { discount, idemKey, order, orderAction, type OrderPorts, type OrderUpstream } from '../../src/lib/actions/order';
import { FaultAt, jsonOf, type ActionContext, type ActionOutcome } from '../../src/lib/actions/outcome';
import { CONTACT_COOKIE, openFormWindow, signContact } from '../../src/lib/lookup/contact-cookie';
import { decodeFlash } from '../../src/lib/page/flash';
import { encodeId } from '../../src/lib/util/ids';
import { OrderStatus, TicketCode, type Order } from '../../src/lib/tickets/tickets';
import { okReply, refusedReply } from './upstream-fakes';

/** The outcome with what an island gets of it (functions/api/action.ts answers it so). */
const island = (o: ActionOutcome<unknown>) => ({ ...o, reply: jsonOf(o, ((k: string, v?: Record<string, string | number>) => `${k}${v ? JSON.stringify(v) : ''}`)).body });

const SECRET = 'a-test-secret-of-32-characters!!';
const ORIGIN = 'https://expo.test';
const E = 1216;
const PATH = `21216/${encodeId(E)}/visitor`;
const NOW = Date.now();
const t: ActionContext['t'] = (k, v) => `${k}${v ? JSON.stringify(v) : ''}`;

async function ctxOf(json = false, verified: number | null = E): Promise<ActionContext> {
  const cookies = verified === null ? {} : { [CONTACT_COOKIE]: await signContact({ expoId: verified, contact: 'a@b.test', checkType: 2 }, SECRET) };
  return { lang: 'en', t, json, origin: ORIGIN, cookies, now: NOW };
}

const ok = okReply;
const no = refusedReply;

const anOrder = (more: Partial<Order> = {}): Order => ({
  orderNo: 'T20260101ABCDEF',
  expoId: E,
  ticketId: 7,
  ticketName: null,
  quantity: 1,
  price: 100,
  discountCode: null,
  totalFee: 100,
  payType: 2,
  status: OrderStatus.UNPAID,
  createTime: null,
  expireTime: '2099-01-01 00:00:00',
  payTime: null,
  refund: null,
  euCodes: [],
  ...more,
});

function portsOf(up: Partial<OrderUpstream> = {}, more: Partial<OrderPorts> = {}): OrderPorts & { logged: string[] } {
  const logged: string[] = [];
  return {
    up: {
      getCustomerId: async () => ok({ customerForm: null }),
      createOrderNew: async () => ok({ orderNo: 'T20260101ABCDEF' }),
      doUnifiedOrder: async () => ok({ kind: 'payUrl' as const, payUrl: '/dev/pay/T20260101ABCDEF' }),
      findOrderListByPhone: async () => ok([anOrder()]),
      ifOpenRefund: async () => ok({ open: true, deadline: null }),
      deleteOrderById: async () => ok(null),
      WxRefundJSAPIByOrderNo: async () => ok(null),
      cancelRefundByOrderNo: async () => ok(null),
      selectDiscountTicketByCode: async () => ok({ price: 5000 }),
      ...up,
    },
    secret: SECRET,
    limit: async () => null,
    openId: undefined,
    log: (m, detail) => void logged.push(`${m} ${detail}`),
    logged,
    ...more,
  };
}

const BUY = { path: PATH, ticketId: '7', quantity: '1', payType: '2', uname: 'Ann' };

async function runOrder(fields: Record<string, string>, ports = portsOf(), json = false, verified: number | null = E) {
  return order.run(order.input.parse(fields), ports, await ctxOf(json, verified));
}
async function runAction(fields: Record<string, string>, ports = portsOf(), json = false) {
  return orderAction.run(orderAction.input.parse(fields), ports, await ctxOf(json));
}
async function runDiscount(fields: Record<string, string>, ports = portsOf(), json = false, verified: number | null = E) {
  return discount.run(discount.input.parse(fields), ports, await ctxOf(json, verified));
}
const body = (o: ActionOutcome) => jsonOf(o, t);

describe('the purchase input', () => {
  it('a page none of ours makes is a broken request; back goes to the posted back', () => {
    expect(order.input.safeParse({ path: '../..' }).success).toBe(false);
    expect(order.back({ path: 'nope', back: '/x' }, { origin: ORIGIN } as ActionContext)).toBe('/x');
  });
  it('the buyer form comes back to its ticket, or to the list', () => {
    expect(order.back({ path: PATH, ticketId: '7' }, {} as ActionContext)).toMatch(/\?ticketId=7$/);
    expect(order.back({ path: PATH, ticketId: 'x' }, {} as ActionContext)).not.toMatch(/ticketId/);
    expect(order.keep?.({ path: PATH, uname: 'Ann', quantity: '2', idem: 'k' })).toEqual({ uname: 'Ann', quantity: '2', discountCode: '', payType: '' });
  });
  it('an order action comes back to the order, or to the list of orders', () => {
    expect(orderAction.back({ path: PATH, orderNo: 'T20260101ABCDEF' }, {} as ActionContext)).toMatch(/orderNo=T20260101ABCDEF$/);
    expect(orderAction.back({ path: PATH, orderNo: '!' }, {} as ActionContext)).not.toMatch(/orderNo/);
  });
});

describe('order', () => {
  it('no proof at all (the browser dropped the expired cookie): to the lookup, which brings the visitor back; said to have run out, what was typed kept (JSON 401)', async () => {
    // the buyer form is only shown to a proven contact: a post of it without one is a proof that ran out (issue 30)
    const o = await runOrder({ ...BUY, discountCode: 'SAVE10', quantity: '2' }, portsOf(), true, null);
    expect(o).toMatchObject({ kind: 'notice', notice: { key: 'form.expired' }, status: 401, values: {}, flashWithJson: true });
    expect(o.kind === 'notice' && o.to).toMatch(/\?next=/);
    expect(body(o)).toMatchObject({ status: 401, body: { code: 401, data: { outcome: 'navigate' } } });
    const draft = o.cookies?.find((c) => c.name === 'draft');
    expect(decodeFlash(draft?.value ?? undefined, `/ticketForm/${PATH}?ticketId=7`)?.values).toMatchObject({ uname: 'Ann', quantity: '2', discountCode: 'SAVE10' });
  });
  it('the buyer form holds the proof for its own window: 20 minutes after the proof it still orders; 3 hours after, it says so and keeps what was typed', async () => {
    // proved `ago` ms before now, the buyer form opened at once (its window: 30 minutes from then)
    const proved = async (ago: number) => {
      const signed = await signContact({ expoId: E, contact: 'a@b.test', checkType: 2 }, SECRET, NOW - ago);
      return (await openFormWindow(signed, SECRET, NOW - ago))?.value ?? '';
    };
    const late = async (ago: number) => order.run(order.input.parse(BUY), portsOf(), { ...(await ctxOf()), cookies: { [CONTACT_COOKIE]: await proved(ago) } });
    expect(await late(20 * 60_000)).toMatchObject({ kind: 'navigate' });
    const o = await late(3 * 3600_000);
    expect(o).toMatchObject({ kind: 'notice', notice: { key: 'form.expired' }, status: 401, values: { checkType: '2', email: 'a@b.test' } });
    expect(o.kind === 'notice' && o.to).toMatch(/\?next=%2FticketForm%2F/);
    const draft = o.cookies?.find((c) => c.name === 'draft');
    expect(draft?.path).toMatch(/^\/ticketForm\//);
    expect(decodeFlash(draft?.value ?? undefined, '/ticketForm/' + PATH + '?ticketId=7')?.values).toMatchObject({ uname: 'Ann', quantity: '1', payType: '2' });
  });
  it('a bad quantity, discount code or pay type: the field, JSON 400', async () => {
    for (const [fields, field, key] of [
      [{ quantity: '99' }, 'quantity', 'ticket.quantityInvalid'],
      [{ discountCode: 'a b' }, 'discountCode', 'ticket.discountInvalid'],
      [{ payType: '3' }, 'payType', 'ticket.payTypeRequired'],
    ] as const) {
      const o = await runOrder({ ...BUY, ...fields });
      expect(o).toMatchObject({ kind: 'invalid', errors: [{ field, key: null, text: key }], status: 400 });
      expect(body(o).body).toEqual({ code: 400, msg: key, data: { outcome: 'invalid', field, message: key } });
    }
  });
  it('the form refused by its own rules: the field and its key', async () => {
    const form = [{ key: 'uname', type: 'text', label: { en: 'Name' }, required: true }];
    const o = await runOrder({ ...BUY, uname: '' }, portsOf({ getCustomerId: async () => ok({ customerForm: form }) }));
    expect(o).toMatchObject({ kind: 'invalid', errors: [{ field: 'uname', text: null }], status: 400 });
  });
  it('the configuration refused: its message', async () => {
    const o = await runOrder(BUY, portsOf({ getCustomerId: async () => no(500, 'down') }));
    expect(o).toMatchObject({ kind: 'notice', notice: { tone: 'error', text: 'down' }, status: 200 });
    expect(body(o).body).toMatchObject({ code: 500, data: { outcome: 'refused', message: 'down' } });
  });
  it('over the limits: code 600 with Retry-After (the one limits outcome: JSON and form post alike)', async () => {
    const limit = async () => ({ status: 429 as const, retryAfterS: 30, key: 'limit.attemptsSeconds' as const, vars: { n: 30 } });
    const o = await runOrder(BUY, portsOf({}, { limit }), true);
    expect(island(o)).toMatchObject({ kind: 'notice', status: 429, headers: { 'retry-after': '30' }, reply: { code: 600 } });
    expect((await runOrder(BUY, portsOf({}, { limit }))).headers).toEqual({ 'retry-after': '30' });
  });
  it('refusals of the order: known codes in the page language; an unknown discount code reads as used up', async () => {
    const sold = await runOrder(BUY, portsOf({ createOrderNew: async () => no(TicketCode.SOLD_OUT, 'x') }));
    expect(sold).toMatchObject({ notice: { text: 'ticket.soldOutError' } });
    const open = await runOrder(BUY, portsOf({ createOrderNew: async () => no(20107) }));
    expect(open).toMatchObject({ notice: { text: 'ticket.openOrder' } });
    const other = await runOrder(BUY, portsOf({ createOrderNew: async () => no(999, null) }));
    expect(other).toMatchObject({ notice: { text: 'error.generic' } });
    const unknown = await runOrder({ ...BUY, discountCode: 'NOPE' }, portsOf({ createOrderNew: async () => no(404) }));
    expect(body(unknown).body).toMatchObject({ code: TicketCode.DISCOUNT_USED_UP, msg: 'form.discountTimes' });
  });
  it('the hold refusals (issue 29): the number the upstream says, in the page language; without one, the limit text and the documented 15 minutes', async () => {
    const share = await runOrder(BUY, portsOf({ createOrderNew: async () => no(TicketCode.HOLD_SHARE, 'few tickets are left: one contact may hold at most 2 of them unpaid; order fewer, or pay first') }));
    expect(share).toMatchObject({ notice: { text: 'ticket.holdShare{"n":2}' } });
    expect(body(share).body).toMatchObject({ code: 20109, data: { outcome: 'refused' } });
    const shareBare = await runOrder(BUY, portsOf({ createOrderNew: async () => no(TicketCode.HOLD_SHARE, 'too many') }));
    expect(shareBare).toMatchObject({ notice: { text: 'ticket.overLimit' } });
    const wait = await runOrder(BUY, portsOf({ createOrderNew: async () => no(TicketCode.HOLD_COOLDOWN, 'this contact may order it again in 7 min') }));
    expect(wait).toMatchObject({ notice: { text: 'ticket.holdCooldown{"n":7}' } });
    const waitBare = await runOrder(BUY, portsOf({ createOrderNew: async () => no(TicketCode.HOLD_COOLDOWN, null) }));
    expect(waitBare).toMatchObject({ notice: { text: 'ticket.holdCooldown{"n":15}' } });
  });
  it('created: on to a cashier of this site (303), the contact and an idempotency key sent', async () => {
    let sent: Record<string, unknown> = {};
    const o = await runOrder(BUY, portsOf({ createOrderNew: async (p) => ((sent = { ...p.values }), ok({ orderNo: 'T20260101ABCDEF' })) }));
    expect(o).toMatchObject({ kind: 'navigate', location: '/dev/pay/T20260101ABCDEF' });
    expect(sent).toMatchObject({ email: 'a@b.test', checkType: 2 });
    expect(String(sent['idem'])).toMatch(/^d[0-9a-f]{32}$/);
  });
  it('a cashier on another origin: a hand-off page for a form post, the URL for JSON', async () => {
    const ports = portsOf({ doUnifiedOrder: async () => ok({ kind: 'payUrl' as const, payUrl: 'https://pay.example/c?o=1' }) });
    const o = await runOrder(BUY, ports);
    expect(o).toMatchObject({ kind: 'navigate', location: 'https://pay.example/c?o=1' });
    expect(o.kind === 'navigate' && o.html).toContain('https://pay.example/c?o=1');
  });
  it('the messaging app: the JS bridge for JSON, the order page without it; the openid only for pay type 1', async () => {
    let openId: string | undefined = 'none';
    const jsapi = { appId: 'a' };
    const ports = portsOf({ doUnifiedOrder: async (p) => ((openId = p.openId), ok({ kind: 'jsapi' as const, jsapi })) }, { openId: 'oid-1' });
    const o = await runOrder({ ...BUY, payType: '1' }, ports, true);
    expect(openId).toBe('oid-1');
    expect(o.kind === 'navigate' && o.location).toMatch(/ticketSuccess.*orderNo=/);
    expect(body(o).body).toMatchObject({ data: { outcome: 'jsapi', jsapi, returnUrl: expect.stringMatching(/^https:\/\/expo\.test\//) } });
    await runOrder(BUY, ports);
    expect(openId).toBeUndefined();
  });
  it('payment refused or an unusable payUrl: to the order page, without the typed values', async () => {
    const refused = await runOrder(BUY, portsOf({ doUnifiedOrder: async () => no(500, 'no') }));
    expect(refused).toMatchObject({ kind: 'notice', to: expect.stringMatching(/orderDetails.*orderNo=/) });
    const ports = portsOf({ doUnifiedOrder: async () => ok({ kind: 'payUrl' as const, payUrl: 'javascript:alert(1)' }) });
    const bad = await runOrder(BUY, ports);
    expect(island(bad)).toMatchObject({ notice: { text: 'error.relatedData' }, reply: { code: 502 }, status: 200 });
    expect(ports.logged).toHaveLength(1);
  });
  it('an unusable payUrl is logged by its scheme and host only, never its path, query or user (issue 30)', async () => {
    for (const [payUrl, shown] of [
      ['ftp://cashier.example/pay/IWHBZIMYEOZETLFI?to=one@demo.test', 'ftp:*'],
      ['javascript:alert("one@demo.test")', 'javascript:*'],
      ['https://one:pw@evil.example/pay/IWHBZIMYEOZETLFI?to=one@demo.test', 'https://evil.example/*/*?to=*'],
      ['//evil.example/IWHBZIMYEOZETLFI', '//*/*'],
    ] as const) {
      const ports = portsOf({ doUnifiedOrder: async () => ok({ kind: 'payUrl' as const, payUrl }) });
      await runOrder(BUY, ports);
      expect(ports.logged).toEqual([`doUnifiedOrder answered an unusable payUrl (only http(s) URLs and site paths are followed) ${shown}`]);
    }
  });
  it('a fault once the order exists goes to its page (FaultAt)', async () => {
    const boom = new Error('down');
    const e = await runOrder(BUY, portsOf({ doUnifiedOrder: async () => Promise.reject(boom) })).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(FaultAt);
    expect((e as FaultAt).to).toMatch(/orderDetails/);
    expect((e as FaultAt).fault).toBe(boom);
  });
  it('the idempotency key: the posted one, else one per contact, post and 10 minutes', async () => {
    const vc = { expoId: E, contact: 'a@b.test' };
    expect(await idemKey(vc, { idem: 'abcdefghijklmnop' }, NOW)).toBe('abcdefghijklmnop');
    const a = await idemKey(vc, { x: '1' }, 0);
    expect(await idemKey(vc, { x: '1' }, 599_999)).toBe(a);
    expect(await idemKey(vc, { x: '1' }, 600_000)).not.toBe(a);
  });
});

describe('order action', () => {
  const ACT = { path: PATH, orderNo: 'T20260101ABCDEF' };
  it('malformed: the island is told the order is unknown; a form post is a broken request', async () => {
    const j = await runAction({ ...ACT, action: 'delete' }, portsOf(), true);
    expect(body(j)).toEqual({ status: 400, body: { code: 400, msg: 'api.badPage', data: { outcome: 'refused', message: 'order.unknown' } } });
    expect(await runAction({ ...ACT, action: 'delete' })).toMatchObject({ kind: 'broken', message: 'api.badPage' });
  });
  it("someone else's order: 403, to the list of orders", async () => {
    const o = await runAction({ ...ACT, orderNo: 'T20260101OTHER', action: 'cancel' });
    expect(o).toMatchObject({ status: 403, to: expect.stringMatching(/orderList/), notice: { text: 'order.notYours' } });
  });
  it('not allowed now: 409, refunds closed said as such', async () => {
    expect(island(await runAction({ ...ACT, action: 'cancelRefund' }))).toMatchObject({ notice: { text: 'order.notAllowed' }, reply: { code: 409 } });
    expect(await runAction({ ...ACT, action: 'refund', reason: 'x' })).toMatchObject({ notice: { text: 'order.refundClosed' } });
  });
  it('pay again: the cashier', async () => {
    expect(await runAction({ ...ACT, action: 'pay' })).toMatchObject({ kind: 'navigate', location: '/dev/pay/T20260101ABCDEF' });
  });
  it('a refund needs a reason', async () => {
    const ports = portsOf({ findOrderListByPhone: async () => ok([anOrder({ status: OrderStatus.PAID })]) });
    const o = await runAction({ ...ACT, action: 'refund' }, ports);
    expect(o).toMatchObject({ kind: 'invalid', errors: [{ field: 'reason', key: 'order.reasonRequired' }], status: 400 });
  });
  it('done: the notice on the order page; JSON navigates there with the message', async () => {
    for (const [action, key] of [['cancel', 'order.cancelDone']] as const) {
      const o = await runAction({ ...ACT, action }, portsOf(), true);
      expect(o).toMatchObject({ kind: 'notice', notice: { tone: 'info', key } });
      expect(body(o).body).toMatchObject({ code: 200, msg: key, data: { outcome: 'navigate' } });
    }
    const applied = portsOf({ findOrderListByPhone: async () => ok([anOrder({ status: OrderStatus.REFUND_APPLIED })]) });
    expect(await runAction({ ...ACT, action: 'cancelRefund' }, applied)).toMatchObject({ notice: { key: 'order.cancelRefundDone' } });
    const paid = portsOf({ findOrderListByPhone: async () => ok([anOrder({ status: OrderStatus.PAID })]) });
    expect(await runAction({ ...ACT, action: 'refund', reason: 'ill' }, paid)).toMatchObject({ notice: { key: 'order.refundDone' } });
  });
  it('refused: a parallel refund that won is said so; the reason is kept', async () => {
    let calls = 0;
    const ports = portsOf({
      findOrderListByPhone: async () => ok([anOrder({ status: calls++ === 0 ? OrderStatus.PAID : OrderStatus.REFUND_APPLIED })]),
      WxRefundJSAPIByOrderNo: async () => no(500, 'busy'),
    });
    expect(await runAction({ ...ACT, action: 'refund', reason: 'ill' }, ports)).toMatchObject({ notice: { text: 'order.refundAlreadyApplied' }, values: { reason: 'ill' } });
    const cancel = await runAction({ ...ACT, action: 'cancel' }, portsOf({ deleteOrderById: async () => no(500, 'busy') }));
    expect(cancel).toMatchObject({ notice: { text: 'busy' } });
    expect(cancel.kind === 'notice' && cancel.values).toBeUndefined();
  });
});

describe('discount', () => {
  const CHECK = { path: PATH, ticketId: '7', discountCode: 'SAVE10' };
  it('no proof: to the lookup, said to have run out, what was typed kept in the form page\'s draft', async () => {
    const o = await runDiscount({ ...CHECK, uname: 'Ann', quantity: '3' }, portsOf(), false, null);
    expect(o).toMatchObject({ status: 401, notice: { key: 'form.expired' } });
    const draft = o.cookies?.find((c) => c.name === 'draft');
    expect(draft?.path).toBe(`/ticketForm/${PATH}`);
    expect(decodeFlash(draft?.value ?? undefined, `/ticketForm/${PATH}?ticketId=7`)?.values).toMatchObject({ uname: 'Ann', quantity: '3', discountCode: 'SAVE10' });
  });
  it('the check holds the buyer form\'s window, not the 10 minutes after the proof; past it, it says so and keeps every value (issue 30)', async () => {
    // proved `ago` ms before now, the buyer form opened at once (its window: 30 minutes from then)
    const proved = async (ago: number) => {
      const signed = await signContact({ expoId: E, contact: 'a@b.test', checkType: 2 }, SECRET, NOW - ago);
      return (await openFormWindow(signed, SECRET, NOW - ago))?.value ?? '';
    };
    const late = async (ago: number) =>
      discount.run(discount.input.parse({ ...CHECK, uname: 'Ann', quantity: '2' }), portsOf(), { ...(await ctxOf()), cookies: { [CONTACT_COOKIE]: await proved(ago) } });
    expect(await late(11 * 60_000)).toMatchObject({ kind: 'notice', notice: { key: 'ticket.discountApplied' } });
    const o = await late(3 * 3600_000);
    expect(o).toMatchObject({ kind: 'notice', notice: { key: 'form.expired' }, status: 401, values: { checkType: '2', email: 'a@b.test' } });
    expect(o.kind === 'notice' && o.to).toMatch(/\?next=%2FticketForm%2F/);
    const draft = o.cookies?.find((c) => c.name === 'draft');
    expect(decodeFlash(draft?.value ?? undefined, `/ticketForm/${PATH}?ticketId=7`)?.values).toMatchObject({ uname: 'Ann', quantity: '2', discountCode: 'SAVE10' });
  });
  it('a malformed code or ticket: the field, JSON 400', async () => {
    const o = await runDiscount({ ...CHECK, discountCode: 'a b' });
    expect(o).toMatchObject({ kind: 'invalid', errors: [{ field: 'discountCode', key: 'ticket.discountInvalid' }], status: 400 });
  });
  it('over the limits', async () => {
    const limit = async () => ({ status: 503 as const, retryAfterS: null, key: 'limit.busy' as const, vars: { n: 0 } });
    expect(island(await runDiscount(CHECK, portsOf({}, { limit }), true))).toMatchObject({ status: 503, reply: { code: 600 } });
  });
  it('refused for any reason: one code and one message (no oracle)', async () => {
    const o = await runDiscount(CHECK, portsOf({ selectDiscountTicketByCode: async () => no(404) }));
    expect(o).toMatchObject({ kind: 'invalid', errors: [{ field: 'discountCode', key: null, text: 'form.discountTimes' }], status: 200 });
    expect(body(o).body).toMatchObject({ code: TicketCode.DISCOUNT_USED_UP });
  });
  it('accepted: the price in the expo currency', async () => {
    const o = await runDiscount(CHECK, portsOf(), true);
    expect(o).toMatchObject({ kind: 'notice', notice: { tone: 'info', key: 'ticket.discountApplied' } });
    expect(body(o).body).toMatchObject({ code: 200, data: { outcome: 'discount', price: 5000 } });
  });
  it('accepted, as a form post: back at the code\'s field, with the price per ticket and the code for the page\'s total', async () => {
    const o = await runDiscount(CHECK, portsOf(), false);
    expect(o).toMatchObject({ kind: 'notice', anchor: 'discount', notice: { key: 'ticket.discountApplied', vars: { unit: 5000, code: 'SAVE10' } } });
  });
});
