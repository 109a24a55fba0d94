/** `GET /CustomerUserInfo/selectAESKey` (docs/upstream.md): the expo's key, in clear. */
import type { Context } from 'hono';
import { RefCode, ok, reply } from '../envelope';
import type { RefEnv } from '../expo';
import { AesKeyQuery, parseInput } from '../inputs';

/** Answers `{ aesKey }` for the header's expo. */
export function selectAesKey(c: Context<RefEnv>): Response {
  const input = parseInput(AesKeyQuery, c.req.query());
  if (!input.ok) return reply(c, RefCode.BAD_INPUT, input.msg);
  if (input.value.expoId !== undefined && input.value.expoId !== c.var.expo.id) {
    return reply(c, RefCode.BAD_INPUT, 'bad input: expoId does not match the expoId header');
  }
  return ok(c, { aesKey: c.var.expo.aes_key });
}
