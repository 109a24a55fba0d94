/**
 * The reply envelope `{ code, msg, data }` of every call (docs/upstream.md "Wire rules") and the
 * reference upstream's own error codes. Replies always travel as HTTP 200, as the legacy API
 * does: the envelope code, not the HTTP status, says what happened (spec §8).
 */
import type { Context } from 'hono';
import { Code } from '../../src/lib/contract';

/** Reply codes the reference answers; the first four are the wire contract's own. */
export const RefCode = {
  OK: Code.OK,
  SEND_REFUSED: Code.SEND_REFUSED,
  ALREADY_REGISTERED: Code.ALREADY_REGISTERED,
  SECOND_FORM: Code.SECOND_FORM,
  /** input missing or malformed (zod or AES) */
  BAD_INPUT: 400,
  /** the code is not right, expired, used up or never sent */
  CODE_REFUSED: 401,
  /** the registration named or matched belongs to another contact (never changed, never described) */
  OTHER_CONTACT: 403,
  /** unknown call, expo, customer url, registration or second form */
  NOT_FOUND: 404,
  /** an unexpected failure inside the reference (never bad input) */
  INTERNAL: 500,
} as const;
export type RefCode = (typeof RefCode)[keyof typeof RefCode];

/** The reply body of every call. */
export interface EnvelopeBody {
  code: number;
  msg: string;
  data: unknown;
}

/** Answers an envelope as JSON with HTTP 200. */
export function reply(c: Context, code: number, msg: string, data: unknown = null): Response {
  const body: EnvelopeBody = { code, msg, data };
  return c.json(body, 200);
}

/** Answers success with `data`. */
export function ok(c: Context, data: unknown = null): Response {
  return reply(c, RefCode.OK, 'success', data);
}
