// The buyer form's total (src/components/screens/TicketFormScreen.astro, src/lib/tickets/total.ts):
// the server adds it up for the quantity and the checked discount code it shows; with JavaScript
// it follows the quantity the visitor picks, and drops the discount (and hides the check's answer)
// once the code in the field is no longer the one that was checked. Without JavaScript the
// server's sum stays, right for the page as it was sent.
import { isLang } from '../lib/core/languages';
import { formatPrice } from '../lib/tickets/money';
import { orderTotal, totalText } from '../lib/tickets/total';

const sum = document.querySelector<HTMLElement>('[data-sum]');
const form = sum?.closest('form');
const quantity = form?.querySelector('select[name="quantity"]');
const code = form?.querySelector<HTMLInputElement>('input[name="discountCode"]');
const result = form?.querySelector<HTMLElement>('#discount-result');

if (sum && quantity instanceof HTMLSelectElement) {
  const d = sum.dataset;
  const unit = Number(d['unit']);
  const discountUnit = d['discountUnit'] ? Number(d['discountUnit']) : null;
  const lang = isLang(d['lang']) ? d['lang'] : 'zh';
  const money = (v: number) => formatPrice(v, d['currency'] ?? 'CNY', lang);
  const templates = { plain: d['plain'] ?? '', discounted: d['discounted'] ?? '' };
  const update = () => {
    const same = (code?.value.trim() ?? '') === (d['code'] ?? '');
    const checked = discountUnit !== null && same ? discountUnit : null;
    // the check's answer is about the code it checked, not one typed since
    if (result) result.hidden = !same;
    sum.textContent = totalText(orderTotal(Number(quantity.value), unit, checked), money, templates);
  };
  quantity.addEventListener('change', update);
  code?.addEventListener('input', update);
}
