/** `GET /customFrom/queryCustomerCode` (docs/upstream.md): one registration plus usage and its latest admission (`lastEntry`), by euCode. */
import type { Context } from 'hono';
import { encryptJson } from '../../../src/lib/contract/aes';
import { RefCode, ok, reply } from '../envelope';
import { parseExpoId, type RefEnv } from '../expo';
import { CredentialQuery, decryptParam, parseInput } from '../inputs';
import { type RegistrationRow, toCredential } from '../registrations';
import { latestAdmission } from './checkin';

/** Answers the credential of `euCode` in the header's expo, encrypted. */
export async function queryCustomerCode(c: Context<RefEnv>): Promise<Response> {
  const expo = c.var.expo;
  const input = parseInput(CredentialQuery, c.req.query());
  if (!input.ok) return reply(c, RefCode.BAD_INPUT, input.msg);
  const expoIdText = await decryptParam(input.value.expoId, expo.aes_key);
  if (expoIdText === null || parseExpoId(expoIdText) !== expo.id) {
    return reply(c, RefCode.BAD_INPUT, 'bad input: expoId does not decrypt to the expoId header');
  }
  const euCode = await decryptParam(input.value.euCode, expo.aes_key);
  if (euCode === null || euCode.trim() === '' || euCode.length > 64)
    return reply(c, RefCode.BAD_INPUT, "bad input: euCode does not decrypt with this expo's key");
  const row = await c.env.DB.prepare('SELECT * FROM registrations WHERE expo_id = ? AND eu_code = ?')
    .bind(expo.id, euCode.trim())
    .first<RegistrationRow>();
  if (!row) return reply(c, RefCode.NOT_FOUND, 'no registration with this code in this expo');
  return ok(c, await encryptJson(toCredential(row, await latestAdmission(c.env.DB, expo.id, row.eu_code)), expo.aes_key));
}
