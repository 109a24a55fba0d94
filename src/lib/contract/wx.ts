/**
 * The messaging-app calls (docs/upstream.md "Messaging app"; spec §4, §7): the app id of an expo
 * and the silent login. Paths relative to `{UPSTREAM_URL}/wx`; the spec gives their parameters,
 * not their paths: these are our reading, named after the spec's `getwxAppId` and `getOpenId`.
 */
import { z } from 'zod';
import { under, type Base } from './wire';
import type { UpstreamResult } from './result';

export const WxBase: Base = 'wx';

export const WxPath = {
  ...under('', 'getwxAppId getOpenId'),
  /** spec §7 "expo check with encoded expoId": `eId` the expo id as page URLs encode it (base64url) */
  ...under('', 'checkExpo'),
  /** spec §7 "getForm: define, eId, fId" (payload not shown; our reading): a custom registration label of a customer url */
  ...under('', 'getForm'),
};

/** A non-empty string (trimmed) or a number as text; anything else null. */
const idText = z.unknown().transform((v) =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : null,
);
/** A whole number given as a number or digits; anything else null. */
const digits = z.unknown().transform((v) => (v !== null && v !== undefined && /^\d+$/.test(String(v)) ? Number(v) : null));

/** getwxAppId's data: the app id, a bare string. */
export const WxAppId = idText;

/**
 * getOpenId's data: `code` (spec §4's login outcome), `openId`, `user`, `expo`, `wx`; not an
 * object reads as null (no login).
 */
export const WxLogin = z.unknown().transform((v) => {
  if (typeof v !== 'object' || v === null) return null;
  const d = v as Record<string, unknown>;
  return {
    code: digits.parse(d['code']),
    openId: idText.parse(d['openId']),
    user: idText.parse(d['user']),
    expo: digits.parse(d['expo']),
    wx: digits.parse(d['wx']),
  };
});

/**
 * The share card's signature (spec §4 "Type admin triggers a share-signature fetch", §7 `GET
 * /CustomerUserInfo/ajaxData`: url, userId → success, timestamp, nonceStr, signature), under
 * `{UPSTREAM_URL}/custom` like the spec writes it. The signature is the messaging app's JS-SDK
 * one: SHA-1 over `jsapi_ticket=…&noncestr=…&timestamp=…&url=…` (docs/upstream.md "Messaging
 * app"); the ticket stays with the organiser.
 */
export const SharePath = under('/CustomerUserInfo', 'ajaxData');

/** ajaxData's data: what `wx.config` needs besides the app id; anything else in it is dropped. */
export const ShareSignature = z.object({
  success: z.unknown().optional(),
  timestamp: z.union([z.number().int().nonnegative(), z.string().regex(/^\d{1,12}$/)]).transform((v) => String(v)),
  nonceStr: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  signature: z.string().regex(/^[0-9a-fA-F]{40}$/).transform((s) => s.toLowerCase()),
}).transform(({ timestamp, nonceStr, signature }) => ({ timestamp, nonceStr, signature }));
export type ShareSignature = z.output<typeof ShareSignature>;

/** checkExpo's data: the expo the encoded id names, `{ id }`; anything else reads as no expo. */
export const ExpoCheck = z.unknown().transform((v) => {
  if (typeof v !== 'object' || v === null) return null;
  return digits.parse((v as Record<string, unknown>)['id']);
});

/**
 * getForm's data (spec §7 "getForm: define, eId, fId"; spec §3 euDefine, the custom label; our
 * reading): `{ define, name }`, the label the organiser set up for that customer url and the
 * text to show for it. Anything else (no object, no non-empty `define`) reads as no label; a
 * missing `name` reads as the define itself.
 */
export const FormDefine = z.unknown().transform((v) => {
  if (typeof v !== 'object' || v === null) return null;
  const d = v as Record<string, unknown>;
  const define = idText.parse(d['define']);
  if (define === null) return null;
  return { define, name: idText.parse(d['name']) ?? define };
});
export type FormDefine = NonNullable<z.output<typeof FormDefine>>;

// The calls of this area as the client answers them: the one declaration the client implements and src/lib picks its ports from.
export interface ShareCalls {
  /** `GET /wx/getwxAppId`: the expo's app id, or null when it has none (a refusal, an HTTP error, an odd reply). */
  wxAppId(expoId: number): Promise<string | null>;
  /**
   * `GET /wx/checkExpo` (spec §7 "expo check with encoded expoId"): whether the organiser knows the
   * expo that `eId` (the page URL's encoding) names, and it is `expoId`. A refusal, an HTTP error or
   * an odd reply is false.
   */
  checkExpo(p: { expoId: number; eId: string }): Promise<boolean>;
  /**
   * `GET /wx/getForm` (spec §7 "getForm: define, eId, fId"; docs/upstream.md "Messaging app"):
   * the custom label `define` of customer url `fId`, `{ define, name }`, when the organiser set it
   * up for that url; null when it did not (any refusal, an HTTP error, an odd reply, another
   * label than the one asked). A network fault or a timeout is thrown like every call's.
   */
  getForm(p: { expoId: number; fId: number; define: string }): Promise<FormDefine | null>;
  /** `GET /CustomerUserInfo/ajaxData`: the JS-SDK signature of `url` (this site's page, without its hash). */
  ajaxData(p: { expoId: number; url: string; userId: string }): Promise<UpstreamResult<ShareSignature>>;
}
