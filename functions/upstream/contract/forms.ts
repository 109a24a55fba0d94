/**
 * The registration form (docs/upstream.md "Calls", "Forms"): the customer url's config, the
 * registration itself, the second form's saved values and the business-card reader. Every path
 * is relative to `{UPSTREAM_URL}/custom`.
 */
import { z } from 'zod';
import { looseInt, looseString, opt } from './loose';
import type { Base } from './wire';

export const FormBase: Base = 'custom';

export const FormPath = {
  getCustomerId: '/customFrom/getCustomerId',
  queryFromUserExpoId: '/customFrom/queryFromUserExpoId',
  addUserInfo: '/CustomerUserInfo/addUserInfo',
  /** business-card recognition (spec §7 "Camera: camera5"): `{ image }` base64 JPEG → `{ success, ui* }` */
  camera5: '/CustomerUserInfo/camera5',
} as const;

export const FormCode = {
  /** addUserInfo: the proven contact already owns a registration with this phone or ID number; data `{ id }` */
  ALREADY_REGISTERED: 20001,
} as const;

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
 * is read by src/lib/form (a broken field is dropped) and is kept opaque here.
 */
export const FormConfig = z.object({
  customerForm: z.unknown().optional().transform((v) => v ?? null),
  customerUrls: CustomerUrls.nullish().transform((v) => v ?? null),
  customerWx: CustomerWx.nullish().transform((v) => v ?? null),
  expoInfo: ExpoInfo.nullish().transform((v) => v ?? null),
  activity: Activity.nullish().transform((v) => v ?? null),
});
export type FormConfig = z.infer<typeof FormConfig>;


/** addUserInfo success data. */
export const Added = z.object({ euCode: looseString.pipe(z.string()), id: opt(looseInt) });
export type Added = z.infer<typeof Added>;

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
