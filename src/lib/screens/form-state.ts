/**
 * The flash of a no-JavaScript round trip (src/lib/page/flash.ts), read once by the page
 * pipeline into what a page shows: the typed values, each failing field's message and the
 * page notice. One rule for every screen: a message is its catalogue text (vars filled in by
 * the one interpolation, the i18n `t`), with the upstream's own words under it when the
 * refusal carried them (src/lib/page/upstream-message.ts), else those words alone.
 * Pure: no Astro, React or Hono.
 */
import type { Flash } from '../page/flash';
import type { Tr } from './page';

export interface FieldMessage {
  /** the field's name as posted */
  field: string;
  message: string;
}

export interface PageNotice {
  tone: 'info' | 'error';
  /** the catalogue key, for screens that act on one notice (the form's update prompt) */
  key: string | null;
  message: string;
}

/** What a page shows of its flash. */
export interface PageForm {
  values: Record<string, string>;
  /** every failing field, in form order (the first is the flash's `error`) */
  errors: FieldMessage[];
  notice: PageNotice | null;
}

export const EMPTY_FORM: PageForm = { values: {}, errors: [], notice: null };

/**
 * A flashed message in the page language.
 * @example messageOf({ key: 'seat.noSeat', vars: {}, text: 'not here' }, t) // 'No seat found\nnot here'
 */
export function messageOf(m: { key: string | null; vars?: Record<string, string | number>; text: string | null }, t: Tr): string {
  const lead = m.key ? t(m.key, m.vars) : '';
  return [lead, m.text ?? ''].filter((x) => x !== '').join('\n');
}

/**
 * @example pageForm(null, t) // EMPTY_FORM
 */
export function pageForm(flash: Flash | null, t: Tr): PageForm {
  if (!flash) return EMPTY_FORM;
  const flashed = flash.errors ?? (flash.error ? [flash.error] : []);
  return {
    values: flash.values,
    errors: flashed.map((e) => ({ field: e.field, message: messageOf(e, t) })),
    notice: flash.notice ? { tone: flash.notice.tone, key: flash.notice.key, message: messageOf(flash.notice, t) } : null,
  };
}

/** The message of one field, or null. */
export function errorOf(form: PageForm, field: string): string | null {
  return form.errors.find((e) => e.field === field)?.message ?? null;
}
