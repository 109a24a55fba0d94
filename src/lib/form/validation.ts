/**
 * The registration form's rules (spec §5), run by the register API always and by the form
 * island inline. Values are the flat strings a form posts (input name → value, see
 * inputNames in form-schema.ts); every value is trimmed. Fields are checked in form order and
 * the FIRST failure is reported with the input that receives focus (spec §5).
 *
 * Messages (spec §5 catalogue): a required value missing → 'form.supplement'; 'other' ticked
 * without its text → 'form.otherOptions'; privacy not agreed → 'form.privacy'; ID type 1 with
 * an illegal number → 'form.idNumberIllegal'; phone → 'search.selectCountry' (no area code) or
 * 'form.phoneIncorrect'; e-mail → 'search.emailError'; a date that cannot be read in the page
 * language's order (src/lib/core/date.ts) → 'form.dateFormat'.
 */
import { parseDate } from '../core/date';
import { idNumberProblem, idTypesFor } from './id-number';
import type { Lang } from '../core/languages';
import { OTHER_VALUE, focusName } from './fields';
import type { FormField } from './schema';
import { validateSendCode } from '../lookup/validation';

/** Catalogue keys this module reports. */
export type FormMessageKey =
  | 'form.supplement'
  | 'form.otherOptions'
  | 'form.privacy'
  | 'form.idNumberIllegal'
  | 'form.phoneIncorrect'
  | 'search.selectCountry'
  | 'search.emailError'
  | 'form.dateFormat';

/** A failing field: its key, the input to focus, and the message key. */
export interface FieldFailure {
  field: string;
  name: string;
  message: FormMessageKey;
}

/** Flat posted values by input name. */
export type PostedValues = Readonly<Record<string, string | undefined>>;

/** What the upstream receives for the form (addUserInfo `data`, docs/upstream.md), before the contact and flags. */
export type FormData = Record<string, string | number | boolean | string[]>;

export interface ValidateOptions {
  lang: Lang;
  /** "today" for birth dates in ID numbers; default now */
  today?: Date;
}

const get = (v: PostedValues, name: string): string => (v[name] ?? '').trim();

/** ID numbers of types 2-6: letters, digits, `-`, `(`, `)`, 4-40 characters (passports, permits). */
const OTHER_ID = /^[A-Za-z0-9()-]{4,40}$/;

/** Whether a ticked 'other' is posted (checkbox: `{key}.__other`). */
function otherTicked(f: FormField, v: PostedValues): boolean {
  return f.type === 'checkbox' ? get(v, `${f.key}.${OTHER_VALUE}`) !== '' : get(v, f.key) === OTHER_VALUE;
}

/** The checkbox options ticked, in option order. */
function ticked(f: FormField, v: PostedValues): string[] {
  return f.options.flatMap((o, i) => (get(v, `${f.key}.${i}`) === o.value ? [o.value] : []));
}

type Rule = (f: FormField, v: PostedValues, o: ValidateOptions) => FieldFailure | null;

const fail = (f: FormField, message: FormMessageKey, name = focusName(f)): FieldFailure => ({
  field: f.key,
  name,
  message,
});

/** Select and radio: one value of the options, or 'other' with its text. */
const SELECT_RULES: readonly Rule[] = [
  (f, v) => (f.required && get(v, f.key) === '' ? fail(f, 'form.supplement') : null),
  (f, v) => {
    const x = get(v, f.key);
    const known = x === '' || f.options.some((o) => o.value === x) || (f.other && x === OTHER_VALUE);
    return known ? null : fail(f, 'form.supplement');
  },
  (f, v) =>
    otherTicked(f, v) && get(v, `${f.key}.other`) === '' ? fail(f, 'form.otherOptions', `${f.key}.other`) : null,
];

/** One rule list per field type (data, not an if-chain); the first failing rule wins. */
const RULES: Readonly<Record<FormField['type'], readonly Rule[]>> = {
  text: [(f, v) => (f.required && get(v, f.key) === '' ? fail(f, 'form.supplement') : null)],
  date: [
    (f, v) => (f.required && get(v, f.key) === '' ? fail(f, 'form.supplement') : null),
    (f, v, o) => (get(v, f.key) !== '' && parseDate(get(v, f.key), o.lang) === null ? fail(f, 'form.dateFormat') : null),
  ],
  email: [
    (f, v) => (f.required && get(v, f.key) === '' ? fail(f, 'form.supplement') : null),
    (f, v) => {
      const email = get(v, f.key);
      return email !== '' && !validateSendCode({ checkType: 2, email }).ok ? fail(f, 'search.emailError') : null;
    },
  ],
  phone: [
    (f, v) => (f.required && get(v, f.key) === '' ? fail(f, 'form.supplement') : null),
    (f, v) => {
      const phone = get(v, f.key);
      if (phone === '') return null;
      const r = validateSendCode({ checkType: 1, areaCode: get(v, `${f.key}.areaCode`), phone });
      if (r.ok) return null;
      return r.field === 'areaCode'
        ? fail(f, 'search.selectCountry', `${f.key}.areaCode`)
        : fail(f, 'form.phoneIncorrect');
    },
  ],
  select: SELECT_RULES,
  radio: SELECT_RULES,
  checkbox: [
    (f, v) => (f.required && ticked(f, v).length === 0 && !otherTicked(f, v) ? fail(f, 'form.supplement') : null),
    (f, v) =>
      f.other && otherTicked(f, v) && get(v, `${f.key}.other`) === ''
        ? fail(f, 'form.otherOptions', `${f.key}.other`)
        : null,
  ],
  idDocument: [
    (f, v) => {
      const type = get(v, `${f.key}.type`);
      const number = get(v, f.key);
      const typeName = `${f.key}.type`;
      if (type === '' && number === '') return f.required ? fail(f, 'form.supplement', typeName) : null;
      const allowed: readonly number[] = f.idTypes ?? idTypesFor('en');
      if (!/^\d$/.test(type) || !allowed.includes(Number(type))) return fail(f, 'form.supplement', typeName);
      if (number === '') return fail(f, 'form.supplement', f.key);
      return null;
    },
    (f, v, o) => {
      const type = get(v, `${f.key}.type`);
      const number = get(v, f.key);
      if (number === '') return null;
      const legal = type === '1' ? idNumberProblem(number, o.today) === null : OTHER_ID.test(number);
      return legal ? null : fail(f, 'form.idNumberIllegal', f.key);
    },
  ],
  privacy: [(f, v) => (get(v, f.key) === '' ? fail(f, 'form.privacy') : null)],
};

/** The ID types a field offers on a page: its own list (limited to the page's list), else the page's (spec §3). */
export function offeredIdTypes(f: FormField, lang: Lang): number[] {
  const page: readonly number[] = idTypesFor(lang);
  return f.idTypes ? f.idTypes.filter((n) => page.includes(n)) : [...page];
}

/**
 * Checks one field; null when it passes.
 * @example validateField(uname, { uname: ' ' }, { lang: 'en' }) // { field: 'uname', name: 'uname', message: 'form.supplement' }
 */
export function validateField(f: FormField, values: PostedValues, opts: ValidateOptions): FieldFailure | null {
  const withTypes = f.type === 'idDocument' ? { ...f, idTypes: offeredIdTypes(f, opts.lang) } : f;
  for (const rule of RULES[f.type]) {
    const failure = rule(withTypes, values, opts);
    if (failure) return failure;
  }
  return null;
}

/** A field's contribution to the upstream data (only after it passed). Empty optional values are left out, except a checkbox's empty list. */
function dataOf(f: FormField, v: PostedValues, o: ValidateOptions): FormData {
  const value = get(v, f.key);
  switch (f.type) {
    case 'text':
      return value === '' ? {} : { [f.key]: value.slice(0, f.maxLength) };
    case 'email':
      return value === '' ? {} : { [f.key]: value };
    case 'date':
      return value === '' ? {} : { [f.key]: parseDate(value, o.lang) ?? value };
    case 'phone':
      return value === '' ? {} : { [f.key]: value, areaCode: get(v, `${f.key}.areaCode`) };
    case 'select':
    case 'radio':
      if (value === '') return {};
      return { [f.key]: value === OTHER_VALUE ? get(v, `${f.key}.other`) : value };
    case 'checkbox': {
      const list = ticked(f, v);
      if (f.other && otherTicked(f, v)) list.push(get(v, `${f.key}.other`));
      // Always sent, also empty: an update that unticks every option must clear what was ticked
      // before (the upstream merges values), e.g. withdrawing the seat-lookup consent.
      return { [f.key]: list };
    }
    case 'idDocument': {
      const type = get(v, `${f.key}.type`);
      if (value === '') return {};
      return { cardType: Number(type), [f.key]: type === '1' ? value.toUpperCase() : value };
    }
    case 'privacy':
      return { [f.key]: true };
  }
}

export type FormValidation =
  { ok: true; data: FormData } | { ok: false; failure: FieldFailure; failures: FieldFailure[] };

/**
 * Validates every field in form order (spec §5). On success, the data for addUserInfo.
 * @example validateForm(fields, { uname: 'Li', privacy: 'on' }, { lang: 'zh' }) // { ok: true, data: { uname: 'Li', privacy: true } }
 */
export function validateForm(
  fields: readonly FormField[],
  values: PostedValues,
  opts: ValidateOptions,
): FormValidation {
  const failures = fields.flatMap((f) => {
    const x = validateField(f, values, opts);
    return x ? [x] : [];
  });
  const [first] = failures;
  if (first) return { ok: false, failure: first, failures };
  return { ok: true, data: Object.assign({}, ...fields.map((f) => dataOf(f, values, opts))) as FormData };
}
