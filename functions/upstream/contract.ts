/**
 * The organiser's API as docs/upstream.md fixes it: call paths, reply envelope and the shapes of
 * what comes back. The upstream client (functions/upstream) reads every reply through these
 * schemas; the reference upstream (functions/reference) writes replies that satisfy them.
 *
 * Replies from real organisers are loose: every field may be missing or null, numbers may
 * arrive as strings. The schemas therefore coerce and default instead of rejecting, so one
 * odd field never crashes a page (docs/upstream.md "Records").
 */
import { z } from 'zod';
import type * as domain from '../../src/lib/util/domain';

// The domain's codes and classes live in src/lib (the rules need them); the wire re-exports them.
export { Code, EU_CLASSES, isSuccessCode, type EuClass } from '../../src/lib/util/domain';

/** Every call path, relative to `{UPSTREAM_URL}/custom` (docs/upstream.md "Calls"). */
export const Path = {
  selectAESKey: '/CustomerUserInfo/selectAESKey',
  getCustomerId: '/customFrom/getCustomerId',
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
  queryFromUserExpoId: '/customFrom/queryFromUserExpoId',
  queryCustomerCode: '/customFrom/queryCustomerCode',
  addUserInfo: '/CustomerUserInfo/addUserInfo',
  /** business-card recognition (spec §7 "Camera: camera5"): `{ image }` base64 JPEG → `{ success, ui* }` */
  camera5: '/CustomerUserInfo/camera5',
} as const;

/** A loose integer: number or numeric string; anything else becomes null. */
const looseInt = z.preprocess((v) => {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v.trim());
  return null;
}, z.number().int().nullable());

/** A loose string: strings kept, numbers stringified, anything else null. */
const looseString = z.preprocess((v) => {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}, z.string().nullable());

const opt = <T extends z.ZodType>(s: T) => s.optional().transform((v) => (v === undefined ? null : v));

/** The reply envelope of every call: `{ code, msg, data }`. */
export const Envelope = z.object({
  code: looseInt.pipe(z.number().int()),
  msg: opt(looseString),
  data: z.unknown().optional(),
});
export type Envelope = z.infer<typeof Envelope>;

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
  /** 0 unused, 1 used */
  useStatus: opt(looseInt),
  usedCount: opt(looseInt),
  /** 0 = unlimited */
  maxCount: opt(looseInt),
  /** 0 approved, 1 awaiting review */
  auditStatus: opt(looseInt),
}) satisfies z.ZodType<domain.Credential>;
export type Credential = z.infer<typeof Credential>;

/** Expo info (spec §3). */
export const ExpoInfo = z.object({
  id: opt(looseInt),
  exhiName: opt(looseString),
  exhiNameEn: opt(looseString),
  address: opt(looseString),
  /** "YYYY-MM-DD HH:mm:ss", expo-local time */
  endTime: opt(looseString),
  showLogo: opt(looseString),
  bottomHref: opt(looseString),
  bottomInstructions: opt(looseString),
});
export type ExpoInfo = z.infer<typeof ExpoInfo>;

/** Customer urls (spec §3). */
export const CustomerUrls = z.object({
  id: opt(looseInt),
  longUrl: opt(looseString),
  headImgUrl: opt(looseString),
});
export type CustomerUrls = z.infer<typeof CustomerUrls>;

/** Customer config, `customerWx` (spec §3). Every field optional: organisers fill what they use. */
export const CustomerWx = z.object({
  id: opt(looseInt),
  urlsId: opt(looseInt),
  /** 1 Chinese; anything else English (spec §4 config application) */
  languageType: opt(looseInt),
  headImgUrl: opt(looseString),
  /** 1 or empty Chinese lookup, 2 English lookup, 3 two tabs, 4 register and query buttons */
  signType: opt(looseInt),
  isUserClass: opt(looseInt),
  /** comma-separated image lists */
  bottomUrl: opt(looseString),
  bottomUrlEn: opt(looseString),
  pcBackground: opt(looseString),
  formTitle: opt(looseString),
  /** 2 = e-mail lookup */
  queryMethod: opt(looseInt),
  registrationName: opt(looseString),
  buttonName: opt(looseString),
  button1: opt(looseString),
  button2: opt(looseString),
  copywriting1: opt(looseString),
  copywriting2: opt(looseString),
  h_explain: opt(looseString),
  successfulUrl: opt(looseString),
  hbackground: opt(looseString),
  buttonTextColor: opt(looseString),
  buttonBackgroundColor: opt(looseString),
  queryButtonImage: opt(looseString),
  registerButtonImage: opt(looseString),
  isOpenBusinessCard: opt(looseInt),
  /** comma-separated, one jump link per banner image */
  headjumpUrl: opt(looseString),
  /** share title */
  wechatShare: opt(looseString),
  /** share description */
  wecharDescription: opt(looseString),
  /** share image */
  shareLog: opt(looseString),
  /** 1: the epidemic-prevention pledge and the health upload (spec §2.5) */
  healthPledge: opt(looseInt),
});
export type CustomerWx = z.infer<typeof CustomerWx>;

/** An activity (spec §3); null when the url has none. */
export const Activity = z.object({
  id: opt(looseInt),
  activityName: opt(looseString),
});
export type Activity = z.infer<typeof Activity>;

/**
 * getCustomerId's decrypted data. `customerForm` is the form definition; its schema
 * belongs to the registration-form issue and is kept opaque here.
 */
export const FormConfig = z.object({
  customerForm: z.unknown().optional().transform((v) => v ?? null),
  customerUrls: CustomerUrls.nullish().transform((v) => v ?? null),
  customerWx: CustomerWx.nullish().transform((v) => v ?? null),
  expoInfo: ExpoInfo.nullish().transform((v) => v ?? null),
  activity: Activity.nullish().transform((v) => v ?? null),
});
export type FormConfig = z.infer<typeof FormConfig>;

/** 20003's data, in clear. */
export const SecondFormRef = z.object({
  userId: looseInt.pipe(z.number().int()),
  urlsId: looseInt.pipe(z.number().int()),
}) satisfies z.ZodType<domain.SecondFormRef>;
export type SecondFormRef = z.infer<typeof SecondFormRef>;

/** addUserInfo success data. */
export const Added = z.object({ euCode: looseString.pipe(z.string()), id: opt(looseInt) });
export type Added = z.infer<typeof Added>;

/** selectAESKey success data: the expo's 16-character key (docs/upstream.md "Calls"). */
export const AesKeyData = z.object({
  aesKey: z.string().refine((k) => new TextEncoder().encode(k).byteLength === 16, 'aesKey must be 16 bytes'),
});
export type AesKeyData = z.infer<typeof AesKeyData>;

/** queryFromUserExpoId success data: the second form's saved values by field key; null reads as none. */
export const SecondFormValues = z
  .record(z.string(), z.unknown())
  .nullish()
  .transform((v) => v ?? {});
export type SecondFormValues = z.infer<typeof SecondFormValues>;

/** addUserInfo code 20001's data: the existing registration's id (may be missing). */
export const ExistingRegistration = z
  .object({ id: opt(looseInt) })
  .nullish()
  .transform((v) => ({ id: v?.id ?? null }));
export type ExistingRegistration = z.infer<typeof ExistingRegistration>;

/**
 * camera5 success data (spec §3 "OCR result", §7): a success flag plus the recognised card
 * fields, each possibly missing. `success: false` (or no field) means nothing was recognised.
 */
export const CardOcr = z
  .object({
    success: z.preprocess((v) => v === true || v === 1 || v === 'true', z.boolean()).optional(),
    uiName: opt(looseString),
    uiCompany: opt(looseString),
    uiCompanyTitle: opt(looseString),
    uiDepa: opt(looseString),
    uiEmail1: opt(looseString),
    uiPhone1: opt(looseString),
    uiAddress: opt(looseString),
  })
  .nullish()
  .transform((v) => v ?? { success: false });
export type CardOcr = z.infer<typeof CardOcr>;
