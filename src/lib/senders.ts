/**
 * Which send-code call a contact goes to, and how its phone is written on the wire
 * (spec §7, UPSTREAM.md "Calls" and "Wire rules"). Pure: no Astro, React or Hono.
 *
 * Paths are relative to `{UPSTREAM_URL}/custom`, spelled as in functions/upstream/contract.ts `Path`.
 */
import { DEFAULT_LANG, isLang, type Lang } from './languages';

/** An SMS sender path. */
export type SmsSenderPath = '/sms/getCaptcha' | '/sms/getSmsGJTWCode' | '/sms/getSmsGJEnCode';

/** An e-mail sender path. */
export type EmailSenderPath =
  | '/sms/getemailCode'
  | '/sms/getemailCodeEn'
  | '/sms/getemailCodeTw'
  | '/sms/getemailCodeVietnam'
  | '/sms/getemailCodeYN';

/** How the `smsPhone` of an SMS call is written: bare national number, or the full E.164 phone. */
export type SmsPhoneForm = 'national' | 'full';

/** One SMS rule: the sender and the phone form it takes. */
export interface SmsRule {
  readonly path: SmsSenderPath;
  readonly phone: SmsPhoneForm;
}

/** Area codes with a sender of their own (UPSTREAM.md: +86 bare national number, +886 full phone). */
const SMS_RULES: Readonly<Record<string, SmsRule>> = {
  '+86': { path: '/sms/getCaptcha', phone: 'national' },
  '+886': { path: '/sms/getSmsGJTWCode', phone: 'full' },
};

/** Every other area code: the international sender with the full phone. */
const SMS_DEFAULT: SmsRule = { path: '/sms/getSmsGJEnCode', phone: 'full' };

/** The e-mail sender follows the page language (UPSTREAM.md: zh, en also thai and ms, tw, vn, id). */
const EMAIL_SENDERS: Readonly<Record<Lang, EmailSenderPath>> = {
  zh: '/sms/getemailCode',
  en: '/sms/getemailCodeEn',
  thai: '/sms/getemailCodeEn',
  ms: '/sms/getemailCodeEn',
  tw: '/sms/getemailCodeTw',
  vn: '/sms/getemailCodeVietnam',
  id: '/sms/getemailCodeYN',
};

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
 * The SMS sender and phone form for an area code (UPSTREAM.md "Calls").
 * @example smsRule('+86') // { path: '/sms/getCaptcha', phone: 'national' }
 */
export function smsRule(areaCode: string): SmsRule {
  return SMS_RULES[normalizeAreaCode(areaCode)] ?? SMS_DEFAULT;
}

/**
 * The SMS sender path for an area code.
 * @example smsSenderPath('+66') // '/sms/getSmsGJEnCode'
 */
export function smsSenderPath(areaCode: string): SmsSenderPath {
  return smsRule(areaCode).path;
}

/**
 * The full E.164 phone: area code plus national number (UPSTREAM.md "Wire rules").
 * Used for lookups, registrations and every non-SMS call.
 * @example fullPhone('+66', '812345678') // '+66812345678'
 */
export function fullPhone(areaCode: string, national: string): string {
  return `${normalizeAreaCode(areaCode)}${normalizeNational(national)}`;
}

/**
 * The phone exactly as the SMS call takes it, which is also what captchaVerify's `phone` must be:
 * the bare national number for +86, the full phone otherwise.
 * @example smsPhone('+86', '13812345678') // '13812345678'
 * @example smsPhone('+886', '912345678') // '+886912345678'
 */
export function smsPhone(areaCode: string, national: string): string {
  return smsRule(areaCode).phone === 'national' ? normalizeNational(national) : fullPhone(areaCode, national);
}

/**
 * The e-mail sender path for a page language; an unknown code falls back to zh's sender (spec §1).
 * @example emailSenderPath('thai') // '/sms/getemailCodeEn'
 */
export function emailSenderPath(lang: Lang | string): EmailSenderPath {
  return EMAIL_SENDERS[isLang(lang) ? lang : DEFAULT_LANG];
}
