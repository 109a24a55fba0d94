/**
 * Contacts as the reference keys codes, send limits and lookups by them.
 *
 * docs/upstream.md "Wire rules": the +86 SMS call takes the bare national number, every other call
 * the full E.164 phone; e-mails compare case-insensitively. Normalising both spellings of a
 * phone to E.164 lets the code sent via getCaptcha(13812345678) unlock the lookup of
 * phone=+8613812345678.
 */
import { z } from 'zod';

/** A mainland mobile number without the country code (spec §5: 11 digits, 1, then 2-9). */
export const CN_NATIONAL = /^1[2-9]\d{9}$/;
/** A full phone: `+`, country code and number, 7 to 15 digits (E.164). */
export const E164 = /^\+[1-9]\d{6,14}$/;

const emailSchema = z.email();

/** Lowercased, trimmed e-mail; null when it is not an e-mail address. */
export function normalizeEmail(raw: string): string | null {
  const s = raw.trim().toLowerCase();
  return s.length <= 254 && emailSchema.safeParse(s).success ? s : null;
}

/**
 * A phone as E.164; a bare mainland number gains `+86`. Spaces, dashes and brackets are dropped.
 * @example normalizePhone('138 0013 8000') // '+8613800138000'
 */
export function normalizePhone(raw: string): string | null {
  const s = raw.trim().replace(/[\s\-()]/g, '');
  if (CN_NATIONAL.test(s)) return `+86${s}`;
  return E164.test(s) ? s : null;
}

/** Either kind of contact, as stored (e-mail when it has an `@`, else phone). */
export function normalizeContact(raw: string): string | null {
  return raw.includes('@') ? normalizeEmail(raw) : normalizePhone(raw);
}

/** Mail providers whose mailboxes ignore dots in the local part (`a.b@` and `ab@` are one mailbox). */
const DOTLESS: Readonly<Record<string, string>> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * The mailbox a contact reaches, for counting what one person holds (item 13: the
 * per-contact ticket limit and the open-order caps). An e-mail loses its `+tag` (`a+1@x` and
 * `a+2@x` deliver to `a@x`: sub-addressing, RFC 5233, which every large provider offers) and,
 * at Gmail, its dots; a phone is its E.164 form. Only for counting: orders, codes and lookups
 * keep the contact as the visitor proved it.
 * @example mailboxKey('A.B+tickets@GMail.com') // 'ab@gmail.com'
 * @example mailboxKey('+66 81 234 5678') // '+66812345678'
 */
export function mailboxKey(raw: string): string | null {
  const contact = normalizeContact(raw);
  if (!contact || !contact.includes('@')) return contact;
  const at = contact.lastIndexOf('@');
  // The +tag goes (a leading + is part of the name), then, where the provider ignores them, the dots.
  const local = contact.slice(0, at).replace(/^([^+].*?)\+.*$/s, '$1');
  const dotless = DOTLESS[contact.slice(at + 1)];
  return dotless === undefined ? `${local}${contact.slice(at)}` : `${local.replaceAll('.', '')}@${dotless}`;
}
