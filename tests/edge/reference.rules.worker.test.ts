/**
 * The reference upstream's own numbers, by what it does at the values docs/upstream.md states
 * (written here as numbers, never read from functions/reference/rules.ts or the edge's constants,
 * so a wrong number fails a test instead of agreeing with itself): 1 to 20 tickets an order, the
 * 10-minute hold before paying and spec §9's 30 minutes after, 1 open order per ticket, JPEG or
 * PNG of at most 5 MB, 3 uploads a kind. The others are asserted where they act: 3 open orders a
 * contact (reference.money), a third and the 15-minute wait (reference.holds), the check-in
 * bounds (reference.checkin).
 */
import { describe, expect, it } from 'vitest';
import { encryptJson } from '../../src/lib/contract/aes';
import reference from '../../functions/reference';
import { aesKeyOf, call, testEnv } from './reference.helpers';
import { JPEG_1X1 } from '../unit/image-fixtures';

const E = 1216;
const URL_ID = 21216;
const uniq = (tag: string) => `rules-${tag}-${crypto.randomUUID().slice(0, 8)}@demo.test`;

async function order(p: { ticketId: number; quantity: number; email: string }) {
  const data = await encryptJson({ uname: 'Buyer', email: p.email, checkType: 2 }, await aesKeyOf(E));
  return call('/CustomerUserInfo/createOrderNew', {
    expoId: E,
    body: { expoId: E, urlsId: URL_ID, ticketId: p.ticketId, quantity: p.quantity, payType: 2, data },
  });
}

/** Minutes between two expo-local `"YYYY-MM-DD HH:mm:ss"` times. */
const minutesBetween = (from: string, to: string) =>
  (Date.parse(to.replace(' ', 'T') + 'Z') - Date.parse(from.replace(' ', 'T') + 'Z')) / 60_000;

async function orderTimes(orderNo: string): Promise<{ createTime: string; expireTime: string }> {
  const r = await call('/customFrom/getOrderStatus', { expoId: E, query: { expoId: String(E), orderNo } });
  expect(r.code).toBe(200);
  return r.data as { createTime: string; expireTime: string };
}

describe('orders', () => {
  it('takes 1 to 20 tickets: 0 and 21 are bad input', async () => {
    expect((await order({ ticketId: 2, quantity: 0, email: uniq('q0') })).code).toBe(400);
    expect((await order({ ticketId: 2, quantity: 21, email: uniq('q21') })).code).toBe(400);
  });

  it('holds a new order 10 minutes, and 30 from the first doUnifiedOrder', async () => {
    const made = await order({ ticketId: 2, quantity: 1, email: uniq('hold') });
    expect(made.code).toBe(200);
    const { orderNo } = made.data as { orderNo: string };
    const before = await orderTimes(orderNo);
    expect(minutesBetween(before.createTime, before.expireTime)).toBeCloseTo(10, 1);
    const pay = await call('/customFrom/doUnifiedOrder', {
      expoId: E,
      body: { expoId: E, orderNo, payType: 2, returnUrl: '/ticketSuccess/x' },
    });
    expect(pay.code).toBe(200);
    const after = await orderTimes(orderNo);
    // The 30 minutes run from the call, a moment after the order was made.
    const fromCreate = minutesBetween(after.createTime, after.expireTime);
    expect(fromCreate).toBeGreaterThanOrEqual(30);
    expect(fromCreate).toBeLessThan(30.5);
  });

  it('keeps 1 unpaid order open per contact and ticket (20107)', async () => {
    const email = uniq('open');
    expect((await order({ ticketId: 2, quantity: 1, email })).code).toBe(200);
    expect((await order({ ticketId: 2, quantity: 1, email })).code).toBe(20107);
  });
});

describe('health uploads', () => {
  const owner = { expoId: 2012, euCode: 'HEALTH2OI2EDGEOI' };
  async function upload(kind: string, file: Uint8Array<ArrayBuffer>) {
    const form = new FormData();
    form.set('expoId', String(owner.expoId));
    form.set('euCode', owner.euCode);
    form.set('kind', kind);
    form.set('file', new Blob([file]), 'x.jpg');
    const res = await reference.fetch(
      new Request('http://ref/custom/health/uploadEpidemicPreventionInfo', { method: 'POST', headers: { expoId: '2012' }, body: form }),
      testEnv,
    );
    return (await res.json()) as { code: number; data: { id: number } | null };
  }

  it('takes kinds 1 to 3 only, and a JPEG or PNG by its bytes', async () => {
    expect((await upload('4', JPEG_1X1)).code).toBe(400);
    expect((await upload('0', JPEG_1X1)).code).toBe(400);
    expect((await upload('1', new TextEncoder().encode('<svg/> not an image'))).code).toBe(400);
  });

  it('refuses a file over 5 MB (5 × 1024 × 1024 bytes)', async () => {
    const huge = new Uint8Array(5 * 1024 * 1024 + 1);
    huge.set(JPEG_1X1);
    expect((await upload('1', huge)).code).toBe(400);
  });

  it('keeps at most 3 uploads of a kind per registration', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await upload('2', JPEG_1X1)).code);
    expect(codes).toEqual([200, 200, 200, 400]);
  });
});
