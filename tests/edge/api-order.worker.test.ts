/**
 * The purchase endpoints of the edge API (issue 11): `/api/order`, `/api/order/action`,
 * `/api/discount`, and the lookup's way back to a purchase page (`next`). In workerd, the
 * whole app in-process against the reference upstream on D1. Includes the attacker's view:
 * someone else's order, identical posts at once, huge and malformed bodies, cross-site posts,
 * HEAD, and a posted price.
 */
import { describe, expect, it } from 'vitest';
import type { OrderReply } from '../../src/lib/actions/replies';
import { encodeId } from '../../src/lib/util/ids';
import { qrImagePath } from '../../src/lib/core/routes';
import { CONTACT_COOKIE, openFormWindow, signContact } from '../../src/lib/lookup/contact-cookie';
import { decodeFlash, DRAFT_COOKIE } from '../../src/lib/page/flash';
import type { AppEnv } from '../../functions/env';
import {
  app,
  BASE,
  fastEnv,
  flashOf,
  Jar,
  LIFTED_LIMITS,
  lookupJson,
  postForm,
  postJson,
  SECRET,
  sendAndRead,
  setCookie,
  testEnv,
} from './api-lookup.helpers';

/**
 * The abuse limits lifted: every request of this file comes from one address and many from one
 * contact; tests/edge/api-money.worker.test.ts proves the order and discount limits (issue 19 item 8).
 */
const orderEnv: AppEnv = { ...testEnv, ...LIFTED_LIMITS };

const E = 1216;
const PATH = `21216/${encodeId(E)}/visitor`;
const FORM = `/ticketForm/${PATH}`;
const uniq = (tag: string) => `buyer-${tag}-${crypto.randomUUID().slice(0, 8)}@demo.test`;

async function jarFor(email: string, expoId = E): Promise<Jar> {
  return new Jar({
    [CONTACT_COOKIE]: encodeURIComponent(await signContact({ expoId, contact: email, checkType: 2 }, SECRET)),
  });
}

/** A complete buyer form for 1216 (mainland form: passport avoids the ID check digit). */
const buyerForm = (more: Record<string, string> = {}) => ({
  path: PATH,
  ticketId: '2',
  quantity: '2',
  payType: '2',
  discountCode: '',
  uname: '买票人',
  ucompany: 'Demo Co.',
  'ucardid.type': '2',
  ucardid: 'E12345678',
  industry: 'Energy',
  'purpose.0': 'Sourcing',
  privacy: 'on',
  ...more,
});

async function ordersOf(
  email: string,
): Promise<
  Array<{ order_no: string; status: number; total_fee: number; quantity: number; discount_code: string | null }>
> {
  const { results } = await testEnv.DB.prepare('SELECT * FROM orders WHERE contact = ? ORDER BY create_ms')
    .bind(email)
    .all();
  return results as never;
}

const payNo = (location: string | null) => /^\/dev\/pay\/([A-Za-z0-9_-]+)$/.exec(location ?? '')?.[1] ?? '';

/** Pays an order through the simulator (as the visitor's browser would). */
async function pay(orderNo: string): Promise<Response> {
  return app.request(
    `${BASE}/dev/pay/${orderNo}`,
    { method: 'POST', body: new URLSearchParams({ action: 'pay' }), redirect: 'manual' },
    orderEnv,
  );
}

describe('POST /api/order', () => {
  it('without the verified contact: to the lookup, and back to this form after (no-JS 303 and JSON 401)', async () => {
    const res = await postForm('/api/order', buyerForm(), { env: orderEnv, jar: new Jar() });
    expect(res.status).toBe(303);
    const to = `/search/${PATH}?next=${encodeURIComponent(`${FORM}?ticketId=2`)}`;
    expect(res.headers.get('location')).toBe(to);
    // the buyer form is shown only to a proven contact: its post without one is a proof that ran out (issue 30)
    expect(flashOf(res, to)?.notice?.key).toBe('form.expired');
    expect(decodeFlash(decodeURIComponent(setCookie(res, DRAFT_COOKIE)?.value ?? ''), `${FORM}?ticketId=2`)?.values).toMatchObject({ uname: '买票人', quantity: '2' });
    const json = await postJson('/api/order', buyerForm(), { env: orderEnv, jar: new Jar() });
    expect(json.status).toBe(401);
    expect(((await json.json()) as OrderReply).data).toEqual({ outcome: 'navigate', location: to });
    // A contact verified for another expo is not this one's.
    const other = await postForm('/api/order', buyerForm(), { env: orderEnv, jar: await jarFor(uniq('x'), 1308) });
    expect(other.headers.get('location')).toBe(to);
  });

  it("buys: 303 to the cashier; the order is the verified contact's, its total computed upstream (a posted price is never read)", async () => {
    const email = uniq('buy');
    const res = await postForm(
      '/api/order',
      buyerForm({ email: 'someone-else@demo.test', price: '1', totalFee: '1' }),
      { env: orderEnv, jar: await jarFor(email) },
    );
    expect(res.status).toBe(303);
    const no = payNo(res.headers.get('location'));
    expect(no).not.toBe('');
    const [o] = await ordersOf(email);
    expect(o).toMatchObject({ order_no: no, status: 0, quantity: 2, total_fee: 50000 });
    expect(await ordersOf('someone-else@demo.test')).toEqual([]);
    // The cashier returns to /ticketSuccess of this page.
    const row = await testEnv.DB.prepare('SELECT return_url FROM orders WHERE order_no = ?')
      .bind(no)
      .first<{ return_url: string }>();
    // Absolute (issue 19 item 9): a provider on its own host can bring the buyer back.
    expect(row?.return_url).toBe(`${BASE}/ticketSuccess/${PATH}?orderNo=${no}`);
  });

  it('JSON: the island gets the cashier to navigate to', async () => {
    const res = await postJson('/api/order', buyerForm(), { env: orderEnv, jar: await jarFor(uniq('json')) });
    const reply = (await res.json()) as OrderReply;
    expect(reply.data).toMatchObject({ outcome: 'navigate' });
    expect(payNo((reply.data as { location: string }).location)).not.toBe('');
  });

  it('an invalid form comes back with every value kept and the failing field named', async () => {
    const email = uniq('invalid');
    const res = await postForm('/api/order', buyerForm({ uname: '', ucompany: 'Kept Co.', discountCode: 'EARLY50' }), {
      jar: await jarFor(email),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${FORM}?ticketId=2`);
    const flash = flashOf(res, `${FORM}?ticketId=2`);
    expect(flash?.error?.field).toBe('uname');
    expect(flash?.values).toMatchObject({ ucompany: 'Kept Co.', discountCode: 'EARLY50', quantity: '2', payType: '2' });
    for (const bad of [
      { quantity: '0' },
      { quantity: '21' },
      { quantity: 'x' },
      { payType: '3' },
      { discountCode: "x' OR 1=1" },
    ]) {
      const r = await postForm('/api/order', buyerForm(bad), { env: orderEnv, jar: await jarFor(email) });
      expect(flashOf(r, `${FORM}?ticketId=2`)?.error?.field).toBe(Object.keys(bad)[0]);
    }
    expect(await ordersOf(email)).toEqual([]);
  });

  it('refusals in the page language, values kept: sold out, code used up, over the limit', async () => {
    const email = uniq('refused');
    const jar = await jarFor(email);
    const soldOut = await postForm('/api/order', buyerForm({ ticketId: '4', quantity: '1' }), { env: orderEnv, jar });
    expect(flashOf(soldOut, `${FORM}?ticketId=4`)?.notice?.text).toBe('该票已售罄');
    const usedUp = await postForm('/api/order', buyerForm({ discountCode: 'USEDUP' }), { env: orderEnv, jar });
    const f = flashOf(usedUp, `${FORM}?ticketId=2`);
    expect(f?.notice?.text).toBe('优惠码可用次数不足');
    expect(f?.values).toMatchObject({ discountCode: 'USEDUP', uname: '买票人' });
    const over = await postForm('/api/order', buyerForm({ quantity: '7' }), { env: orderEnv, jar });
    expect(flashOf(over, `${FORM}?ticketId=2`)?.notice?.text).toBe('超出每人限购数量');
    expect(await ordersOf(email)).toEqual([]);
    // English page: English text.
    const en = await app.request(
      `${BASE}/api/order`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `${jar.header()}; _h5_lang=en` },
        body: new URLSearchParams(buyerForm({ ticketId: '4', quantity: '1' })),
        redirect: 'manual',
      },
      orderEnv,
    );
    expect(flashOf(en, `${FORM}?ticketId=4`)?.notice?.text).toBe('This ticket is sold out');
  });

  it('the hold refusals (issue 29) in the page language, values kept: a share of the last Day Passes; ordering again right after cancelling', async () => {
    const email = uniq('hold');
    const jar = await jarFor(email);
    const form = `${FORM}?ticketId=1`;
    const idem = () => crypto.randomUUID().replace(/-/g, '');
    // 8 Day Passes left: one person may hold 2 of them unpaid.
    const share = await postForm('/api/order', buyerForm({ ticketId: '1', quantity: '3', idem: idem() }), { env: orderEnv, jar });
    const f = flashOf(share, form);
    expect(f?.notice?.text).toBe('该票余票不多，每人未支付时最多可保留 2 张。请减少数量，或先完成支付');
    expect(f?.values).toMatchObject({ uname: '买票人', ucompany: 'Demo Co.', quantity: '3' });
    const json = (await (
      await postJson('/api/order', buyerForm({ ticketId: '1', quantity: '3', idem: idem() }), { env: orderEnv, jar })
    ).json()) as OrderReply;
    expect(json).toMatchObject({ code: 20109, data: { outcome: 'refused', message: f?.notice?.text } });
    // Ordered, cancelled, ordered again at once: refused, the wait said; the form comes back filled.
    const made = await postForm('/api/order', buyerForm({ ticketId: '1', quantity: '1', idem: idem() }), { env: orderEnv, jar });
    const no = payNo(made.headers.get('location'));
    expect(no).not.toBe('');
    await postForm('/api/order/action', { path: PATH, orderNo: no, action: 'cancel' }, { env: orderEnv, jar });
    expect((await ordersOf(email))[0]?.status).toBe(3);
    const again = await postForm('/api/order', buyerForm({ ticketId: '1', quantity: '1', idem: idem() }), { env: orderEnv, jar });
    const g = flashOf(again, form);
    expect(g?.notice?.text).toBe('您刚取消或未按时支付此票的订单，请 15 分钟后再下单');
    expect(g?.values).toMatchObject({ uname: '买票人', quantity: '1' });
    expect(await ordersOf(email)).toHaveLength(1);
  });

  it('a discount code lowers the total', async () => {
    const email = uniq('disc');
    const res = await postForm('/api/order', buyerForm({ discountCode: 'EARLY50' }), { env: orderEnv, jar: await jarFor(email) });
    expect(res.status).toBe(303);
    expect((await ordersOf(email))[0]).toMatchObject({ total_fee: 25000, discount_code: 'EARLY50' });
  });

  it("40 identical posts at once make one order (with and without the form's idempotency key)", async () => {
    for (const idem of ['', 'formview0123456789abcdef']) {
      const email = uniq('dup');
      const jar = await jarFor(email);
      const form = buyerForm(idem ? { idem } : {});
      const rs = await Promise.all(Array.from({ length: 40 }, () => postForm('/api/order', form, { env: orderEnv, jar })));
      expect(rs.every((r) => r.status === 303)).toBe(true);
      expect(new Set(rs.map((r) => r.headers.get('location'))).size).toBe(1);
      expect(await ordersOf(email)).toHaveLength(1);
    }
  }, 30_000); // many whole requests at once: slow on a shared core
});

describe('POST /api/discount', () => {
  it("JSON: the price with the code, formatted for the page; used up: the spec's text; bad code refused", async () => {
    const jar = await jarFor(uniq('dcheck'));
    const ok = (await (
      await postJson('/api/discount', { path: PATH, ticketId: '2', discountCode: 'EARLY50' }, { env: orderEnv, jar })
    ).json()) as OrderReply;
    expect(ok.data).toEqual({ outcome: 'discount', price: 12500, formatted: '¥125.00' });
    const used = (await (
      await postJson('/api/discount', { path: PATH, ticketId: '2', discountCode: 'USEDUP' }, { env: orderEnv, jar })
    ).json()) as OrderReply;
    expect(used).toMatchObject({
      code: 20101,
      data: { outcome: 'invalid', field: 'discountCode', message: '优惠码可用次数不足' },
    });
    const bad = await postJson('/api/discount', { path: PATH, ticketId: '2', discountCode: '<x>' }, { env: orderEnv, jar });
    expect(bad.status).toBe(400);
  });

  it('no JS: back to the form with the values and the result', async () => {
    const jar = await jarFor(uniq('dform'));
    const res = await postForm('/api/discount', buyerForm({ discountCode: 'EARLY50', uname: 'Kept' }), { env: orderEnv, jar });
    const f = flashOf(res, `${FORM}?ticketId=2`);
    // the price per ticket and the code go with it, for the page's total; the answer is shown at the field
    expect(f?.notice).toMatchObject({ key: 'ticket.discountApplied', vars: { price: '¥125.00', unit: 12500, code: 'EARLY50' } });
    expect(f?.values).toMatchObject({ uname: 'Kept', discountCode: 'EARLY50' });
    expect(res.headers.get('location')).toBe(`${FORM}?ticketId=2#discount`);
  });
});

describe('POST /api/order/action', () => {
  async function bought(email: string, more: Record<string, string> = {}): Promise<string> {
    // Each call is a new form view (its own idempotency key), as the page renders it.
    const idem = crypto.randomUUID().replace(/-/g, '');
    const res = await postForm('/api/order', buyerForm({ quantity: '1', idem, ...more }), { env: orderEnv, jar: await jarFor(email) });
    return payNo(res.headers.get('location'));
  }
  const details = (no: string) => `/orderDetails/${PATH}?orderNo=${no}`;
  const act = async (email: string, orderNo: string, action: string, more: Record<string, string> = {}) =>
    postForm('/api/order/action', { path: PATH, orderNo, action, ...more }, { env: orderEnv, jar: await jarFor(email) });

  it("someone else's order is refused and left unchanged, for every action", async () => {
    const owner = uniq('owner');
    const no = await bought(owner);
    for (const action of ['cancel', 'pay', 'refund', 'cancelRefund']) {
      const res = await act(uniq('mallory'), no, action, { reason: 'x' });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`/orderList/${PATH}`);
      expect(flashOf(res, `/orderList/${PATH}`)?.notice?.text).toBe('未找到该订单');
    }
    const json = await postJson(
      '/api/order/action',
      { path: PATH, orderNo: no, action: 'cancel' },
      { env: orderEnv, jar: await jarFor(uniq('mallory')) },
    );
    expect(json.status).toBe(403);
    expect((await ordersOf(owner))[0]?.status).toBe(0);
  });

  it('cancel an unpaid order; pay again goes to the cashier', async () => {
    const email = uniq('cancel');
    const no = await bought(email);
    const again = await act(email, no, 'pay');
    expect(payNo(again.headers.get('location'))).toBe(no);
    const res = await act(email, no, 'cancel');
    expect(res.headers.get('location')).toBe(details(no));
    expect(flashOf(res, details(no))?.notice?.key).toBe('order.cancelDone');
    expect((await ordersOf(email))[0]?.status).toBe(3);
    // Not twice, and a cancelled order cannot be paid.
    expect(flashOf(await act(email, no, 'cancel'), details(no))?.notice?.text).toBe('该订单当前不能进行此操作');
    expect(flashOf(await act(email, no, 'pay'), details(no))?.notice?.text).toBe('该订单当前不能进行此操作');
  });

  it('refund: the reason is required; apply, then cancel the application', async () => {
    const email = uniq('refund');
    const no = await bought(email);
    expect((await pay(no)).headers.get('location')).toBe(`/ticketSuccess/${PATH}?orderNo=${no}&pay=paid`);
    const noReason = await act(email, no, 'refund', { reason: ' ' });
    expect(flashOf(noReason, details(no))?.error?.field).toBe('reason');
    const applied = await act(email, no, 'refund', { reason: 'cannot come' });
    expect(flashOf(applied, details(no))?.notice?.key).toBe('order.refundDone');
    expect((await ordersOf(email))[0]?.status).toBe(5);
    const withdrawn = await act(email, no, 'cancelRefund');
    expect(flashOf(withdrawn, details(no))?.notice?.key).toBe('order.cancelRefundDone');
    expect((await ordersOf(email))[0]?.status).toBe(2);
    // An unpaid order offers no refund.
    const unpaid = await bought(email);
    expect(flashOf(await act(email, unpaid, 'refund', { reason: 'x' }), details(unpaid))?.notice?.text).toBe(
      '当前不支持退款',
    );
  });

  it("a paid e-ticket's QR image answers like a credential's (the code is public, the image shows nothing more)", async () => {
    const email = uniq('qr');
    const no = await bought(email);
    const unpaidCodes = await testEnv.DB.prepare('SELECT eu_code FROM registrations WHERE order_no = ?').bind(no).all<{ eu_code: string }>();
    expect(unpaidCodes.results).toEqual([]);
    await pay(no);
    const { results } = await testEnv.DB.prepare('SELECT eu_code FROM registrations WHERE order_no = ?').bind(no).all<{ eu_code: string }>();
    const euCode = results[0]?.eu_code ?? '';
    expect(euCode).not.toBe('');
    const image = qrImagePath({ urlId: 21216, euCode, expoId: E, fId: 21216 });
    // no cookie: the holder of the code, as for a credential
    const res = await app.request(`${BASE}${image}`, {}, orderEnv);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const save = await app.request(`${BASE}${qrImagePath({ urlId: 21216, euCode, expoId: E, fId: 21216 }, { save: true })}`, {}, orderEnv);
    expect(save.headers.get('content-disposition')).toBe(`attachment; filename="${euCode}.png"`);
    // another expo's path for the same code is not an image
    expect((await app.request(`${BASE}${qrImagePath({ urlId: 21308, euCode, expoId: 1308, fId: 21308 })}`, {}, orderEnv)).status).toBe(404);
  });

  it('a malformed action or order number is a 400', async () => {
    const jar = await jarFor(uniq('bad'));
    for (const body of [
      { path: PATH, orderNo: 'x', action: 'cancel' },
      { path: PATH, orderNo: 'T20260101ABCDEF', action: 'delete' },
      { path: 'nope', orderNo: 'T20260101ABCDEF', action: 'cancel' },
    ]) {
      expect((await postForm('/api/order/action', body, { env: orderEnv, jar })).status).toBe(400);
    }
  });
});

describe('the attacker', () => {
  it('a huge body is 413, a malformed one is a clear 400 or a kept form, never an order', async () => {
    const email = uniq('huge');
    const jar = await jarFor(email);
    const huge = await postForm('/api/order', buyerForm({ uname: 'x'.repeat(70 * 1024) }), { env: orderEnv, jar });
    expect(huge.status).toBe(413);
    const act = await postForm(
      '/api/order/action',
      { path: PATH, orderNo: 'T1234567', action: 'cancel', reason: 'x'.repeat(9000) },
      { env: orderEnv, jar },
    );
    expect(act.status).toBe(413);
    const malformed = await app.request(
      `${BASE}/api/order`,
      { method: 'POST', headers: { 'content-type': 'application/json', cookie: jar.header() }, body: '{"path": ' },
      orderEnv,
    );
    expect(malformed.status).toBe(400);
    const arr = await app.request(
      `${BASE}/api/order`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: jar.header() },
        body: JSON.stringify([buyerForm()]),
      },
      orderEnv,
    );
    expect(arr.status).toBe(400);
    expect(await ordersOf(email)).toEqual([]);
  });

  it('a cross-site post is refused (403) and makes no order', async () => {
    const email = uniq('csrf');
    const jar = await jarFor(email);
    for (const headers of [{ origin: 'https://evil.example' }, { referer: 'https://evil.example/x' }]) {
      const res = await app.request(
        `${BASE}/api/order`,
        {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
          body: new URLSearchParams(buyerForm()),
          redirect: 'manual',
        },
        orderEnv,
      );
      expect(res.status).toBe(403);
    }
    expect(await ordersOf(email)).toEqual([]);
  });

  it('HEAD and GET do nothing', async () => {
    const email = uniq('head');
    const jar = await jarFor(email);
    for (const method of ['HEAD', 'GET']) {
      const res = await app.request(
        `${BASE}/api/order?${new URLSearchParams(buyerForm())}`,
        { method, headers: { cookie: jar.header() } },
        orderEnv,
      );
      expect(res.status).toBe(404);
    }
    expect(await ordersOf(email)).toEqual([]);
  });
});

describe('the lookup brings the visitor back (next)', () => {
  it('verified with a code → the purchase page it came from; another site or expo → the usual outcome', async () => {
    const email = uniq('next');
    const base = { expoId: String(E), urlId: '21216', ty: 'visitor', variant: '', f: '' };
    const next = `/orderList/${PATH}`;
    const jar = new Jar();
    const code = await sendAndRead(base, { checkType: '2', email }, jar);
    const { reply } = await lookupJson({ ...base, checkType: '2', email, code, next }, { jar, env: fastEnv });
    expect(reply.data).toMatchObject({ outcome: 'navigate', location: next });
    expect(jar.has(CONTACT_COOKIE)).toBe(true);
    for (const evil of [
      'https://evil.example/',
      '//evil.example/orderList/21216/MTIxNg/visitor',
      `/orderList/21308/${encodeId(1308)}/visitor`,
      '/success/x',
    ]) {
      const other = new Jar();
      const c2 = await sendAndRead(base, { checkType: '2', email }, other);
      const r = await lookupJson(
        { ...base, checkType: '2', email, code: c2, next: evil },
        { jar: other, env: fastEnv },
      );
      expect((r.reply.data as { location?: string }).location).not.toBe(evil);
    }
  });
});

describe('issue 30: what was typed on the buyer form is never lost', () => {
  /** A jar whose proof is `agoMs` old, the buyer form opened at once (its window: 30 minutes from then). */
  async function provedAgo(email: string, agoMs: number): Promise<Jar> {
    const signed = await signContact({ expoId: E, contact: email, checkType: 2 }, SECRET, Date.now() - agoMs);
    const opened = await openFormWindow(signed, SECRET, Date.now() - agoMs);
    return new Jar({ [CONTACT_COOKIE]: encodeURIComponent(opened?.value ?? '') });
  }
  const again = `/search/${PATH}?next=${encodeURIComponent(`${FORM}?ticketId=2`)}`;

  it('the discount check holds the form\'s window: 11 minutes after the proof it still answers at its field', async () => {
    const res = await postForm('/api/discount', buyerForm({ discountCode: 'EARLY50' }), { env: orderEnv, jar: await provedAgo(uniq('d11'), 11 * 60_000) });
    expect(res.headers.get('location')).toBe(`${FORM}?ticketId=2#discount`);
    expect(flashOf(res, `${FORM}?ticketId=2`)?.notice?.key).toBe('ticket.discountApplied');
  });

  it('past the window, the discount check says the proof ran out, fills the contact in and keeps every value in the form\'s draft', async () => {
    const email = uniq('d3h');
    const res = await postForm('/api/discount', buyerForm({ discountCode: 'EARLY50', 'payType': '1' }), { env: orderEnv, jar: await provedAgo(email, 3 * 3600_000) });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(again);
    const flash = flashOf(res, again);
    expect(flash?.notice?.key).toBe('form.expired');
    expect(flash?.values).toEqual({ checkType: '2', email });
    const draft = setCookie(res, DRAFT_COOKIE);
    expect(draft?.attrs['path']).toBe(FORM);
    expect(decodeFlash(decodeURIComponent(draft?.value ?? ''), `${FORM}?ticketId=2`)?.values).toMatchObject({
      uname: '买票人',
      ucompany: 'Demo Co.',
      'ucardid.type': '2',
      ucardid: 'E12345678',
      industry: 'Energy',
      'purpose.0': 'Sourcing',
      privacy: 'on',
      discountCode: 'EARLY50',
      quantity: '2',
      payType: '1',
    });
  });

  it('a no-JS refusal of the order keeps every value in the draft too, so a reload of the form refills it', async () => {
    const res = await postForm('/api/order', buyerForm({ uname: '', ucompany: 'Reload Co.', discountCode: 'EARLY50' }), { env: orderEnv, jar: await jarFor(uniq('reload')) });
    expect(res.headers.get('location')).toBe(`${FORM}?ticketId=2`);
    const draft = setCookie(res, DRAFT_COOKIE);
    expect(draft?.attrs['path']).toBe(FORM);
    expect(decodeFlash(decodeURIComponent(draft?.value ?? ''), `${FORM}?ticketId=2`)?.values).toMatchObject({ ucompany: 'Reload Co.', discountCode: 'EARLY50', quantity: '2' });
  });
});
