import { describe, expect, it } from 'vitest';
import { parseFormDefinition, type FormField } from '../../src/lib/form/schema';
import { offeredIdTypes, validateField, validateForm } from '../../src/lib/form/validation';
import { idCheckChar } from '../../src/lib/form/id-number';

const TODAY = new Date(Date.UTC(2026, 5, 1));
const L = (en: string) => ({ zh: en, en });
const { fields } = parseFormDefinition([
  { key: 'uname', type: 'text', required: true, label: L('Name') },
  { key: 'email', type: 'email', label: L('E-mail') },
  { key: 'phone', type: 'phone', label: L('Phone') },
  { key: 'ucardid', type: 'idDocument', required: true, label: L('ID') },
  {
    key: 'industry',
    type: 'select',
    required: true,
    label: L('Industry'),
    options: [{ value: 'Energy', label: L('Energy') }],
  },
  {
    key: 'purpose',
    type: 'checkbox',
    required: true,
    other: true,
    label: L('Purpose'),
    options: [
      { value: 'Sourcing', label: L('Sourcing') },
      { value: 'Learning', label: L('Learning') },
    ],
  },
  { key: 'way', type: 'radio', other: true, label: L('Way'), options: [{ value: 'web', label: L('Web') }] },
  { key: 'visitDate', type: 'date', label: L('Date') },
  { key: 'privacy', type: 'privacy', required: true, label: L('I agree') },
]);
const field = (key: string): FormField => {
  const f = fields.find((x) => x.key === key);
  if (!f) throw new Error(key);
  return f;
};
const ID = '11010519491231002' + idCheckChar('11010519491231002');
const GOOD = {
  uname: ' Li Lei ',
  email: 'li@demo.test',
  phone: '13800138000',
  'phone.areaCode': '+86',
  'ucardid.type': '1',
  ucardid: ID.toLowerCase(),
  industry: 'Energy',
  'purpose.0': 'Sourcing',
  'purpose.__other': '__other',
  'purpose.other': 'Buying',
  way: 'web',
  visitDate: '2026-09-01',
  privacy: 'on',
};
const opts = { lang: 'en' as const, today: TODAY };
const check = (key: string, values: Record<string, string>, lang: 'en' | 'zh' = 'en') =>
  validateField(field(key), values, { lang, today: TODAY });

describe('registration form validation (spec §5)', () => {
  it('accepts a complete form and shapes the upstream data', () => {
    const r = validateForm(fields, GOOD, opts);
    expect(r).toEqual({
      ok: true,
      data: {
        uname: 'Li Lei',
        email: 'li@demo.test',
        phone: '13800138000',
        areaCode: '+86',
        cardType: 1,
        ucardid: ID,
        industry: 'Energy',
        purpose: ['Sourcing', 'Buying'],
        way: 'web',
        visitDate: '2026-09-01',
        privacy: true,
      },
    });
  });

  it("'form.supplement' for every empty required value, the first in form order reported", () => {
    const r = validateForm(fields, {}, opts);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.failure).toEqual({ field: 'uname', name: 'uname', message: 'form.supplement' });
    expect(r.failures.map((f) => [f.field, f.message])).toEqual([
      ['uname', 'form.supplement'],
      ['ucardid', 'form.supplement'],
      ['industry', 'form.supplement'],
      ['purpose', 'form.supplement'],
      ['privacy', 'form.privacy'],
    ]);
    expect(check('uname', { uname: '   ' })?.message).toBe('form.supplement');
    expect(check('purpose', {})?.name).toBe('purpose.0');
  });

  it("'form.otherOptions' when 'other' is ticked without text (checkbox, radio)", () => {
    expect(check('purpose', { 'purpose.__other': '__other', 'purpose.other': ' ' })).toEqual({
      field: 'purpose',
      name: 'purpose.other',
      message: 'form.otherOptions',
    });
    expect(check('way', { way: '__other' })?.message).toBe('form.otherOptions');
    expect(check('way', { way: '__other', 'way.other': 'Friend' })).toBeNull();
    expect(check('purpose', { 'purpose.__other': '__other', 'purpose.other': 'Buying' })).toBeNull();
  });

  it("'form.privacy' until the agreement is ticked", () => {
    expect(check('privacy', {})?.message).toBe('form.privacy');
    expect(check('privacy', { privacy: 'on' })).toBeNull();
  });

  it('ID type 1 needs a legal mainland number; other types a plausible one', () => {
    expect(check('ucardid', { 'ucardid.type': '1', ucardid: '110105194912310021' })).toEqual({
      field: 'ucardid',
      name: 'ucardid',
      message: 'form.idNumberIllegal',
    });
    expect(check('ucardid', { 'ucardid.type': '1', ucardid: ID })).toBeNull();
    expect(check('ucardid', { 'ucardid.type': '2', ucardid: 'E12345678' })).toBeNull();
    expect(check('ucardid', { 'ucardid.type': '2', ucardid: '#!' })?.message).toBe('form.idNumberIllegal');
    expect(check('ucardid', { 'ucardid.type': '', ucardid: 'E12345678' })?.name).toBe('ucardid.type');
    expect(check('ucardid', { 'ucardid.type': '2', ucardid: '' })?.name).toBe('ucardid');
  });

  it('ID types 1-6, 6 only in the English list (spec §3)', () => {
    expect(check('ucardid', { 'ucardid.type': '6', ucardid: 'X1234567' }, 'en')).toBeNull();
    expect(check('ucardid', { 'ucardid.type': '6', ucardid: 'X1234567' }, 'zh')?.message).toBe('form.supplement');
    expect(check('ucardid', { 'ucardid.type': '7', ucardid: 'X1234567' }, 'en')?.message).toBe('form.supplement');
    expect(offeredIdTypes(field('ucardid'), 'zh')).toEqual([1, 2, 3, 4, 5]);
    expect(offeredIdTypes({ ...field('ucardid'), idTypes: [1, 2, 6] }, 'tw')).toEqual([1, 2]);
  });

  it('phone format: an area code, and +86 mobiles as 11 digits starting 1[2-9]', () => {
    expect(check('phone', { phone: '13800138000' })).toEqual({
      field: 'phone',
      name: 'phone.areaCode',
      message: 'search.selectCountry',
    });
    expect(check('phone', { phone: '12345', 'phone.areaCode': '+86' })?.message).toBe('form.phoneIncorrect');
    expect(check('phone', { phone: '11800138000', 'phone.areaCode': '+86' })?.message).toBe('form.phoneIncorrect');
    expect(check('phone', { phone: '812345678', 'phone.areaCode': '+66' })).toBeNull();
    expect(check('phone', { phone: '8123-45678', 'phone.areaCode': '+66' })?.message).toBe('form.phoneIncorrect');
    expect(check('phone', {})).toBeNull(); // optional and empty
  });

  it('e-mail format', () => {
    expect(check('email', { email: 'li@demo' })?.message).toBe('search.emailError');
    expect(check('email', { email: 'li@demo.test' })).toBeNull();
  });

  it('select and radio take only their options; dates must exist', () => {
    expect(check('industry', { industry: 'Mining' })?.message).toBe('form.supplement');
    expect(check('way', { way: 'mail' })?.message).toBe('form.supplement');
    expect(check('visitDate', { visitDate: '2026-02-30' })?.message).toBe('form.dateFormat');
    expect(check('visitDate', { visitDate: '2028-02-29' })).toBeNull();
    expect(check('visitDate', { visitDate: '29/02/2028' })).toBeNull();
    expect(check('visitDate', { visitDate: '02/29/2028' })?.message).toBe('form.dateFormat');
  });
});

describe('an unticked checkbox is sent as an empty list', () => {
  it('so an update clears what was ticked before (the seat-lookup consent is withdrawn, issue 12)', () => {
    const { fields: consent } = parseFormDefinition([
      { key: 'uname', type: 'text', required: true, label: L('Name') },
      { key: 'seatConsent', type: 'checkbox', label: L('Find me by name'), options: [{ value: '1', label: L('Yes') }] },
    ]);
    const opts = { lang: 'en' as const, today: TODAY };
    expect(validateForm(consent, { uname: 'Li' }, opts)).toEqual({ ok: true, data: { uname: 'Li', seatConsent: [] } });
    expect(validateForm(consent, { uname: 'Li', 'seatConsent.0': '1' }, opts)).toEqual({ ok: true, data: { uname: 'Li', seatConsent: ['1'] } });
  });
});
