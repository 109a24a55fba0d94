/**
 * The verified contact on the registration form (DESIGN.md "Verified contact is a signed
 * cookie"): the e-mail or phone proven by a code is filled in and read-only, and the server
 * puts it into what it registers whatever was posted for it.
 */
import { provenFor, type VerifiedContact } from '../lookup/contact-cookie';
import type { FormField } from './schema';

export interface ContactLock {
  /** input values to fill in and lock, by input name */
  values: Record<string, string>;
  /** input names shown read-only */
  locked: string[];
  /**
   * What the upstream receives for the contact (docs/upstream.md: `email`, or `phone` + `areaCode`),
   * and `checkType`, which of the two was verified (only that one decides whose registration
   * it is: docs/upstream.md "Who owns a registration").
   */
  data: { email: string; checkType: 2 } | { phone: string; areaCode: string; checkType: 1 };
}

/** The national part of a full phone, given its area code (`+66812345678`, `+66` → `812345678`). */
export function nationalOf(full: string, areaCode: string): string {
  return full.startsWith(areaCode) ? full.slice(areaCode.length) : full.replace(/^\+/, '');
}

/**
 * The lock for a verified contact on a form; null when there is none or it is for another expo.
 * @example contactLock(fields, { expoId: 1308, contact: 'a@b.test', checkType: 2 }, 1308)
 * // { values: { email: 'a@b.test' }, locked: ['email'], data: { email: 'a@b.test', checkType: 2 } }
 */
export function contactLock(
  fields: readonly FormField[],
  cookie: VerifiedContact | null,
  expoId: number,
): ContactLock | null {
  // A bypass lookup (spec §2.2, site 10542) proved nothing: it never fills in or registers.
  const vc = provenFor(cookie, expoId);
  if (!vc) return null;
  if (vc.checkType === 2) {
    const f = fields.find((x) => x.type === 'email');
    return {
      values: f ? { [f.key]: vc.contact } : {},
      locked: f ? [f.key] : [],
      data: { email: vc.contact, checkType: 2 },
    };
  }
  const areaCode = vc.areaCode ?? '';
  const national = nationalOf(vc.contact, areaCode);
  const f = fields.find((x) => x.type === 'phone');
  return {
    values: f ? { [f.key]: national, [`${f.key}.areaCode`]: areaCode } : {},
    locked: f ? [f.key, `${f.key}.areaCode`] : [],
    data: { phone: national, areaCode, checkType: 1 },
  };
}
