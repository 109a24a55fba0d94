import { describe, expect, it } from 'vitest';
import { parseCheckType, validateLookup, validateSendCode, type LookupInput } from '../../src/lib/lookup/validation';

const withCode = { requireCode: true };
const phone = (over: Partial<LookupInput> = {}): LookupInput => ({
  checkType: 1,
  areaCode: '+86',
  phone: '13812345678',
  code: '123456',
  ...over,
});
const email = (over: Partial<LookupInput> = {}): LookupInput => ({
  checkType: 2,
  email: 'visitor@example.com',
  code: '123456',
  ...over,
});
/** The failing field and key, or 'ok'. */
const outcome = (input: LookupInput, requireCode = true) => {
  const r = validateLookup(input, { requireCode });
  return r.ok ? 'ok' : [r.field, r.key];
};

describe('validateLookup, phone mode (spec §5)', () => {
  it('accepts a valid mainland number and trims every value', () => {
    const r = validateLookup(
      { checkType: 1, areaCode: ' +86 ', phone: ' 13812345678\t', email: ' x ', code: ' 0042 ' },
      withCode,
    );
    expect(r).toEqual({
      ok: true,
      value: { checkType: 1, areaCode: '+86', phone: '13812345678', email: 'x', code: '0042' },
    });
  });

  it.each([undefined, null, '', '  ', '86', '+', '+12345', 'Mainland China', '+8 6'])(
    'asks to select a country for area code %j',
    (areaCode) => {
      expect(outcome(phone({ areaCode }))).toEqual(['areaCode', 'search.selectCountry']);
    },
  );

  it.each([undefined, null, '', '   '])('asks for the phone when it is %j', (p) => {
    expect(outcome(phone({ phone: p }))).toEqual(['phone', 'search.phonePlach']);
  });

  it.each(['12012345678', '19912345678', '13000000000'])('+86 accepts %s', (p) => {
    expect(outcome(phone({ phone: p }))).toBe('ok');
  });

  it.each([
    ['second digit 0', '10012345678'],
    ['second digit 1', '11012345678'],
    ['first digit not 1', '23812345678'],
    ['10 digits', '1381234567'],
    ['12 digits', '138123456789'],
    ['a letter', '1381234567a'],
    ['inner blank', '138 12345678'],
    ['country code typed', '+8613812345678'],
  ])('+86 rejects %s', (_, p) => {
    expect(outcome(phone({ phone: p }))).toEqual(['phone', 'search.codeError']);
  });

  it.each([
    ['+66', '812345678'],
    ['+852', '91234567'],
    ['+1', '2025550123'],
    ['+62', '8123'],
    ['+62', '812345678901234'],
    // The mainland pattern applies only to +86 (spec §9).
    ['+886', '0912345678'],
  ])('%s accepts %s', (areaCode, p) => {
    expect(outcome(phone({ areaCode, phone: p }))).toBe('ok');
  });

  it.each([
    ['3 digits', '812'],
    ['16 digits', '8123456789012345'],
    ['letters', '8123abc'],
    ['separators', '812-345-678'],
    ['a plus', '+66812345678'],
  ])('other area codes reject %s', (_, p) => {
    expect(outcome(phone({ areaCode: '+66', phone: p }))).toEqual(['phone', 'search.codeError']);
  });

  it('does not check the e-mail in phone mode', () => {
    expect(outcome(phone({ email: 'not an e-mail' }))).toBe('ok');
  });
});

describe('validateLookup, e-mail mode (spec §5)', () => {
  it.each([undefined, null, '', ' \n '])('asks for the e-mail when it is %j', (e) => {
    expect(outcome(email({ email: e }))).toEqual(['email', 'search.emailPlach']);
  });

  it.each([
    'a@b.co',
    'first.last@example.com',
    'first-last_x.y@mail-server.example.co.th',
    'A1@B2.INFO',
    'x@y.abcde',
    'user_1@sub_domain.org',
  ])('accepts %s', (e) => {
    expect(outcome(email({ email: e }))).toBe('ok');
  });

  it.each([
    ['no @', 'visitor.example.com'],
    ['two @', 'a@b@example.com'],
    ['no dot in domain', 'a@localhost'],
    ['final part of 1', 'a@example.c'],
    ['final part of 6', 'a@example.museum'],
    ['digits in final part', 'a@example.c0m'],
    ['leading separator', '.a@example.com'],
    ['trailing separator', 'a.@example.com'],
    ['double separator', 'a..b@example.com'],
    ['plus addressing (not in the spec pattern)', 'a+tag@example.com'],
    ['inner blank', 'a b@example.com'],
    ['non-ASCII', '展会@example.com'],
    ['empty local part', '@example.com'],
    ['over 254 characters', `${'a'.repeat(250)}@b.com`],
  ])('rejects %s', (_, e) => {
    expect(outcome(email({ email: e }))).toEqual(['email', 'search.emailError']);
  });

  it('answers quickly on a long input that would make a nested pattern backtrack', () => {
    const start = performance.now();
    expect(outcome(email({ email: `${'a'.repeat(5000)}!` }))).toEqual(['email', 'search.emailError']);
    expect(outcome(email({ email: `${'a.'.repeat(120)}@${'b-'.repeat(60)}` }))).toEqual(['email', 'search.emailError']);
    expect(performance.now() - start).toBeLessThan(200);
  });

  it('does not check phone fields in e-mail mode', () => {
    expect(outcome(email({ areaCode: '', phone: 'x' }))).toBe('ok');
  });
});

describe('validateLookup, code (spec §5)', () => {
  it.each([undefined, null, '', '  '])('asks for the code when it is %j', (code) => {
    expect(outcome(email({ code }))).toEqual(['code', 'search.codePlach']);
    expect(outcome(phone({ code }))).toEqual(['code', 'search.codePlach']);
  });

  it.each(['12a4', '12 34', '-123', '1.5', '１２３４'])('accepts digits only, not %j', (code) => {
    expect(outcome(email({ code }))).toEqual(['code', 'search.codeDigits']);
  });

  it('lets an empty code pass when the edge supplies it, but a typed one must be digits', () => {
    expect(outcome(email({ code: '' }), false)).toBe('ok');
    expect(outcome(email({ code: undefined }), false)).toBe('ok');
    expect(outcome(email({ code: 'abc' }), false)).toEqual(['code', 'search.codeDigits']);
    expect(outcome(email({ code: '2468' }), false)).toBe('ok');
  });
});

describe('the first failing field in form order wins (spec §5: it receives focus)', () => {
  it('phone mode: area code, then phone, then code', () => {
    expect(outcome({ checkType: 1 })).toEqual(['areaCode', 'search.selectCountry']);
    expect(outcome({ checkType: 1, areaCode: '+86', phone: '1', code: 'x' })).toEqual(['phone', 'search.codeError']);
    expect(outcome({ checkType: 1, areaCode: '+86', phone: '13812345678', code: 'x' })).toEqual([
      'code',
      'search.codeDigits',
    ]);
  });

  it('e-mail mode: e-mail, then code', () => {
    expect(outcome({ checkType: 2 })).toEqual(['email', 'search.emailPlach']);
    expect(outcome({ checkType: 2, email: 'a@b.com' })).toEqual(['code', 'search.codePlach']);
  });

  it('returns the trimmed values with a failure, to refill the form', () => {
    const r = validateLookup({ checkType: 2, email: ' bad ', code: ' 1 ' }, withCode);
    expect(r).toEqual({
      ok: false,
      field: 'email',
      key: 'search.emailError',
      value: { checkType: 2, areaCode: '', phone: '', email: 'bad', code: '1' },
    });
  });
});

describe('validateSendCode (spec §4, §5)', () => {
  it('checks the contact without a code', () => {
    expect(validateSendCode({ checkType: 2, email: ' a@b.com ' })).toEqual({
      ok: true,
      value: { checkType: 2, areaCode: '', phone: '', email: 'a@b.com' },
    });
    expect(validateSendCode({ checkType: 1, areaCode: '+66', phone: '812345678' }).ok).toBe(true);
  });

  it.each([
    [{ checkType: 1 as const, phone: '812345678' }, 'areaCode', 'search.selectCountry'],
    [{ checkType: 1 as const, areaCode: '+86' }, 'phone', 'search.phonePlach'],
    [{ checkType: 1 as const, areaCode: '+86', phone: '12345' }, 'phone', 'search.codeError'],
    [{ checkType: 2 as const }, 'email', 'search.emailPlach'],
    [{ checkType: 2 as const, email: 'a@b' }, 'email', 'search.emailError'],
  ])('%j fails on %s', (input, field, key) => {
    const r = validateSendCode(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect([r.field, r.key]).toEqual([field, key]);
  });

  it('has no code in its value', () => {
    const r = validateSendCode({ checkType: 2, email: 'a@b.com' });
    expect(r.value).not.toHaveProperty('code');
  });
});

describe('parseCheckType (spec §2.1, §9)', () => {
  it.each([
    [1, 1],
    ['1', 1],
    [' 1 ', 1],
    [2, 2],
    ['2', 2],
    [undefined, 2],
    [null, 2],
    ['', 2],
    ['3', 2],
    [0, 2],
    ['phone', 2],
    [1.5, 2],
    ['01', 2],
    [true, 2],
  ])('%j → %i', (x, ct) => {
    expect(parseCheckType(x)).toBe(ct);
  });
});
