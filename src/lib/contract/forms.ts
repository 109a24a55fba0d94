/**
 * The registration form (docs/upstream.md "Calls", "Forms"): the customer url's config, the
 * registration itself, the second form's saved values and the business-card reader. Every path
 * is relative to `{UPSTREAM_URL}/custom`.
 */
import { z } from 'zod';
import { looseFields, looseInt, looseString, opt } from './loose';
import { under } from './wire';
import type { AlreadyRegistered, UpstreamResult } from './result';
import type { RegisterCallName } from './haisi';

export const FormPath = {
  ...under('/customFrom', 'getCustomerId queryFromUserExpoId'),
  /** camera5: business-card recognition (spec §7 "Camera: camera5", docs/upstream.md "Business-card reader") */
  ...under('/CustomerUserInfo', 'addUserInfo camera5'),
  /** spec §7 `exhiCustomerUser/addExhiUserInfor` (payload not shown; our reading: docs/upstream.md "Exhibitor registration") */
  ...under('/exhiCustomerUser', 'addExhiUserInfor'),
};

export const FormCode = {
  /** addUserInfo: the proven contact already owns a registration with this phone or ID number; data `{ id }` */
  ALREADY_REGISTERED: 20001,
} as const;

/** Expo info (spec §3). */
export const ExpoInfo = z.object(
  // startTime, endTime: "YYYY-MM-DD HH:mm:ss", expo-local time; startTime, hall, contactPhone and
  // contactEmail are our reading (docs/upstream.md "Records"): the spec shows none of them
  looseFields('id:int exhiName exhiNameEn address endTime showLogo bottomHref bottomInstructions startTime hall contactPhone contactEmail'),
);
export type ExpoInfo = z.infer<typeof ExpoInfo>;

/** Customer urls (spec §3). */
export const CustomerUrls = z.object(looseFields('id:int longUrl headImgUrl'));
export type CustomerUrls = z.infer<typeof CustomerUrls>;

/**
 * Customer config, `customerWx` (spec §3; docs/upstream.md "Records" says what each field means).
 * Every field optional: organisers fill what they use.
 */
export const CustomerWx = z.object({
  ...looseFields('id:int urlsId:int languageType:int headImgUrl signType:int isUserClass:int bottomUrl bottomUrlEn'),
  ...looseFields('pcBackground formTitle queryMethod:int registrationName buttonName button1 button2 copywriting1'),
  ...looseFields('copywriting2 h_explain successfulUrl hbackground buttonTextColor buttonBackgroundColor'),
  ...looseFields('queryButtonImage registerButtonImage isOpenBusinessCard:int headjumpUrl wechatShare'),
  ...looseFields('wecharDescription shareLog healthPledge:int'),
  // our reading: the payment methods' names (docs/upstream.md "Records")
  ...looseFields('payName1 payName2'),
});
export type CustomerWx = z.infer<typeof CustomerWx>;

/** An activity (spec §3); null when the url has none. */
export const Activity = z.object(looseFields('id:int activityName'));
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


/** addUserInfo and addExhiUserInfor success data (the exhibitor's: its class 2 credential, spec §3). */
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

// The calls of this area as the client answers them: the one declaration the client implements and src/lib picks its ports from.
/** The form's calls (docs/upstream.md "Calls"). */
export interface FormCalls {
  /** `GET /customFrom/getCustomerId`: the decrypted form config of a customer url (spec §3). */
  getCustomerId(p: { expoId: number; fId: number; ty?: string | undefined }): Promise<UpstreamResult<FormConfig>>;
  /** `GET /customFrom/queryFromUserExpoId`: the second form's saved values by field key. */
  queryFromUserExpoId(p: { expoId: number; userId: number; urlsId: number }): Promise<UpstreamResult<SecondFormValues>>;
  /** `POST /CustomerUserInfo/addUserInfo`: registers the form values, or 20001 when already registered. */
  addUserInfo(p: {
    expoId: number;
    urlsId: number;
    values: Readonly<Record<string, unknown>>;
    /** the haisi family's registrations post to their own path, same request and reply (docs/upstream.md "Haisi") */
    call?: RegisterCallName | undefined;
  }): Promise<UpstreamResult<Added> | AlreadyRegistered>;
  /** `POST /exhiCustomerUser/addExhiUserInfor`: an exhibitor's registration (class 2), owned by the proven contact. */
  addExhiUserInfor(p: { expoId: number; urlsId: number; values: Readonly<Record<string, unknown>> }): Promise<UpstreamResult<Added>>;
  /** `POST /CustomerUserInfo/camera5`: recognises a business card (`image`: base64 JPEG, no `data:` prefix). */
  camera5(p: { expoId: number; image: string }): Promise<UpstreamResult<CardOcr>>;
}
