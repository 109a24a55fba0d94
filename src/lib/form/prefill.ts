/**
 * Values a form shows before the visitor types (issue: second forms load saved values,
 * supplement and repair forms prefill what is known, business cards fill the card's fields).
 * Upstream values come shaped like addUserInfo's data (`{ industry: 'Energy', visitDays: ['day1'] }`);
 * the form needs them as the flat input values it posts (form-schema.ts inputNames).
 */
import { OTHER_VALUE } from './fields';
import type { FormField } from './schema';

const str = (v: unknown): string =>
  typeof v === 'string' ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : '';

/**
 * Turns data-shaped values into the form's input values; unknown keys and odd values are ignored.
 * @example postedFromData([visitDays], { visitDays: ['day1'] }) // { 'visitDays.0': 'day1' }
 */
export function postedFromData(
  fields: readonly FormField[],
  data: Readonly<Record<string, unknown>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fields) {
    const v = data[f.key];
    switch (f.type) {
      case 'checkbox': {
        const list = (Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : []).map(str).filter(Boolean);
        const rest = list.filter((x) => !f.options.some((o) => o.value === x));
        f.options.forEach((o, i) => {
          if (list.includes(o.value)) out[`${f.key}.${i}`] = o.value;
        });
        if (f.other && rest.length > 0) {
          out[`${f.key}.${OTHER_VALUE}`] = OTHER_VALUE;
          out[`${f.key}.other`] = rest.join(', ');
        }
        break;
      }
      case 'select':
      case 'radio': {
        const x = str(v);
        if (x === '') break;
        if (f.options.some((o) => o.value === x)) out[f.key] = x;
        else if (f.other) {
          out[f.key] = OTHER_VALUE;
          out[`${f.key}.other`] = x;
        }
        break;
      }
      case 'idDocument': {
        const x = str(v);
        if (x !== '') out[f.key] = x;
        const type = str(data['cardType']);
        if (/^[1-6]$/.test(type)) out[`${f.key}.type`] = type;
        break;
      }
      case 'phone': {
        const x = str(v);
        if (x !== '') out[f.key] = x;
        const area = str(data['areaCode']);
        if (/^\+\d{1,4}$/.test(area)) out[`${f.key}.areaCode`] = area;
        break;
      }
      case 'privacy':
        break;
      default: {
        const x = str(v);
        if (x !== '') out[f.key] = x;
      }
    }
  }
  return out;
}

/** The card fields of spec §3's OCR result, named as the spec names them. */
export interface CardFields {
  name?: string;
  company?: string;
  companyTitle?: string;
  dept?: string;
  email?: string;
  phone?: string;
  address?: string;
}

/** spec §3: address, company, companyTitle, dept, email, name, phone from uiAddress, uiCompany, uiCompanyTitle, uiDepa, uiEmail1, uiName, uiPhone1. */
const OCR_MAP: Readonly<Record<keyof CardFields, string>> = {
  address: 'uiAddress',
  company: 'uiCompany',
  companyTitle: 'uiCompanyTitle',
  dept: 'uiDepa',
  email: 'uiEmail1',
  name: 'uiName',
  phone: 'uiPhone1',
};

/**
 * The recognised card fields of a camera5 reply; empty when nothing was recognised (spec §5: then 'home.cameraTip').
 * @example cardFields({ success: true, uiName: 'Li Lei', uiEmail1: 'li@x.test' }) // { name: 'Li Lei', email: 'li@x.test' }
 */
export function cardFields(ocr: Readonly<Record<string, unknown>> | null | undefined): CardFields {
  if (!ocr || ocr['success'] === false) return {};
  const out: CardFields = {};
  for (const [k, ui] of Object.entries(OCR_MAP) as [keyof CardFields, string][]) {
    const v = str(ocr[ui]);
    if (v !== '') out[k] = v.slice(0, 300);
  }
  return out;
}

/** Which form key each card field fills (the seed's keys; docs/upstream.md record names). */
export const CARD_TO_FORM: Readonly<Record<keyof CardFields, string>> = {
  name: 'uname',
  company: 'ucompany',
  companyTitle: 'ucompanyTitle',
  dept: 'dept',
  email: 'email',
  phone: 'phone',
  address: 'address',
};

/**
 * The input values a card fills on a form: only fields the form has, never a locked input
 * (the verified contact stays), never a choice field.
 * @example cardFill(fields, { name: 'Li' }, []) // { uname: 'Li' }
 */
export function cardFill(
  fields: readonly FormField[],
  card: CardFields,
  locked: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(card) as [keyof CardFields, string][]) {
    const f = fields.find((x) => x.key === CARD_TO_FORM[k]);
    if (!f || locked.includes(f.key) || !['text', 'email', 'phone'].includes(f.type)) continue;
    if (f.type === 'phone') {
      // A printed phone may carry its country code: `+66 81 234 5678` → +66 and 812345678.
      const m = /^\+(\d{1,4})[\s-]+(.+)$/.exec(v);
      const digits = (m ? (m[2] ?? '') : v).replace(/\D/g, '');
      if (digits) out[f.key] = digits;
      if (m && !locked.includes(`${f.key}.areaCode`)) out[`${f.key}.areaCode`] = `+${m[1] ?? ''}`;
    } else out[f.key] = v;
  }
  return out;
}
