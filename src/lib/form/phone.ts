/**
 * A phone number as the product reads it (docs/upstream.md "Wire rules": `areaCode` is the country
 * entry's first word, a full phone is E.164). Pure.
 */

/**
 * Normalises an area code to `+digits` (the picker gives `+66`; a bare `66` is accepted too).
 * @example normalizeAreaCode(' 66 ') // '+66'
 */
export function normalizeAreaCode(areaCode: string): string {
  const digits = areaCode.trim().replace(/^\+/, '');
  return `+${digits}`;
}

/**
 * The national number with separators (blanks, dashes, dots, parentheses) removed.
 * No trunk prefix is dropped: the number is kept as typed, so lookups match what was registered.
 */
export function normalizeNational(national: string): string {
  return national.replace(/[\s\-.()]/g, '');
}

/**
 * The full E.164 phone: area code plus national number (docs/upstream.md "Wire rules").
 * Used for lookups, registrations and every non-SMS call.
 * @example fullPhone('+66', '812345678') // '+66812345678'
 */
export function fullPhone(areaCode: string, national: string): string {
  return `${normalizeAreaCode(areaCode)}${normalizeNational(national)}`;
}
