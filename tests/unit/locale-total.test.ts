import { describe, expect, it } from 'vitest';
import { formatPrice } from '../../src/lib/tickets/money';
import { orderTotal, totalText } from '../../src/lib/tickets/total';
import { createT } from '../../src/i18n';
import { LANGS } from '../../src/lib/core/languages';

describe('the total before paying', () => {
  it('is quantity × price without a code', () => {
    expect(orderTotal(3, 8000, null)).toEqual({ quantity: 3, unit: 8000, discountUnit: null, gross: 24000, discount: 0, total: 24000 });
  });

  it('takes off the checked code\'s difference for every ticket', () => {
    expect(orderTotal(2, 25000, 12500)).toMatchObject({ gross: 50000, discount: 25000, total: 25000 });
  });

  it('a code priced above the ticket takes nothing off; a broken quantity counts as one', () => {
    expect(orderTotal(2, 8000, 9000)).toMatchObject({ discount: 0, total: 16000 });
    expect(orderTotal(0, 8000, null).total).toBe(8000);
    expect(orderTotal(Number.NaN, 8000, null).total).toBe(8000);
  });

  it('reads "quantity × price (− discount) = total" in every language', () => {
    for (const lang of LANGS) {
      const t = createT(lang);
      const templates = { plain: t('locale.total'), discounted: t('locale.totalDiscounted') };
      const money = (v: number) => formatPrice(v, 'CNY', lang);
      const plain = totalText(orderTotal(2, 25000, null), money, templates);
      const off = totalText(orderTotal(2, 25000, 12500), money, templates);
      expect(plain, lang).toContain('2 × ');
      expect(plain, lang).not.toMatch(/\{\{/);
      expect(off, lang).toContain(money(25000));
      expect(off, lang).toContain('−');
    }
    const t = createT('en');
    const m = (v: number) => formatPrice(v, 'CNY', 'en');
    expect(totalText(orderTotal(2, 25000, 12500), m, { plain: t('locale.total'), discounted: t('locale.totalDiscounted') })).toBe(
      `Total: 2 × ${m(25000)} − ${m(25000)} = ${m(25000)}`,
    );
  });
});
