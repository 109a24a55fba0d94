/**
 * The lookup form's fixed ids and the few elements its script draws (src/scripts/lookup-enhance.ts),
 * shared with the server's markup (src/components/lookup/LookupForm.astro) so both agree. One
 * lookup form per page, so fixed ids. Types only from elsewhere: the server imports it too.
 */
import type { LookupField } from '../lib/lookup/validation';

export const FIELD_ID: Readonly<Record<LookupField, string>> = {
  areaCode: 'lookup-areaCode',
  phone: 'lookup-phone',
  email: 'lookup-email',
  code: 'lookup-code',
};
export const errorId = (field: LookupField): string => `${FIELD_ID[field]}-error`;
/** The hidden fields posted with the form, in the server's order. */
export const HIDDEN_NAMES = ['expoId', 'urlId', 'ty', 'variant', 'list', 'f', 'define', 'back', 'next'] as const;

/** An element with attributes (an `undefined` value is left out) and text. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Readonly<Record<string, string | undefined>> = {},
  text = '',
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}
