/**
 * The eight send-code calls (docs/upstream.md "Calls"): which contact each accepts and by which
 * channel it goes, as a table. All share one flow: validate, limit, deliver, store.
 */
import type { Context } from 'hono';
import { Path } from '../../../src/lib/contract';
import { CN_NATIONAL, normalizeEmail, normalizePhone } from '../contact';
import { deliver, deliveryMode } from '../delivery';
import { RefCode, ok, reply } from '../envelope';
import type { RefEnv } from '../expo';
import { SendCodeBody, parseInput, readJsonBody } from '../inputs';
import { logSend, sendLimits, sendRefusal } from '../sendLimit';
import { generateCode, storeCode } from '../verificationCode';

/** One send-code call: its channel, the contact it takes (normalised, or null), and what it expects. */
export interface SendCall {
  channel: 'sms' | 'email';
  /** the call's path, kept with the code in the outbox */
  path?: string;
  accept: (smsPhone: string) => string | null;
  expects: string;
}

/** A mainland number bare, or any full phone with its area code. */
const anyPhone = (s: string): string | null => (CN_NATIONAL.test(s) || s.startsWith('+') ? normalizePhone(s) : null);
const anyPhoneExpects = 'a mainland mobile number without +86, or a full phone with its area code';

const email: SendCall = { channel: 'email', accept: normalizeEmail, expects: 'an e-mail address' };

/** Send-code calls by path (docs/upstream.md: +86 bare national number, +886, every other area code, e-mail senders by language). */
export const SEND_CALLS: Readonly<Record<string, SendCall>> = {
  [Path.getCaptcha]: {
    channel: 'sms',
    accept: (s) => (CN_NATIONAL.test(s) ? normalizePhone(s) : null),
    expects: 'a mainland mobile number without +86 (11 digits, 1 then 2-9)',
  },
  [Path.getSmsGJTWCode]: {
    channel: 'sms',
    accept: (s) => (s.startsWith('+886') ? normalizePhone(s) : null),
    expects: 'a full phone starting with +886',
  },
  [Path.getSmsGJEnCode]: {
    channel: 'sms',
    // +86 numbers go bare to getCaptcha; every other area code comes here in full.
    accept: (s) => (s.startsWith('+') && !s.startsWith('+86') ? normalizePhone(s) : null),
    expects: 'a full phone with its area code, e.g. +66812345678 (+86 numbers use getCaptcha)',
  },
  [Path.getemailCode]: email,
  [Path.getemailCodeEn]: email,
  [Path.getemailCodeTw]: email,
  [Path.getemailCodeVietnam]: email,
  [Path.getemailCodeYN]: email,
  // spec §7 "Other senders … for special expos" (docs/upstream.md "Senders of special expos"):
  // the edge chooses them by expo; they take any phone as its area code's rule writes it.
  [Path.getemailCodeEn2]: email,
  [Path.getSmsCodeHaiSC]: { channel: 'sms', accept: anyPhone, expects: anyPhoneExpects },
  [Path.getSmsCodeHJC]: { channel: 'sms', accept: anyPhone, expects: anyPhoneExpects },
};

/** The handler of one send-code call. */
export function sendCode(call: SendCall) {
  return async function sendCodeHandler(c: Context<RefEnv>): Promise<Response> {
    const expo = c.var.expo;
    const input = parseInput(SendCodeBody, await readJsonBody(c.req.raw));
    if (!input.ok) return reply(c, RefCode.BAD_INPUT, input.msg);
    if (input.value.expoId !== undefined && input.value.expoId !== expo.id) {
      return reply(c, RefCode.BAD_INPUT, 'bad input: expoId in the body does not match the expoId header');
    }
    const contact = call.accept(input.value.smsPhone);
    if (contact === null) return reply(c, RefCode.BAD_INPUT, `bad input: smsPhone must be ${call.expects}`);

    if (deliveryMode(c.env) === 'none') return reply(c, RefCode.SEND_REFUSED, 'no delivery configured');
    const now = Date.now();
    const refusal = await sendRefusal(c.env.DB, expo.id, contact, now, sendLimits(c.env));
    if (refusal !== null) return reply(c, RefCode.SEND_REFUSED, refusal);

    const code = generateCode();
    const delivered = await deliver(c.env, { channel: call.channel, to: contact, code, expoId: expo.id, ...(call.path ? { sender: call.path } : {}) }, now);
    if (!delivered.ok) return reply(c, RefCode.SEND_REFUSED, delivered.reason);
    // Stored only once delivered: a failed delivery leaves the previous code valid.
    await storeCode(c.env.DB, expo.id, contact, code, now);
    await logSend(c.env.DB, contact, expo.id, now);
    return ok(c, null);
  };
}
