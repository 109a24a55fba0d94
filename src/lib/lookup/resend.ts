/**
 * The send-code button's 60-second rule (spec §4, §9), kept by the server so that it
 * survives a reload: a cookie holds when the last code was sent (epoch seconds).
 */
import { jsonFromBase64url, jsonToBase64url } from '../util/base64url';

/** Seconds between two sends (spec §9: resend countdown 60 s). */
export const RESEND_S = 60;
/** Cookie holding the time of the last successful send. */
export const SENT_COOKIE = 'sent';

/**
 * Seconds left before another code may be sent; 0 when it may be sent now.
 * @example resendWaitS(String(now/1000 - 45), now) // 15
 */
export function resendWaitS(cookieValue: string | null | undefined, nowMs: number): number {
  if (!cookieValue || !/^\d{1,12}$/.test(cookieValue)) return 0;
  const elapsed = Math.floor(nowMs / 1000) - Number(cookieValue);
  if (elapsed < 0) return 0; // a clock from the future is not a reason to lock the visitor out
  return Math.max(0, RESEND_S - elapsed);
}

/**
 * Cookie holding the contact a code was last sent to: a reload during the
 * countdown, with JavaScript or without, comes back with the e-mail or phone and area code
 * still typed. A cookie, not the URL: contacts never land in logs, history or Referer headers.
 * HttpOnly, and read only by the lookup page of the same expo.
 */
export const SENT_TO_COOKIE = 'sentTo';
/** As long as a code lives in the reference upstream (10 minutes): the visitor still types that code after a reload. */
export const SENT_TO_MAX_AGE_S = 600;

/** The contact a code went to, as the lookup form holds it. */
export interface SentTo {
  expoId: number;
  checkType: 1 | 2;
  areaCode: string;
  phone: string;
  email: string;
}

/** Longest value kept per field (the edge's own limit on typed values, functions/api/lookup.ts). */
const SENT_TO_MAX_FIELD = 320;

/** The cookie value of a send: base64url of `[expoId, checkType, areaCode, phone, email]`. */
export function encodeSentTo(s: SentTo): string {
  const cut = (v: string) => v.slice(0, SENT_TO_MAX_FIELD);
  return jsonToBase64url([s.expoId, s.checkType, cut(s.areaCode), cut(s.phone), cut(s.email)]);
}

/**
 * The contact a code was sent to on expo `expoId`, or null (no cookie, another expo's, or
 * malformed: a hand-made cookie only ever fills a form field of the same browser).
 * @example decodeSentTo(encodeSentTo({ expoId: 1312, checkType: 2, areaCode: '', phone: '', email: 'a@b.co' }), 1312)?.email // 'a@b.co'
 */
export function decodeSentTo(value: string | null | undefined, expoId: number): SentTo | null {
  if (!value || value.length > 2048) return null;
  const parsed = jsonFromBase64url(value);
  if (!Array.isArray(parsed) || parsed.length !== 5) return null;
  const [expo, checkType, areaCode, phone, email] = parsed as unknown[];
  if (expo !== expoId || (checkType !== 1 && checkType !== 2)) return null;
  const text = (v: unknown) => (typeof v === 'string' ? v.slice(0, SENT_TO_MAX_FIELD) : '');
  return { expoId, checkType, areaCode: text(areaCode), phone: text(phone), email: text(email) };
}
