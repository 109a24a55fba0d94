/**
 * Which send-code call a contact goes to, and how its phone is written on the wire
 * (spec §7, docs/upstream.md "Calls" and "Wire rules"). Wire knowledge, so it lives with the client;
 * the phone's own rules (area code, national number, E.164) are src/lib/form/phone.ts.
 *
 * Paths are relative to `{UPSTREAM_URL}/custom`, spelled as in src/lib/contract/lookup.ts `LookupPath`.
 */
import { DEFAULT_LANG, isLang, type Lang } from '../../src/lib/core/languages';
import { fullPhone, normalizeAreaCode, normalizeNational } from '../../src/lib/form/phone';

/** An SMS sender path. */
export type SmsSenderPath =
  | '/sms/getCaptcha'
  | '/sms/getSmsGJTWCode'
  | '/sms/getSmsGJEnCode'
  | '/sms/getSmsCodeHaiSC'
  | '/sms/getSmsCodeHJC';

/** An e-mail sender path. */
export type EmailSenderPath =
  | '/sms/getemailCode'
  | '/sms/getemailCodeEn'
  | '/sms/getemailCodeTw'
  | '/sms/getemailCodeVietnam'
  | '/sms/getemailCodeYN'
  | '/sms/getemailCodeEn2';

/** How the `smsPhone` of an SMS call is written: bare national number, or the full E.164 phone. */
export type SmsPhoneForm = 'national' | 'full';

/** One SMS rule: the sender and the phone form it takes. */
export interface SmsRule {
  readonly path: SmsSenderPath;
  readonly phone: SmsPhoneForm;
}

/** Area codes with a sender of their own (docs/upstream.md: +86 bare national number, +886 full phone). */
const SMS_RULES: Readonly<Record<string, SmsRule>> = {
  '+86': { path: '/sms/getCaptcha', phone: 'national' },
  '+886': { path: '/sms/getSmsGJTWCode', phone: 'full' },
};

/** Every other area code: the international sender with the full phone. */
const SMS_DEFAULT: SmsRule = { path: '/sms/getSmsGJEnCode', phone: 'full' };

/** The e-mail sender follows the page language (docs/upstream.md: zh, en also thai and ms, tw, vn, id). */
const EMAIL_SENDERS: Readonly<Record<Lang, EmailSenderPath>> = {
  zh: '/sms/getemailCode',
  en: '/sms/getemailCodeEn',
  thai: '/sms/getemailCodeEn',
  ms: '/sms/getemailCodeEn',
  tw: '/sms/getemailCodeTw',
  vn: '/sms/getemailCodeVietnam',
  id: '/sms/getemailCodeYN',
};

/** An expo with senders of its own: its SMS sender (every area code) and/or its e-mail sender (every language). */
export interface ExpoSenders {
  readonly sms?: SmsSenderPath;
  readonly email?: EmailSenderPath;
}

/**
 * spec §7 "Other senders getSmsCodeHaiSC, getSmsCodeHJC for special expos (1177, 1349, 1380
 * choose senders; 1349 e-mail sender)", with getemailCodeEn2. Which expo takes which sender is
 * not shown; our reading (docs/upstream.md "Senders of special expos"): 1177's phones go to
 * getSmsCodeHJC, 1380's to getSmsCodeHaiSC, 1349's e-mails to getemailCodeEn2. An expo sender
 * takes the phone in the form of its area code's own rule (so captchaVerify's `phone` is the
 * same whichever sender sent the code).
 */
export const EXPO_SENDERS: Readonly<Record<number, ExpoSenders>> = {
  1177: { sms: '/sms/getSmsCodeHJC' },
  1349: { email: '/sms/getemailCodeEn2' },
  1380: { sms: '/sms/getSmsCodeHaiSC' },
};

/**
 * The SMS sender and phone form for an area code (docs/upstream.md "Calls"), and for an expo
 * with a sender of its own (EXPO_SENDERS), that sender with the area code's phone form.
 * @example smsRule('+86') // { path: '/sms/getCaptcha', phone: 'national' }
 * @example smsRule('+86', 1177) // { path: '/sms/getSmsCodeHJC', phone: 'national' }
 */
export function smsRule(areaCode: string, expoId?: number): SmsRule {
  const rule = SMS_RULES[normalizeAreaCode(areaCode)] ?? SMS_DEFAULT;
  const own = expoId === undefined ? undefined : EXPO_SENDERS[expoId]?.sms;
  return own ? { path: own, phone: rule.phone } : rule;
}

/**
 * The SMS sender path for an area code (and expo).
 * @example smsSenderPath('+66') // '/sms/getSmsGJEnCode'
 */
export function smsSenderPath(areaCode: string, expoId?: number): SmsSenderPath {
  return smsRule(areaCode, expoId).path;
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
 * An expo with an e-mail sender of its own (EXPO_SENDERS) uses it whatever the language.
 * @example emailSenderPath('thai') // '/sms/getemailCodeEn'
 * @example emailSenderPath('zh', 1349) // '/sms/getemailCodeEn2'
 */
export function emailSenderPath(lang: Lang | string, expoId?: number): EmailSenderPath {
  const own = expoId === undefined ? undefined : EXPO_SENDERS[expoId]?.email;
  return own ?? EMAIL_SENDERS[isLang(lang) ? lang : DEFAULT_LANG];
}
