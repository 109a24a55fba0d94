/**
 * The money rules of issue 19 (items 8-13), pure: reaching a cashier on another origin
 * (src/lib/tickets/cashier.ts), the purchase limits' keys (src/lib/security/limits.ts), void tickets and the
 * order notices (src/lib/tickets/tickets.ts, src/lib/expo/view.ts), and the reference's mailbox key
 * (functions/reference/contact.ts).
 */
import { describe, expect, it } from 'vitest';
import { absoluteUrl, handoffPage, payTarget } from '../../src/lib/tickets/cashier';
import { isVoided, usageLines } from '../../src/lib/expo/view';
import { clientOfHeader, DEFAULT_LIMITS, LIMIT_SPECS, purchaseRules } from '../../src/lib/security/limits';
import { orderMoneyNotice, ticketsAdmit } from '../../src/lib/tickets/tickets';
import { mailboxKey } from '../../functions/reference/contact';

describe('payTarget', () => {
  it.each([
    ['/dev/pay/T1', { kind: 'site', location: '/dev/pay/T1' }],
    ['https://pay.example/c?o=1', { kind: 'cashier', url: 'https://pay.example/c?o=1', host: 'pay.example' }],
    ['http://127.0.0.1:8861/pay/T1', { kind: 'cashier', url: 'http://127.0.0.1:8861/pay/T1', host: '127.0.0.1:8861' }],
  ])('%s is followed', (url, want) => expect(payTarget(url)).toEqual(want));

  it.each([
    'javascript:alert(1)',
    'data:text/html,x',
    'ftp://pay.example/',
    '//evil.example/x',
    '/\\evil.example',
    'https://user:pw@pay.example/',
    'https://pay.example/a b',
    '',
    'not a url',
  ])('%s is refused', (url) => expect(payTarget(url)).toBeNull());
});

describe('absoluteUrl and the handoff page', () => {
  it("makes the returnUrl absolute on the request's own origin", () => {
    expect(absoluteUrl('/ticketSuccess/1/MQ/visitor?orderNo=T1', 'https://expo.example/api/order')).toBe(
      'https://expo.example/ticketSuccess/1/MQ/visitor?orderNo=T1',
    );
    expect(absoluteUrl('/x', 'http://127.0.0.1:8787/api/order/action')).toBe('http://127.0.0.1:8787/x');
  });

  it('links and refreshes to the cashier, escaped, in the page language, without script', () => {
    const html = handoffPage({ lang: 'en', title: 'Go <on>', lead: 'To "x"', link: 'Pay', url: 'https://p.example/?a=1&b="2"' });
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<meta http-equiv="refresh" content="0;url=https://p.example/?a=1&amp;b=&quot;2&quot;">');
    expect(html).toContain('<a href="https://p.example/?a=1&amp;b=&quot;2&quot;" rel="noreferrer">Pay</a>');
    expect(html).toContain('Go &lt;on&gt;');
    expect(html).not.toContain('<script');
  });
});

describe('purchaseRules', () => {
  it('an order counts per contact and address; with a code it is a discount try too', () => {
    const plain = purchaseRules(DEFAULT_LIMITS, { client: clientOfHeader('1.2.3.4'), contact: 'A.B@GMail.com', kind: 'order', triesCode: false });
    expect(plain.map((r) => [r.key, r.limit])).toEqual([
      ['order:contact:ab@gmail.com', LIMIT_SPECS.ordersPerContactHour.fallback],
      ['order:ip:1.2.3.4', LIMIT_SPECS.ordersPerIpHour.fallback],
    ]);
    const withCode = purchaseRules(DEFAULT_LIMITS, { client: clientOfHeader('1.2.3.4'), contact: '+66812345678', kind: 'order', triesCode: true });
    expect(withCode.map((r) => r.key)).toEqual([
      'order:contact:+66812345678',
      'order:ip:1.2.3.4',
      'discount:contact:+66812345678',
      'discount:ip:1.2.3.4',
    ]);
    const check = purchaseRules(DEFAULT_LIMITS, { client: clientOfHeader(null), contact: 'x@y.z', kind: 'discount', triesCode: true });
    expect(check.map((r) => r.key)).toEqual(['discount:contact:x@y.z', 'discount:ip:unknown']);
    expect(check.every((r) => r.windowMs === 3_600_000)).toBe(true);
  });

  it('0 switches a limit off', () => {
    const limits = { ...DEFAULT_LIMITS, ordersPerIpHour: 0 };
    expect(purchaseRules(limits, { client: clientOfHeader(null), contact: 'x@y.z', kind: 'order', triesCode: false }).map((r) => r.key)).toEqual([
      'order:contact:x@y.z',
    ]);
  });
});

describe('void tickets (item 10) and order notices (item 12)', () => {
  it('only a paid order admits; a refund voids its tickets', () => {
    expect([0, 1, 2, 3, 4, 5, 6, null].map(ticketsAdmit)).toEqual([false, false, true, false, false, false, false, false]);
    expect(orderMoneyNotice({ refund: { status: 0, reason: 'x', applyTime: null, doneTime: null }, euCodes: ['E1'] }, 5)).toBe(
      'order.ticketsVoided',
    );
    expect(orderMoneyNotice({ refund: null, euCodes: ['E1'] }, 6)).toBe('order.ticketsVoided');
    expect(orderMoneyNotice({ refund: { status: 0, reason: 'automatic', applyTime: null, doneTime: null }, euCodes: [] }, 4)).toBe(
      'order.lateRefund',
    );
    expect(orderMoneyNotice({ refund: null, euCodes: [] }, 4)).toBeNull();
    expect(orderMoneyNotice({ refund: null, euCodes: ['E1'] }, 2)).toBeNull();
  });

  it('a void credential (useStatus 2) reads as void, never as unused', () => {
    expect(isVoided({ useStatus: 2 })).toBe(true);
    expect(isVoided({ useStatus: 0 })).toBe(false);
    expect(usageLines({ useStatus: 2, usedCount: 0, maxCount: 1 })[0]?.value).toEqual({ key: 'success.voided' });
    expect(usageLines({ useStatus: 0, usedCount: 0, maxCount: 1 })[0]?.value).toEqual({ key: 'success.unused' });
  });
});

describe('mailboxKey (item 13: +tag aliases share the per-contact limit)', () => {
  it.each([
    ['a+1@x.test', 'a@x.test'],
    ['A+2@X.test', 'a@x.test'],
    ['a@x.test', 'a@x.test'],
    ['a.b+t@gmail.com', 'ab@gmail.com'],
    ['a.b@x.test', 'a.b@x.test'],
    ['+66 81 234 5678', '+66812345678'],
    ['13800138000', '+8613800138000'],
  ])('%s → %s', (raw, key) => expect(mailboxKey(raw)).toBe(key));

  it('not a contact: null', () => expect(mailboxKey('nope')).toBeNull());
});
