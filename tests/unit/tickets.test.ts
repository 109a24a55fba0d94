/** The purchase rules of src/lib/tickets/tickets.ts, money.ts and ticket-paths.ts (issue 11). */
import { describe, expect, it } from 'vitest';
import { createT } from '../../src/i18n';
import { LANGS } from '../../src/lib/core/languages';
import { formatPrice, marketOf, minorDigits } from '../../src/lib/tickets/money';
import { isTicketNext, ticketPaths } from '../../src/lib/tickets/paths';
import {
  OrderStatus,
  SALE_STATE_KEYS,
  clock,
  effectiveStatus,
  expoLocalMs,
  expoLocalText,
  holdSecondsLeft,
  orderActions,
  orderStatusKey,
  saleState,
} from '../../src/lib/tickets/tickets';

const T0 = Date.UTC(2026, 0, 1, 0, 0, 0); // 08:00 in UTC+8
const CN = 480;

describe('order states (spec §4)', () => {
  it('every state has a label in all seven languages; an unknown state is never "paid"', () => {
    for (const lang of LANGS) {
      const t = createT(lang);
      const labels = [0, 1, 2, 3, 4, 5, 6].map((s) => t(orderStatusKey(s) as Parameters<typeof t>[0]));
      expect(new Set(labels).size, lang).toBe(7);
      for (const l of labels) expect(l, lang).not.toMatch(/^order\./);
    }
    expect(orderStatusKey(9)).toBe('order.unknown');
    expect(orderStatusKey(null)).toBe('order.unknown');
    expect(createT('en')(orderStatusKey(1) as 'order.pendingReview')).toBe('Payment pending review');
  });

  it('an unpaid order past its hold reads as timed out', () => {
    const o = { status: OrderStatus.UNPAID, expireTime: '2026-01-01 08:30:00' };
    expect(effectiveStatus(o, T0, CN)).toBe(0);
    expect(effectiveStatus(o, T0 + 30 * 60_000, CN)).toBe(4);
    expect(effectiveStatus({ status: 2, expireTime: '2026-01-01 08:30:00' }, T0 + 3600_000, CN)).toBe(2);
    expect(effectiveStatus({ status: 0, expireTime: 'garbage' }, T0, CN)).toBe(4);
  });
});

describe('the hold (spec §9)', () => {
  it('seconds left, and a clock', () => {
    expect(holdSecondsLeft({ status: 0, expireTime: '2026-01-01 08:30:00' }, T0, CN)).toBe(1800);
    expect(holdSecondsLeft({ status: 0, expireTime: '2026-01-01 08:30:00' }, T0 + 1_799_500, CN)).toBe(0);
    expect(holdSecondsLeft({ status: 2, expireTime: '2026-01-01 08:30:00' }, T0, CN)).toBe(0);
    expect(clock(1800)).toBe('30:00');
    expect(clock(65)).toBe('1:05');
    expect(clock(-3)).toBe('0:00');
  });

  it('expo-local text ↔ ms', () => {
    expect(expoLocalMs('2026-01-01 08:00:00', CN)).toBe(T0);
    expect(expoLocalText(T0, CN)).toBe('2026-01-01 08:00:00');
    expect(expoLocalMs('2026-02-30 08:00:00', CN)).toBeNull();
    expect(expoLocalMs(null, CN)).toBeNull();
  });
});

describe('actions by state (docs/upstream.md)', () => {
  const open = { open: true, deadline: '2026-06-30 23:59:59' };
  it('unpaid in the window: pay and cancel', () => {
    expect(orderActions({ status: 0, expireTime: '2026-01-01 08:30:00' }, open, T0, CN)).toEqual({
      pay: true,
      cancel: true,
      refund: false,
      cancelRefund: false,
    });
    expect(orderActions({ status: 0, expireTime: '2026-01-01 08:30:00' }, open, T0 + 31 * 60_000, CN)).toEqual({
      pay: false,
      cancel: false,
      refund: false,
      cancelRefund: false,
    });
  });
  it('paid: refund only while refunds are open and before the deadline', () => {
    const paid = { status: 2, expireTime: null };
    expect(orderActions(paid, open, T0, CN).refund).toBe(true);
    expect(orderActions(paid, { open: false, deadline: null }, T0, CN).refund).toBe(false);
    expect(orderActions(paid, { open: true, deadline: '2025-12-31 23:59:59' }, T0, CN).refund).toBe(false);
    expect(orderActions(paid, { open: true, deadline: null }, T0, CN).refund).toBe(true);
    expect(orderActions(paid, null, T0, CN).refund).toBe(false);
  });
  it('refund applied: cancel the application; nothing for the others', () => {
    expect(orderActions({ status: 5, expireTime: null }, open, T0, CN)).toEqual({
      pay: false,
      cancel: false,
      refund: false,
      cancelRefund: true,
    });
    for (const status of [1, 3, 4, 6]) {
      expect(Object.values(orderActions({ status, expireTime: null }, open, T0, CN)).some(Boolean)).toBe(false);
    }
  });
});

describe('sale state', () => {
  const t = { saleStart: '2026-01-01 00:00:00', saleEnd: '2026-06-30 18:00:00', stock: 20, soldCount: 12 };
  it('on sale, sold out, not yet, ended; the surplus decides when known', () => {
    expect(saleState(t, T0, CN)).toBe('on-sale');
    expect(saleState({ ...t, soldCount: 20 }, T0, CN)).toBe('sold-out');
    expect(saleState({ ...t, stock: 0, soldCount: 999 }, T0, CN)).toBe('on-sale');
    expect(saleState(t, T0, CN, 0)).toBe('sold-out');
    expect(saleState(t, T0, CN, -1)).toBe('on-sale');
    expect(saleState({ ...t, saleStart: '2026-01-02 00:00:00' }, T0, CN)).toBe('not-yet');
    expect(saleState({ ...t, saleEnd: '2026-01-01 07:00:00' }, T0, CN)).toBe('ended');
    expect(saleState({ saleStart: null, saleEnd: null, stock: null, soldCount: null }, T0, CN)).toBe('on-sale');
  });
  it('every state has its text in every language', () => {
    for (const lang of LANGS)
      for (const key of Object.values(SALE_STATE_KEYS)) expect(createT(lang)(key as 'ticket.onSale')).not.toBe(key);
  });
});

describe('money', () => {
  it('minor units in the expo currency, formatted for the page language', () => {
    expect(formatPrice(8000, 'CNY', 'zh')).toBe('¥80.00');
    expect(formatPrice(2000, 'SGD', 'en')).toMatch(/20\.00/);
    expect(formatPrice(2000, 'SGD', 'en')).toMatch(/SGD|S\$/);
    expect(formatPrice(150000, 'THB', 'thai')).toMatch(/1,500\.00/);
    expect(formatPrice(50000, 'VND', 'vn')).toMatch(/50\.000/);
    expect(minorDigits('VND')).toBe(0);
    expect(minorDigits('CNY')).toBe(2);
    expect(marketOf(2002).currency).toBe('SGD');
    expect(marketOf(1216)).toEqual({ currency: 'CNY', utcOffsetMinutes: 480 });
  });
});

describe('purchase paths (spec §2.3)', () => {
  const p = ticketPaths({ fId: 21216, expoId: 1216, ty: 'visitor' });
  it('builds every screen of one page', () => {
    expect(p.list).toBe('/ticket/21216/MTIxNg/visitor');
    expect(p.form(2)).toBe('/ticketForm/21216/MTIxNg/visitor?ticketId=2');
    expect(p.success('T1')).toBe('/ticketSuccess/21216/MTIxNg/visitor?orderNo=T1');
    expect(p.orders).toBe('/orderList/21216/MTIxNg/visitor');
    expect(p.details('T1')).toBe('/orderDetails/21216/MTIxNg/visitor?orderNo=T1');
    expect(p.verify(p.orders)).toBe('/search/21216/MTIxNg/visitor?next=%2ForderList%2F21216%2FMTIxNg%2Fvisitor');
  });
  it('the lookup returns only to a purchase page of the same expo', () => {
    expect(isTicketNext(p.orders, 1216)).toBe(true);
    expect(isTicketNext(p.form(2), 1216)).toBe(true);
    expect(isTicketNext('/orderList/21216/1216/visitor', 1216)).toBe(true);
    expect(isTicketNext(p.orders, 1308)).toBe(false);
    for (const bad of [
      '',
      'https://evil.example/',
      '//evil.example/orderList/21216/MTIxNg/visitor',
      '/success/1/2/3/4',
      '/orderList/21216/MTIxNg/visitor?x=<script>',
      '/orderList/../x',
    ]) {
      expect(isTicketNext(bad, 1216), bad).toBe(false);
    }
  });
});
