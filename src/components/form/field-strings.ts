/** The catalogue texts every rendered form field needs (Field.astro), in the page language. */
import { pick, type Translate } from '../../i18n';
import type { FieldStrings } from './Field.astro';

const FIELD_KEYS = [
  'form.select',
  'form.other',
  'form.otherPlaceholder',
  'form.required',
  'form.areaCode',
  'form.idType',
  'form.idNumber',
  'form.contactLocked',
  'form.privacyLink',
  'form.dateHint',
  'idType.1',
  'idType.2',
  'idType.3',
  'idType.4',
  'idType.5',
  'idType.6',
] as const;

export function fieldStrings(t: Translate): FieldStrings {
  return pick(t, FIELD_KEYS) as FieldStrings;
}
