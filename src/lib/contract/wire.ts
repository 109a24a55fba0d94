/**
 * The wire rules every call shares (docs/upstream.md "Wire rules"): the roots a call goes to,
 * the `{ code, msg, data }` envelope and the reply codes that mean the same in every area.
 */
import { z } from 'zod';
import { looseInt, looseString, opt, type Words } from './loose';

/**
 * Which root a path is relative to: `{UPSTREAM_URL}/custom` (almost every call), the auth host's
 * `{UPSTREAM_AUTH_URL}/auth` (the seat lookup) or `{UPSTREAM_URL}/wx` (the messaging app).
 */
export type Base = 'custom' | 'auth' | 'wx';

/**
 * The paths of calls named by their last segment, under one prefix: every area's table is built
 * this way, so a path is always `{prefix}/{call name}`.
 * @example under('/sms', 'getCaptcha captchaVerify') // { getCaptcha: '/sms/getCaptcha', captchaVerify: '/sms/captchaVerify' }
 */
export function under<const P extends string, const N extends string>(prefix: P, names: N): { readonly [K in Words<N>]: `${P}/${K}` } {
  return Object.fromEntries(names.split(' ').map((n) => [n, `${prefix}/${n}`])) as { readonly [K in Words<N>]: `${P}/${K}` };
}

/** The reply envelope of every call: `{ code, msg, data }`. */
export const Envelope = z.object({
  code: looseInt.pipe(z.number().int()),
  msg: opt(looseString),
  data: z.unknown().optional(),
});
export type Envelope = z.infer<typeof Envelope>;

/** Reply codes every area shares (docs/upstream.md "Wire rules", "Codes"). */
export const WireCode = {
  OK: 200,
  OK_WITH_MESSAGE: 201,
  OK_WITH_MESSAGE_2: 202,
  /** a send refused (too frequent, blocked): `msg` says why */
  SEND_REFUSED: 600,
} as const;

/** Whether a reply code is a success: 200, 201 and 202 (201 and 202 carry a message). */
export function isSuccessCode(code: number): boolean {
  return code === WireCode.OK || code === WireCode.OK_WITH_MESSAGE || code === WireCode.OK_WITH_MESSAGE_2;
}

/** A success whose data does not matter (sends, verifications, deletions): only code and msg. */
export const Ignored = z.unknown().transform(() => null);
