/**
 * The lookup (docs/upstream.md "Calls", "Records"): the expo's key, the code senders, the code
 * check, the lookups by contact and by registration code. Every path is relative to
 * `{UPSTREAM_URL}/custom`.
 */
import { z } from 'zod';
import type * as domain from '../../../src/lib/util/domain';
import { looseInt, looseString, opt } from './loose';
import type { Base } from './wire';

export const LookupBase: Base = 'custom';

export const LookupPath = {
  selectAESKey: '/CustomerUserInfo/selectAESKey',
  getCaptcha: '/sms/getCaptcha',
  getSmsGJTWCode: '/sms/getSmsGJTWCode',
  getSmsGJEnCode: '/sms/getSmsGJEnCode',
  getemailCode: '/sms/getemailCode',
  getemailCodeEn: '/sms/getemailCodeEn',
  getemailCodeTw: '/sms/getemailCodeTw',
  getemailCodeVietnam: '/sms/getemailCodeVietnam',
  getemailCodeYN: '/sms/getemailCodeYN',
  captchaVerify: '/sms/captchaVerify',
  queryUserExpoId: '/customFrom/queryUserExpoId',
  queryEmailUserExpoId: '/customFrom/queryEmailUserExpoId',
  queryCustomerCode: '/customFrom/queryCustomerCode',
} as const;

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
export const Registration = z.object({
  id: opt(looseInt),
  euCode: opt(looseString),
  uname: opt(looseString),
  euClass: opt(looseInt),
  euDefine: opt(looseString),
  ticketName: opt(looseString),
  activityId: opt(looseInt),
  /** "YYYY-MM-DD HH:mm:ss", expo-local time */
  createtime: opt(looseString),
  ucompany: opt(looseString),
  ucardid: opt(looseString),
  ucompanyTitle: opt(looseString),
}) satisfies z.ZodType<domain.Registration>;
export type Registration = z.infer<typeof Registration>;

/** queryCustomerCode: one registration record plus usage. */
export const Credential = Registration.extend({
  /** 0 unused, 1 used, 2 void (its order's refund was applied for) */
  useStatus: opt(looseInt),
  usedCount: opt(looseInt),
  /** 0 = unlimited */
  maxCount: opt(looseInt),
  /** 0 approved, 1 awaiting review */
  auditStatus: opt(looseInt),
}) satisfies z.ZodType<domain.Credential>;
export type Credential = z.infer<typeof Credential>;

/** 20003's data, in clear. */
export const SecondFormRef = z.object({
  userId: looseInt.pipe(z.number().int()),
  urlsId: looseInt.pipe(z.number().int()),
}) satisfies z.ZodType<domain.SecondFormRef>;
export type SecondFormRef = z.infer<typeof SecondFormRef>;
