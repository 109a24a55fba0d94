/** `GET /sms/captchaVerify` (docs/upstream.md): 200 when the code is right, unexpired and not yet verified. */
import type { Context } from 'hono';
import { normalizeContact } from '../contact';
import { RefCode, ok, reply } from '../envelope';
import type { RefEnv } from '../expo';
import { CaptchaVerifyQuery, parseInput } from '../inputs';
import { checkCode } from '../verificationCode';

/** Checks a code for the contact it was sent to (the e-mail, or the phone as sent). */
export async function captchaVerify(c: Context<RefEnv>): Promise<Response> {
  const input = parseInput(CaptchaVerifyQuery, c.req.query());
  if (!input.ok) return reply(c, RefCode.BAD_INPUT, input.msg);
  const contact = normalizeContact(input.value.phone);
  if (contact === null)
    return reply(c, RefCode.BAD_INPUT, 'bad input: phone must be an e-mail address or a phone number');
  const check = await checkCode(c.env.DB, c.var.expo.id, contact, input.value.captcha, 'verify', Date.now());
  return check.ok ? ok(c, null) : reply(c, RefCode.CODE_REFUSED, check.msg);
}
