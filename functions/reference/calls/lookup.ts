/**
 * `GET /customFrom/queryUserExpoId` (phone) and `GET /customFrom/queryEmailUserExpoId`
 * (e-mail), docs/upstream.md: every value is an encrypted param; the code must be right for that
 * very contact (see verificationCode.ts for the design), or the fixed bypass of spec §2.2
 * where it is allowed. Answers the contact's records encrypted, or 20003 in clear when a
 * second form is still to complete.
 */
import type { Context } from 'hono';
import { encryptJson } from '../../../src/lib/contract/aes';
import type { AppEnv } from '../../env';
import { normalizeEmail, normalizePhone } from '../contact';
import { RefCode, ok, reply } from '../envelope';
import { parseExpoId, type RefEnv } from '../expo';
import { LookupQuery, decryptParam, parseInput } from '../inputs';
import { type ContactKind, findByContact, pendingSecondForm, toRecord } from '../registrations';
import { checkCode } from '../verificationCode';

/**
 * Where the fixed bypass code stands in for a sent code (spec §2.2: customer site 10542's
 * e-mail path of expo 1308). The lookup then carries `urlsId` (plain or encrypted).
 */
export const BYPASS_SITES: readonly { expoId: number; urlsId: number; kind: ContactKind }[] = [
  { expoId: 1308, urlsId: 10542, kind: 'email' },
];

/** Whether this lookup may use the bypass code: only when BYPASS_CODE is set and equal, and only for a listed site. */
export function bypassAllowed(
  env: Pick<AppEnv, 'BYPASS_CODE'>,
  expoId: number,
  kind: ContactKind,
  urlsId: number | null,
  captcha: string,
): boolean {
  const secret = env.BYPASS_CODE ?? '';
  if (secret === '' || captcha !== secret) return false;
  return BYPASS_SITES.some((s) => s.expoId === expoId && s.urlsId === urlsId && s.kind === kind);
}

const NORMALIZE: Record<ContactKind, (raw: string) => string | null> = { phone: normalizePhone, email: normalizeEmail };

/** The handler of one lookup. */
export function lookup(kind: ContactKind) {
  return async function lookupHandler(c: Context<RefEnv>): Promise<Response> {
    const expo = c.var.expo;
    const input = parseInput(LookupQuery, c.req.query());
    if (!input.ok) return reply(c, RefCode.BAD_INPUT, input.msg);
    const q = input.value;

    const expoIdText = await decryptParam(q.expoId, expo.aes_key);
    if (expoIdText === null)
      return reply(c, RefCode.BAD_INPUT, "bad input: expoId does not decrypt with this expo's key");
    if (parseExpoId(expoIdText) !== expo.id)
      return reply(c, RefCode.BAD_INPUT, 'bad input: expoId does not match the expoId header');

    const rawContact = q[kind] ?? '';
    if (rawContact === '') return reply(c, RefCode.BAD_INPUT, `bad input: ${kind} is required`);
    const contactText = await decryptParam(rawContact, expo.aes_key);
    const contact = contactText === null ? null : NORMALIZE[kind](contactText);
    if (contact === null)
      return reply(
        c,
        RefCode.BAD_INPUT,
        `bad input: ${kind} does not decrypt to ${kind === 'phone' ? 'a full phone' : 'an e-mail address'}`,
      );

    const captcha = await decryptParam(q.captcha, expo.aes_key);
    if (captcha === null || !/^\d{1,10}$/.test(captcha))
      return reply(c, RefCode.BAD_INPUT, 'bad input: captcha does not decrypt to digits');

    const urlsId = await readUrlsId(q.urlsId, expo.aes_key);
    const bypass = bypassAllowed(c.env, expo.id, kind, urlsId, captcha);
    if (!bypass) {
      const check = await checkCode(c.env.DB, expo.id, contact, captcha, 'lookup', Date.now());
      if (!check.ok) return reply(c, RefCode.CODE_REFUSED, check.msg);
    }

    // The bypass answers for its own site only: registrations made through that customer url
    //, never the contact's other registrations of the expo.
    const all = await findByContact(c.env.DB, expo.id, kind, contact);
    const rows = bypass ? all.filter((r) => r.urls_id === urlsId) : all;
    const second = await pendingSecondForm(
      c.env.DB,
      rows.map((r) => r.id),
    );
    if (second) return reply(c, RefCode.SECOND_FORM, 'this contact has a second form to complete', second);
    return ok(c, await encryptJson(rows.map(toRecord), expo.aes_key));
  };
}

/** The optional `urlsId`: a plain decimal, or an encrypted one; null when absent or unreadable. */
async function readUrlsId(raw: string | undefined, aesKey: string): Promise<number | null> {
  if (raw === undefined || raw === '') return null;
  const direct = parseExpoId(raw);
  if (direct !== null) return direct;
  const text = await decryptParam(raw, aesKey);
  return text === null ? null : parseExpoId(text);
}
