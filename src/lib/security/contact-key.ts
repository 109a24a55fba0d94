/**
 * One contact as the per-contact abuse limits count it (README "Security" > "Abuse limits"): an
 * e-mail folded to its mailbox, a phone read as E.164 and bucketed by the form's calling-code
 * entry. Pure.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { fullPhone, normalizeNational } from '../form/phone';
import { COUNTRIES } from '../form/country-list';

/** The contact of a send, as the form posted it. */
export type SendContact = { type: 'email'; email: string } | { type: 'phone'; areaCode: string; national: string };

/** Providers whose mailboxes ignore dots in the local part (so `a.b@` and `ab@` are one mailbox). */
const DOTLESS_DOMAINS: Readonly<Record<string, string>> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/** The calling codes the form offers (src/lib/form/country-list.ts), longest first, without `+`. */
const LISTED_CODES: readonly string[] = [...new Set(COUNTRIES.map((c) => c.code.slice(1)))].sort(
  (x, y) => y.length - x.length,
);

/** A phone as the limits read it: the E.164 number and the picker entry it belongs to. */
export interface PhoneDestination {
  /** `+` country code and national number, trunk `0` dropped (libphonenumber-js) */
  e164: string;
  /** the calling code of the form's entry the number falls in (`+44`, `+1242`): the area bucket */
  country: string;
  /**
   * the number's range: its bucket and the next {@link RANGE_DIGITS} digits (`+44 7911`). SMS
   * pumping sends to numbers of ranges the pumper is paid for, so its sends crowd into few
   * ranges, while a show's visitors spread over all of a country's.
   */
  range: string;
}

/** Digits after the calling code that name a number's range (README "Abuse limits"). */
export const RANGE_DIGITS = 4;

/**
 * Where a phone number goes: the full number, whatever was typed as the
 * area code (`+4` and `47…`, `+44` and `7…`, `+447` and `…` are one number), read by
 * libphonenumber-js; null when it has no calling code the form offers (`+999`). The bucket
 * is the form's entry (one per calling code), the longest listed code that starts
 * the number, so the territories of one code (+44: United Kingdom, Guernsey, Jersey, Isle of
 * Man) are one bucket, while the NANP members the form lists alone (+1242) are their own.
 * @example phoneDestination('+4', '47911123456') // { e164: '+447911123456', country: '+44', range: '+44 7911' }
 * @example phoneDestination('+999', '12345678') // null
 */
export function phoneDestination(areaCode: string, national: string): PhoneDestination | null {
  const typed = fullPhone(areaCode, normalizeNational(national));
  if (!/^\+\d{5,19}$/.test(typed)) return null;
  const parsed = parsePhoneNumberFromString(typed);
  if (!parsed) return null;
  const cc = parsed.countryCallingCode;
  const digits = `${cc}${parsed.nationalNumber}`;
  const entry = LISTED_CODES.find((code) => code.startsWith(cc) && digits.startsWith(code));
  return entry
    ? { e164: `+${digits}`, country: `+${entry}`, range: `+${entry} ${digits.slice(entry.length, entry.length + RANGE_DIGITS)}` }
    : null;
}

/**
 * One contact as the per-contact limits count it: the e-mail lower-cased without a `+tag`
 * (`a+x@…` is `a@…`) and, for Gmail, without dots; or the phone as E.164
 * with the trunk `0` dropped (`+44 07…` is `+44 7…`).
 * @example contactKey({ type: 'email', email: ' A.B+news@GMail.com ' }) // 'ab@gmail.com'
 * @example contactKey({ type: 'phone', areaCode: '+44', national: '07911 123456' }) // '+447911123456'
 */
export function contactKey(contact: SendContact): string {
  if (contact.type === 'phone') {
    return phoneDestination(contact.areaCode, contact.national)?.e164 ?? fullPhone(contact.areaCode, normalizeNational(contact.national));
  }
  const email = contact.email.trim().toLowerCase();
  const at = email.lastIndexOf('@');
  if (at <= 0) return email;
  const domain = email.slice(at + 1);
  let local = email.slice(0, at);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  const dotless = DOTLESS_DOMAINS[domain];
  return dotless ? `${local.replace(/\./g, '')}@${dotless}` : `${local}@${domain}`;
}
