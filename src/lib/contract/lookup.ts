/**
 * The lookup (docs/upstream.md "Calls", "Records"): the expo's key, the code senders, the code
 * check, the lookups by contact and by registration code. Every path is relative to
 * `{UPSTREAM_URL}/custom`.
 */
import { z } from 'zod';
import type * as domain from '../util/domain';
import type { SecondForm, UpstreamResult } from './result';
import type { LookupCallName } from './haisi';
import { LastEntry } from './checkin';
import { looseFields, looseInt } from './loose';
import { under } from './wire';

export const LookupPath = {
  ...under('/CustomerUserInfo', 'selectAESKey'),
  /** the senders: +86, +886, other area codes, then e-mail by page language (senders.ts) */
  ...under(
    '/sms',
    'getCaptcha getSmsGJTWCode getSmsGJEnCode getemailCode getemailCodeEn getemailCodeTw getemailCodeVietnam getemailCodeYN',
  ),
  /** spec §7 "Other senders … for special expos": the expo sender table of functions/upstream/senders.ts */
  ...under('/sms', 'getemailCodeEn2 getSmsCodeHaiSC getSmsCodeHJC'),
  ...under('/sms', 'captchaVerify'),
  ...under('/customFrom', 'queryUserExpoId queryEmailUserExpoId queryCustomerCode'),
};

export const LookupCode = {
  /** queryUserExpoId / queryEmailUserExpoId: this contact has a second form to complete; data `{ userId, urlsId }` in clear */
  SECOND_FORM: 20003,
} as const;

/** selectAESKey's data: the expo's 16-byte key. */
export const AesKeyData = z.object({
  aesKey: z.string().refine((k) => new TextEncoder().encode(k).byteLength === 16, 'aesKey must be 16 bytes'),
});
export type AesKeyData = z.infer<typeof AesKeyData>;

/** A registration record (docs/upstream.md "Records"). */
export const Registration = z.object(
  // createtime: "YYYY-MM-DD HH:mm:ss", expo-local time
  looseFields(
    'id:int euCode uname euClass:int euDefine ticketName activityId:int createtime ucompany ucardid ucompanyTitle',
  ),
) satisfies z.ZodType<domain.Registration>;
export type Registration = z.infer<typeof Registration>;

/** queryCustomerCode: one registration record plus usage. */
export const Credential = Registration.extend(
  // useStatus 0 unused, 1 used, 2 void (its order's refund was applied for); maxCount 0 = unlimited;
  // auditStatus 0 approved, 1 awaiting review
  looseFields('useStatus:int usedCount:int maxCount:int auditStatus:int'),
).extend({
  /** the latest admission at a gate ("Check-in (the gate)"); missing or odd reads as none */
  lastEntry: LastEntry,
}) satisfies z.ZodType<domain.Credential>;
export type Credential = z.infer<typeof Credential>;

/** 20003's data, in clear. */
export const SecondFormRef = z.object({
  userId: looseInt.pipe(z.number().int()),
  urlsId: looseInt.pipe(z.number().int()),
}) satisfies z.ZodType<domain.SecondFormRef>;
export type SecondFormRef = z.infer<typeof SecondFormRef>;

// The calls of this area as the client answers them: the one declaration the client implements and src/lib picks its ports from.
/** A verified or to-be-verified contact (spec §2.1: phone mode or e-mail mode). */
export type Contact =
  | { type: 'phone'; /** e.g. `+66`: the first word of the picked country entry */ areaCode: string; national: string }
  | { type: 'email'; email: string };

/** The lookup's calls (docs/upstream.md "Calls"). */
export interface LookupCalls {
  /** `GET /CustomerUserInfo/selectAESKey`: the expo's key. Throws `no-key` when a success carries no usable key. */
  selectAESKey(expoId: number): Promise<UpstreamResult<AesKeyData>>;
  /** The expo's aesKey from the isolate's key cache, fetched once (spec §4: navigation fetches it); throws `no-key`. */
  aesKey(expoId: number): Promise<string>;
  /** Sends an SMS code through the sender of the area code (`+86`, `+886`, others). Code 600 is a refusal. */
  sendSmsCode(p: { expoId: number; areaCode: string; national: string }): Promise<UpstreamResult<null>>;
  /**
   * Sends an e-mail code through the sender of the page language (`lang`: a src/lib/page/languages
   * `Lang`; another string picks the default sender). Code 600 is a refusal.
   */
  sendEmailCode(p: { expoId: number; email: string; lang: string }): Promise<UpstreamResult<null>>;
  /** `GET /sms/captchaVerify`: ok when the code is right and unexpired. */
  captchaVerify(p: { expoId: number; contact: Contact; captcha: string }): Promise<UpstreamResult<null>>;
  /** `GET /customFrom/queryUserExpoId` (phone) or `queryEmailUserExpoId` (e-mail): the contact's registrations, or 20003. */
  queryRegistrations(p: {
    expoId: number;
    contact: Contact;
    captcha: string;
    /**
     * The customer url id, sent (in clear) only with the bypass code of spec §2.2 so the
     * upstream can tell which site's bypass it is; other upstreams ignore the extra param.
     */
    urlsId?: number | undefined;
    /** `queryHaiPhone`: the haisi family's lookup, the same request for both contact kinds (docs/upstream.md "Haisi") */
    call?: LookupCallName | undefined;
  }): Promise<UpstreamResult<Registration[]> | SecondForm>;
  /** `GET /customFrom/queryCustomerCode`: one credential with its usage. */
  queryCustomerCode(p: { expoId: number; euCode: string }): Promise<UpstreamResult<Credential>>;
}
