/**
 * The lookup screen's input rules (spec §5). Every value is trimmed; the FIRST failing field,
 * in form order, is reported with its catalogue key, because that field receives focus (spec §5).
 * Form order: phone mode area code, phone, code; e-mail mode e-mail, code (spec §2.1).
 */

/** Check type: 1 = phone, 2 = e-mail (spec §2.1, §9). */
export type CheckType = 1 | 2;

/** The default check type when none is stored (spec §2.1, §9). */
export const DEFAULT_CHECK_TYPE: CheckType = 2;

/** A field of the lookup form. */
export type LookupField = 'areaCode' | 'phone' | 'email' | 'code';

/** Catalogue keys of the messages (spec §5). */
export const ValidationKey = {
  selectCountry: 'search.selectCountry',
  phonePlach: 'search.phonePlach',
  codeError: 'search.codeError',
  emailPlach: 'search.emailPlach',
  emailError: 'search.emailError',
  codePlach: 'search.codePlach',
  codeDigits: 'search.codeDigits',
} as const;
export type ValidationKey = (typeof ValidationKey)[keyof typeof ValidationKey];

/** What the send-code button submits. */
export interface SendCodeInput {
  checkType: CheckType;
  areaCode?: string | null | undefined;
  phone?: string | null | undefined;
  email?: string | null | undefined;
}

/** What the lookup form submits. */
export interface LookupInput extends SendCodeInput {
  code?: string | null | undefined;
}

/** The trimmed values; a missing value is ''. */
export interface SendCodeValue {
  checkType: CheckType;
  areaCode: string;
  phone: string;
  email: string;
}
export interface LookupValue extends SendCodeValue {
  code: string;
}

/** Either the trimmed values, or the first failing field with its message key (and the values, to refill the form). */
export type Validation<V, F extends LookupField> =
  { ok: true; value: V } | { ok: false; field: F; key: ValidationKey; value: V };

/** An area code as the picker gives it: `+` and 1-4 digits (ITU calling codes; see countries.ts). */
const AREA_CODE = /^\+\d{1,4}$/;

/** Mainland mobile numbers: 11 digits, first 1, second 2-9 (spec §5). Applies only to +86 (spec §9). */
const CN_MOBILE = /^1[2-9]\d{9}$/;

/**
 * Other area codes: the spec only asks for a non-empty number. We also require digits only and
 * 4-15 of them: 15 is E.164's ceiling for a whole number, 4 the shortest national numbers in use
 * (small island states); anything outside cannot receive an SMS and would only cost a send.
 */
const OTHER_PHONE = /^\d{4,15}$/;

/**
 * The spec's e-mail pattern (§5): alphanumeric parts joined by single `-`, `_` or `.`, then `@`,
 * then domain parts joined the same way, ending in `.` and a 2-5 letter final part. Written
 * without nested quantifiers, so a long input cannot make it backtrack exponentially (the
 * legacy `([a-z0-9]+[-_.]?)*` form can).
 */
const EMAIL = /^[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)*@[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)*\.[A-Za-z]{2,5}$/;

/** RFC 5321 §4.5.3.1.3: a path is at most 256 octets, so an address at most 254 characters. */
const EMAIL_MAX = 254;

/** The code field takes digits only (spec §5). */
const DIGITS = /^\d+$/;

type Value = string | null | undefined;
/** One rule: null when the value passes, else the field that fails and its message key. */
type Check<F extends LookupField> = (v: LookupValue) => { field: F; key: ValidationKey } | null;

const fail = <F extends LookupField>(field: F, key: ValidationKey) => ({ field, key });

/** Phone mode, in form order (spec §5). */
const PHONE_CHECKS: readonly Check<'areaCode' | 'phone'>[] = [
  (v) => (AREA_CODE.test(v.areaCode) ? null : fail('areaCode', ValidationKey.selectCountry)),
  (v) => (v.phone === '' ? fail('phone', ValidationKey.phonePlach) : null),
  (v) =>
    (v.areaCode === '+86' ? CN_MOBILE : OTHER_PHONE).test(v.phone) ? null : fail('phone', ValidationKey.codeError),
];

/** E-mail mode, in form order (spec §5). */
const EMAIL_CHECKS: readonly Check<'email'>[] = [
  (v) => (v.email === '' ? fail('email', ValidationKey.emailPlach) : null),
  (v) => (v.email.length <= EMAIL_MAX && EMAIL.test(v.email) ? null : fail('email', ValidationKey.emailError)),
];

/** The code field; an empty code passes when the edge supplies it (bypass, spec §2.2). */
const codeChecks = (requireCode: boolean): readonly Check<'code'>[] => [
  (v) => (requireCode && v.code === '' ? fail('code', ValidationKey.codePlach) : null),
  (v) => (v.code === '' || DIGITS.test(v.code) ? null : fail('code', ValidationKey.codeDigits)),
];

const trim = (s: Value): string => (typeof s === 'string' ? s.trim() : '');

function trimmed(input: LookupInput): LookupValue {
  return {
    checkType: input.checkType,
    areaCode: trim(input.areaCode),
    phone: trim(input.phone),
    email: trim(input.email),
    code: trim(input.code),
  };
}

function firstFailure<F extends LookupField>(checks: readonly Check<F>[], v: LookupValue) {
  for (const check of checks) {
    const failure = check(v);
    if (failure) return failure;
  }
  return null;
}

const contactChecks = (checkType: CheckType): readonly Check<'areaCode' | 'phone' | 'email'>[] =>
  checkType === 1 ? PHONE_CHECKS : EMAIL_CHECKS;

/**
 * Validates the lookup form (spec §5). Only the chosen mode's contact fields are checked.
 * With `requireCode: false` (the edge supplies the bypass code, spec §2.2) an empty code passes,
 * a typed one must still be digits.
 * @example validateLookup({ checkType: 2, email: ' a@b.com ', code: '12' }, { requireCode: true })
 * // { ok: true, value: { checkType: 2, areaCode: '', phone: '', email: 'a@b.com', code: '12' } }
 * @example validateLookup({ checkType: 1, areaCode: '+86', phone: '123' }, { requireCode: true })
 * // { ok: false, field: 'phone', key: 'search.codeError', value: {...} }
 */
export function validateLookup(
  input: LookupInput,
  opts: { requireCode: boolean },
): Validation<LookupValue, LookupField> {
  const value = trimmed(input);
  const failure = firstFailure([...contactChecks(value.checkType), ...codeChecks(opts.requireCode)], value);
  return failure ? { ok: false, ...failure, value } : { ok: true, value };
}

/**
 * Validates what the send-code button sends: the contact only (spec §4, §5).
 * @example validateSendCode({ checkType: 1, areaCode: '', phone: '81234567' })
 * // { ok: false, field: 'areaCode', key: 'search.selectCountry', value: {...} }
 */
export function validateSendCode(input: SendCodeInput): Validation<SendCodeValue, Exclude<LookupField, 'code'>> {
  const all = trimmed({ ...input, code: '' });
  const value: SendCodeValue = { checkType: all.checkType, areaCode: all.areaCode, phone: all.phone, email: all.email };
  const failure = firstFailure(contactChecks(value.checkType), all);
  return failure ? { ok: false, ...failure, value } : { ok: true, value };
}

/**
 * The check type from session storage, a form field or a query: 1 (phone) or 2 (e-mail);
 * anything else is the default 2 (spec §2.1, §9).
 * @example parseCheckType('1') // 1
 * @example parseCheckType(undefined) // 2
 */
export function parseCheckType(x: unknown): CheckType {
  const s = typeof x === 'number' ? String(x) : typeof x === 'string' ? x.trim() : '';
  return s === '1' ? 1 : s === '2' ? 2 : DEFAULT_CHECK_TYPE;
}
