/**
 * The messaging-app calls (docs/upstream.md "Messaging app"; spec §4, §7): the app id of an expo
 * and the silent login. Paths relative to `{UPSTREAM_URL}/wx`; the spec gives their parameters,
 * not their paths: these are our reading, named after the spec's `getwxAppId` and `getOpenId`.
 */
import { z } from 'zod';
import { under, type Base } from './wire';

export const WxBase: Base = 'wx';

export const WxPath = under('', 'getwxAppId getOpenId');

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
