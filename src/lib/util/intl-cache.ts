/**
 * Intl formatters, made once per isolate and options (issue 24, "Worker CPU"): constructing an
 * `Intl.DateTimeFormat` or `Intl.NumberFormat` loads ICU data and costs about a millisecond, more
 * than formatting with it; the credential page's visit dates and the ticket list's prices built
 * one per call. A formatter holds no request's state, so sharing it is safe. Bounded: the keys
 * are the catalogue's languages and the expos' currencies, but nothing here trusts that.
 */
import { BoundedMemo, remembered } from './bounded-memo';

const formatters = new BoundedMemo<Intl.DateTimeFormat | Intl.NumberFormat>(256);

/** `new Intl.DateTimeFormat(locale, options)`, made once per locale and options. */
export function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return remembered(formatters, `d|${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options)) as Intl.DateTimeFormat;
}

/** `new Intl.NumberFormat(locale, options)`, made once per locale and options (throws, like it, on an unknown currency; nothing is kept then). */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  return remembered(formatters, `n|${locale}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options)) as Intl.NumberFormat;
}
