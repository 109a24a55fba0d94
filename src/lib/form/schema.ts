/**
 * The registration form definition (spec §3 "CustomerForm"; issue: registration forms): what
 * getCustomerId's `customerForm` holds, one entry per field, in display order. Organiser data:
 * it is validated here, field by field; a broken field is dropped (and named in `problems`)
 * instead of breaking the page, and every text is shown escaped, never as markup.
 *
 * @example
 * [
 *   { "key": "uname", "type": "text", "required": true, "label": { "zh": "姓名", "en": "Name" } },
 *   { "key": "email", "type": "email", "required": true, "label": { "zh": "电子邮箱", "en": "E-mail" } },
 *   { "key": "phone", "type": "phone", "label": { "zh": "手机号码", "en": "Mobile phone" } },
 *   { "key": "ucardid", "type": "idDocument", "required": true, "label": { "zh": "证件", "en": "ID document" } },
 *   { "key": "industry", "type": "select", "label": { "en": "Industry" },
 *     "options": [{ "value": "energy", "label": { "zh": "能源", "en": "Energy" } }] },
 *   { "key": "purpose", "type": "checkbox", "other": true, "label": { "en": "Purpose" }, "options": [...] },
 *   { "key": "privacy", "type": "privacy", "required": true, "label": { "en": "I agree ..." }, "href": "https://..." }
 * ]
 */
import { z } from 'zod';
import { LANGS } from '../core/languages';
import { ID_TYPES } from './id-number';

/** Field types (issue: text, e-mail, phone with area code, select, radio, checkbox with 'other', ID document, date, privacy agreement). */
export const FIELD_TYPES = [
  'text',
  'email',
  'phone',
  'select',
  'radio',
  'checkbox',
  'idDocument',
  'date',
  'privacy',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** A text in several languages: at least Chinese or English (`{ "zh": "姓名", "en": "Name" }`). */
export const LocalText = z
  .partialRecord(z.enum(LANGS), z.string().trim().min(1).max(500))
  .refine((t) => Boolean(t.zh ?? t.en), 'needs a zh or an en text');
export type LocalText = z.infer<typeof LocalText>;

/** Field keys are form names and JSON keys: a letter, then letters, digits or `_`. */
const Key = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]{0,39}$/, 'a key is a letter then letters, digits or _ (at most 40)');

/**
 * Names the register API posts for itself (hidden fields) or the upstream reads with a fixed
 * meaning; a field may not use them.
 */
export const RESERVED_KEYS: ReadonlySet<string> = new Set([
  'route',
  'path',
  'f',
  'idem',
  'e',
  'update',
  'back',
  'areaCode',
  'cardType',
  'activityId',
  'userId',
  'euCode',
  // spec §7 getForm: the link's custom label, sent on as euDefine
  'define',
  'euDefine',
]);

/** One choice of a select, radio or checkbox field. */
export const FieldOption = z.object({
  /** what is posted and stored; numbers are kept as their decimal text */
  value: z.union([z.string().trim().min(1).max(100), z.number()]).transform(String),
  label: LocalText,
});
export type FieldOption = z.infer<typeof FieldOption>;



/** One field of the form. */
export const FormField = z
  .object({
    /** the value's name: form input name and key of addUserInfo's data (`uname`, `ucompany`, `email`, ...) */
    key: Key,
    type: z.enum(FIELD_TYPES),
    /** the question, per language */
    label: LocalText,
    /** an empty value is refused with 'form.supplement' (privacy: must be ticked, 'form.privacy') */
    required: z.boolean().default(false),
    /** choices of select, radio and checkbox */
    options: z.array(FieldOption).max(100).default([]),
    /** select, radio, checkbox: adds an 'other' choice with its own text box ('form.otherOptions' when ticked and empty) */
    other: z.boolean().default(false),
    placeholder: LocalText.optional(),
    /** text: the longest value accepted */
    maxLength: z.number().int().min(1).max(2000).default(200),
    /** idDocument: which of the ID types 1-6 to offer (default: by language, spec §3) */
    idTypes: z
      .array(
        z
          .number()
          .int()
          .min(ID_TYPES[0])
          .max(ID_TYPES[ID_TYPES.length - 1] ?? 6),
      )
      .min(1)
      .optional(),
    /** privacy: the policy's address (http(s) or a path on this site) */
    href: z.string().trim().max(500).optional(),
  })
  .strict()
  .superRefine((f, ctx) => {
    if (RESERVED_KEYS.has(f.key)) ctx.addIssue({ code: 'custom', message: `key ${f.key} is reserved` });
    const choice = f.type === 'select' || f.type === 'radio' || f.type === 'checkbox';
    if (choice && f.options.length === 0 && !f.other)
      ctx.addIssue({ code: 'custom', message: `${f.type} needs options` });
    if (!choice && (f.options.length > 0 || f.other))
      ctx.addIssue({ code: 'custom', message: `${f.type} takes no options` });
    if (new Set(f.options.map((o) => o.value)).size !== f.options.length)
      ctx.addIssue({ code: 'custom', message: 'an option value appears twice' });
  });
export type FormField = z.infer<typeof FormField>;

/** A parsed definition: the usable fields, and what was dropped and why (for logs and tests). */
export interface FormDefinition {
  fields: FormField[];
  problems: string[];
}

/**
 * Reads `customerForm` (unknown organiser data). A non-array, or an array with no usable
 * field, gives no fields; a bad entry or a repeated key is dropped and named in `problems`.
 * Also accepts `{ fields: [...] }`.
 */
export function parseFormDefinition(raw: unknown): FormDefinition {
  const list = Array.isArray(raw)
    ? raw
    : raw && typeof raw === 'object' && Array.isArray((raw as { fields?: unknown }).fields)
      ? (raw as { fields: unknown[] }).fields
      : null;
  if (!list) return { fields: [], problems: raw == null ? [] : ['customerForm is not a list of fields'] };
  const fields: FormField[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  const single = new Set<FieldType>();
  list.forEach((entry, i) => {
    const parsed = FormField.safeParse(entry);
    if (!parsed.success) {
      problems.push(
        `field ${i}: ${parsed.error.issues.map((x) => `${x.path.join('.') || 'field'} ${x.message}`).join('; ')}`,
      );
      return;
    }
    const f = parsed.data;
    if (seen.has(f.key)) return void problems.push(`field ${i}: key ${f.key} appears twice`);
    // One phone and one ID document per form: their side values (areaCode, cardType) have fixed names.
    if ((f.type === 'phone' || f.type === 'idDocument') && single.has(f.type))
      return void problems.push(`field ${i}: a second ${f.type} field`);
    seen.add(f.key);
    single.add(f.type);
    fields.push(f);
  });
  return { fields, problems };
}

// Zod-free helpers live in form-fields.ts so the browser's form islands do not ship zod.
export { OTHER_VALUE, focusName, inputNames, textOf } from './fields';
