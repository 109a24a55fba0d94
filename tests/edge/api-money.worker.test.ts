/**
 * Money at the edge, as an attacker or a real organiser runs it (issue 19 items 8, 9, 11, 13):
 * a cashier on another origin over https (an organiser's own API, which knows none of our
 * variables), 300 discount-code guesses, 100 orders from one contact at once, and 40 refund
 * applications at once. In workerd, the whole app in-process.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderReply } from '../../src/lib/actions/replies';
import type { AppEnv } from '../../functions/env';
import { encryptJson } from '../../src/lib/contract/aes';
import { CONTACT_COOKIE, signContact } from '../../src/lib/lookup/contact-cookie';
import { encodeId } from '../../src/lib/util/ids';
import { app, BASE, flashOf, LIFTED_LIMITS, SECRET, testEnv } from './api-lookup.helpers';

const E = 1216;
const PATH = `21216/${encodeId(E)}/visitor`;
const uniq = (tag: string) => `edge-money-${tag}-${crypto.randomUUID().slice(0, 8)}@demo.test`;

async function cookieFor(email: string, expoId = E): Promise<string> {
  return `${CONTACT_COOKIE}=${encodeURIComponent(await signContact({ expoId, contact: email, checkType: 2 }, SECRET))}`;
}

/** A browser post from one client address (`CF-Connecting-IP`), as JSON or as a form. */
async function post(
  path: string,
  body: Record<string, string>,
  o: { cookie: string; ip?: string; json?: boolean; env?: AppEnv },
): Promise<Response> {
  const headers: Record<string, string> = { cookie: o.cookie, 'cf-connecting-ip': o.ip ?? '198.51.100.7' };
  if (o.json) {
    headers['content-type'] = 'application/json';
    headers['accept'] = 'application/json';
  } else headers['content-type'] = 'application/x-www-form-urlencoded';
  return app.request(
    `${BASE}${path}`,
    {
      method: 'POST',
      headers,
      body: o.json ? JSON.stringify(body) : new URLSearchParams(body),
      redirect: 'manual',
    },
    o.env ?? testEnv,
  );
}

const buyerForm = (more: Record<string, string> = {}) => ({
  path: PATH,
  ticketId: '2',
  quantity: '1',
  payType: '2',
  discountCode: '',
  uname: '买票人',
  ucompany: 'Demo Co.',
  'ucardid.type': '2',
  ucardid: 'E12345678',
  industry: 'Energy',
  'purpose.0': 'Sourcing',
  privacy: 'on',
  idem: crypto.randomUUID().replace(/-/g, ''),
  ...more,
});

/**
 * An organiser's own API (docs/upstream.md), as the hidden tests run one: it knows nothing of our
 * variables, and its provider's cashier is `https://cashier.pay.test` (another origin, https).
 */
const UP = 'https://organiser.test';
const KEY = 'organiserKey0001';
function organiser(payUrl: (orderNo: string) => string) {
  const unified: Array<Record<string, unknown>> = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = input instanceof Request ? input : new Request(input, init);
    const url = new URL(req.url);
    if (url.origin !== UP) throw new TypeError(`unmocked network: ${url.origin}`);
    const ok = (data: unknown) =>
      new Response(JSON.stringify({ code: 200, msg: 'success', data }), {
        headers: { 'content-type': 'application/json' },
      });
    const p = url.pathname;
    if (p.endsWith('/selectAESKey')) return ok({ aesKey: KEY });
    if (p.endsWith('/getCustomerId')) return ok(await encryptJson({ customerForm: [] }, KEY));
    if (p.endsWith('/createOrderNew')) return ok({ orderNo: 'T20260101ORGANISER01', totalFee: 100, expireTime: null });
    if (p.endsWith('/doUnifiedOrder')) {
      unified.push((await req.json()) as Record<string, unknown>);
      return ok({ payUrl: payUrl('T20260101ORGANISER01') });
    }
    return new Response(JSON.stringify({ code: 404, msg: 'unknown call', data: null }));
  });
  return { unified, restore: () => spy.mockRestore() };
}
const organiserEnv: AppEnv = { ...testEnv, ...LIFTED_LIMITS, UPSTREAM_URL: UP };

afterEach(() => vi.restoreAllMocks());

describe('a cashier on another origin over https (item 9)', () => {
  const form = { path: PATH, ticketId: '7', quantity: '1', payType: '2', idem: 'organiserform0000001' };

  it("no JS: a page of this site that continues to the cashier (link + refresh), never a cross-origin 303 that form-action 'self' blocks; returnUrl absolute", async () => {
    const org = organiser((no) => `https://cashier.pay.test/checkout?order=${no}&sig=a"b<c`);
    const res = await post('/api/order', form, { cookie: await cookieFor(uniq('cashier')), env: organiserEnv });
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
    const html = await res.text();
    const cashier = 'https://cashier.pay.test/checkout?order=T20260101ORGANISER01&amp;sig=a%22b%3Cc';
    expect(html).toContain(`<meta http-equiv="refresh" content="0;url=${cashier}">`);
    expect(html).toContain(`<a href="${cashier}" rel="noreferrer">继续前往支付</a>`);
    expect(html).toContain('cashier.pay.test');
    expect(html).not.toContain('<script');
    // The provider is told where to bring the buyer back: this site's absolute URL.
    expect(org.unified).toHaveLength(1);
    expect(org.unified[0]?.['returnUrl']).toBe(`${BASE}/ticketSuccess/${PATH}?orderNo=T20260101ORGANISER01`);
  });

  it('JSON (an island): the cashier URL to navigate to', async () => {
    organiser((no) => `https://cashier.pay.test/checkout?order=${no}`);
    const res = await post('/api/order', form, { cookie: await cookieFor(uniq('cashier-js')), env: organiserEnv, json: true });
    const reply = (await res.json()) as OrderReply;
    expect(reply.data).toEqual({
      outcome: 'navigate',
      location: 'https://cashier.pay.test/checkout?order=T20260101ORGANISER01',
    });
  });

  it('a payUrl that is not http(s) is refused and logged, never followed', async () => {
    for (const bad of ['javascript:alert(1)', 'data:text/html,<h1>x', '//evil.example/x', 'https://u:p@evil.example/']) {
      organiser(() => bad);
      const error = vi.spyOn(console, 'error').mockImplementation(() => {});
      const res = await post('/api/order', { ...form, idem: `organiserbad${crypto.randomUUID().slice(0, 8)}` }, {
        cookie: await cookieFor(uniq('bad-pay')),
        env: organiserEnv,
      });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`/orderDetails/${PATH}?orderNo=T20260101ORGANISER01`);
      expect(error.mock.calls.flat().join(' ')).toContain('unusable payUrl');
      vi.restoreAllMocks();
    }
  });

  it('the reference with REF_CASHIER_URL hands out that cashier, with the order, amount and absolute returnUrl', async () => {
    const env = { ...testEnv, ...LIFTED_LIMITS, REF_CASHIER_URL: 'https://cashier.pay.test/pay' };
    const res = await post('/api/order', buyerForm(), { cookie: await cookieFor(uniq('refcashier')), env });
    expect(res.status).toBe(200);
    const href = /<a href="([^"]+)"/.exec(await res.text())?.[1]?.replaceAll('&amp;', '&') ?? '';
    const u = new URL(href);
    expect(u.origin).toBe('https://cashier.pay.test');
    const orderNo = u.pathname.split('/').pop() ?? '';
    expect(u.searchParams.get('totalFee')).toBe('25000');
    expect(u.searchParams.get('returnUrl')).toBe(`${BASE}/ticketSuccess/${PATH}?orderNo=${orderNo}`);
  });
});

describe('limits on discount codes and orders (item 8)', () => {
  it('300 discount guesses from one contact: refused past the limit; unknown and used-up answer alike', async () => {
    const cookie = await cookieFor(uniq('guess'));
    const guess = (code: string) =>
      post('/api/discount', { path: PATH, ticketId: '2', discountCode: code }, { cookie, json: true, ip: '203.0.113.50' });
    // The first answers: an unknown code and a used-up one are indistinguishable.
    const unknown = await guess('NOPE0001');
    const usedUp = await guess('USEDUP');
    const a = (await unknown.json()) as OrderReply;
    const b = (await usedUp.json()) as OrderReply;
    expect(a).toEqual(b);
    expect(a).toMatchObject({ code: 20101, data: { outcome: 'invalid', field: 'discountCode' } });
    const rs = await Promise.all(Array.from({ length: 298 }, (_, i) => guess(`G${String(i).padStart(5, '0')}`)));
    const refused = rs.filter((r) => r.status === 429);
    expect(rs.length - refused.length).toBe(8); // LIMIT_DISCOUNT_TRIES_PER_CONTACT_HOUR: 10 in all
    const body = (await refused[0]!.json()) as { code: number; msg: string };
    expect(body.code).toBe(600);
    expect(refused[0]!.headers.get('retry-after')).toMatch(/^\d+$/);
    // Even the right code is refused now: the limit is not an oracle either.
    expect((await guess('EARLY50')).status).toBe(429);
  }, 60_000);

  it('the address limit holds across contacts (each with its own proven contact; the cap set to 30, its default sits above a crowd)', async () => {
    const ip = '203.0.113.51';
    const env = { ...testEnv, LIMIT_DISCOUNT_TRIES_PER_IP_HOUR: '30' };
    const rs = [];
    for (let i = 0; i < 40; i++) {
      const cookie = await cookieFor(uniq(`many${i}`));
      rs.push(await post('/api/discount', { path: PATH, ticketId: '2', discountCode: 'NOPE' }, { cookie, json: true, ip, env }));
    }
    expect(rs.filter((r) => r.status !== 429)).toHaveLength(30); // LIMIT_DISCOUNT_TRIES_PER_IP_HOUR
  }, 60_000);

  it('no JS: a refused guess comes back to the form with what was typed', async () => {
    const cookie = await cookieFor(uniq('guess-form'));
    const ip = '203.0.113.52';
    for (let i = 0; i < 10; i++) await post('/api/discount', buyerForm({ discountCode: `X${i}` }), { cookie, ip });
    const res = await post('/api/discount', buyerForm({ discountCode: 'X11', uname: 'Kept' }), { cookie, ip });
    expect(res.status).toBe(303);
    const f = flashOf(res, `/ticketForm/${PATH}?ticketId=2`);
    expect(f?.notice?.key).toBe('limit.attemptsMinutes');
    expect(f?.values).toMatchObject({ uname: 'Kept', discountCode: 'X11' });
  });

  it('100 orders from one contact at once: at most the cap held, the stock not exhausted', async () => {
    const email = uniq('hoard');
    const cookie = await cookieFor(email);
    const left = async () =>
      (
        await testEnv.DB.prepare(
          `SELECT t.stock - t.sold_count - (SELECT coalesce(sum(quantity), 0) FROM orders o WHERE o.ticket_id = t.id AND (o.status IN (1, 2, 5) OR (o.status = 0 AND o.expire_ms > ?))) AS n FROM tickets t WHERE t.id = 1`,
        )
          .bind(Date.now())
          .first<{ n: number }>()
      )?.n ?? 0;
    const before = await left();
    const rs = await Promise.all(
      Array.from({ length: 100 }, () => post('/api/order', buyerForm({ ticketId: '1' }), { cookie, json: true, ip: '203.0.113.53' })),
    );
    expect(rs.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(90); // LIMIT_ORDERS_PER_CONTACT_HOUR: 10
    const { results } = await testEnv.DB.prepare('SELECT quantity FROM orders WHERE contact = ? AND status = 0')
      .bind(email)
      .all<{ quantity: number }>();
    expect(results).toHaveLength(1); // REF_OPEN_ORDERS_PER_TICKET: one open order per contact and ticket
    expect(await left()).toBe(before - 1);
    expect(before - 1).toBeGreaterThan(0);
  }, 60_000);
});

describe('refunds at the edge (item 13)', () => {
  it('40 refund applications at once: one wins, the others are told a refund is already applied for', async () => {
    const email = uniq('refund-race');
    const cookie = await cookieFor(email);
    const env = { ...testEnv, ...LIFTED_LIMITS };
    const made = await post('/api/order', buyerForm(), { cookie, env, json: true });
    const location = ((await made.json()) as OrderReply & { data: { location: string } }).data.location;
    const orderNo = location.split('/').pop() ?? '';
    const paid = await app.request(`${BASE}/dev/pay/${orderNo}`, { method: 'POST', body: new URLSearchParams({ action: 'pay' }), redirect: 'manual' }, env);
    expect(paid.headers.get('location')).toContain('pay=paid');
    const rs = await Promise.all(
      Array.from({ length: 40 }, () =>
        post('/api/order/action', { path: PATH, orderNo, action: 'refund', reason: 'race' }, { cookie, env, json: true }),
      ),
    );
    const replies = (await Promise.all(rs.map((r) => r.json()))) as OrderReply[];
    expect(replies.filter((r) => r.code === 200)).toHaveLength(1);
    const losers = replies.filter((r) => r.code !== 200);
    expect(losers).toHaveLength(39);
    for (const l of losers) {
      expect(l.msg).not.toContain('used');
      expect(['该订单已申请退款', '该订单当前不能进行此操作']).toContain(l.msg);
    }
    expect(losers.some((l) => l.msg === '该订单已申请退款')).toBe(true);
  }, 60_000);
});

describe("the provider's callback on a deployment (item 13)", () => {
  const deployed: AppEnv = { ...testEnv, DEV_OUTBOX: '', REF_HTTP: '' };
  const call = (path: string, init: RequestInit, env: AppEnv) =>
    app.request(`https://expo.example${path}`, { ...init, headers: { expoId: String(E), ...(init.headers ?? {}) } }, env);

  it('POST payNotify answers with REF_PAY_SECRET set (signed notifications only); nothing else of the face opens', async () => {
    const forged = await call('/custom/customFrom/payNotify', { method: 'POST', body: '{"orderNo":"T1"}', headers: { 'x-pay-signature': 'ab' } }, deployed);
    expect(forged.status).toBe(200);
    expect(((await forged.json()) as { code: number; msg: string })).toMatchObject({ code: 401, msg: 'bad signature' });
    // The rest of the reference's HTTP face stays closed, and so do other methods.
    expect((await call('/custom/CustomerUserInfo/selectAESKey', { method: 'GET' }, deployed)).status).toBe(404);
    expect((await call('/custom/customFrom/payNotify', { method: 'GET' }, deployed)).status).toBe(404);
    expect((await call('/custom/customFrom/payNotify', { method: 'HEAD' }, deployed)).status).toBe(404);
    // A huge body is refused before any work; a cross-site browser post gains nothing (no cookie is read).
    const huge = await call('/custom/customFrom/payNotify', { method: 'POST', body: 'x'.repeat(200_000) }, deployed);
    expect(huge.status === 413 || ((await huge.json()) as { code: number }).code === 400).toBe(true);
    // Without the merchant key, or with the organiser's own API, it does not exist.
    expect((await call('/custom/customFrom/payNotify', { method: 'POST', body: '{}' }, { ...deployed, REF_PAY_SECRET: '' })).status).toBe(404);
    expect((await call('/custom/customFrom/payNotify', { method: 'POST', body: '{}' }, { ...deployed, UPSTREAM_URL: UP })).status).toBe(404);
  });
});
