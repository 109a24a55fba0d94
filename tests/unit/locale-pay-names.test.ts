import { describe, expect, it } from 'vitest';
import { payLabel, payNames } from '../../src/lib/tickets/pay-names';
import { createT } from '../../src/i18n';

describe('payment methods by the names visitors know', () => {
  const t = createT('en');
  const generic = (k: 'ticket.payMessaging' | 'ticket.payApp') => t(k);

  it('shows the organiser\'s names, trimmed, when the config gives them', () => {
    const names = payNames({ payName1: '微信支付', payName2: ' 支付宝 ' });
    expect(payLabel(1, names, generic)).toBe('微信支付');
    expect(payLabel(2, names, generic)).toBe('支付宝');
  });

  it('keeps the generic names otherwise, one by one', () => {
    expect(payLabel(1, payNames(null), generic)).toBe(t('ticket.payMessaging'));
    expect(payLabel(2, payNames({ payName1: 'PromptPay' }), generic)).toBe(t('ticket.payApp'));
    expect(payLabel(1, payNames({ payName1: 'PromptPay' }), generic)).toBe('PromptPay');
  });

  it('ignores a name that is no short text', () => {
    const bad = payNames({ payName1: '   ', payName2: 'x'.repeat(41) });
    expect(bad).toEqual({ 1: null, 2: null });
    expect(payNames({ payName1: 'a\u0000b' })[1]).toBeNull();
    expect(payNames({ payName1: 12 as unknown as string })[1]).toBeNull();
  });

  it('names no method for an unknown payType', () => {
    expect(payLabel(null, payNames(null), generic)).toBe('');
    expect(payLabel(3, payNames(null), generic)).toBe('');
  });
});
