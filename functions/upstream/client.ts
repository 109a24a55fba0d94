/**
 * The upstream client: the only code that speaks the organiser's legacy wire contract
 * (spec §7, made exact in docs/upstream.md). One typed method per call of docs/upstream.md's table.
 *
 * Wire rules it applies to every call: base `{baseUrl}/custom`, header `expoId: <decimal>`,
 * JSON bodies for POST and query strings for GET, AES-CBC encrypted params and data with the
 * expo's aesKey (fetched once per isolate and cached, aes-key-cache.ts), replies read through
 * contract schemas (src/lib/contract, where every call's signature is declared: `Upstream`).
 * Success and business refusals come back as values (src/lib/contract/result.ts);
 * transport faults are thrown as UpstreamError (errors.ts), and nothing else is ever thrown
 * for an odd reply.
 */
import { z } from 'zod';
import { encryptJson } from '../../src/lib/contract/aes';
import { emailSenderPath, smsPhone, smsSenderPath } from './senders';
import { fullPhone } from '../../src/lib/form/phone';
import { createCore, type UpstreamOptions } from './core';
import { seatCalls } from './calls/seats';
import { healthCalls } from './calls/health';
import { ticketCalls } from './calls/tickets';
import { siteCalls } from './calls/sites';
import { pagesCalls } from './calls/pages';
import { busCalls } from './calls/bus';
import { shareCalls } from './calls/share';
import { checkinCalls } from './calls/checkin';
import {
  Added,
  CardOcr,
  Code,
  Credential,
  ExistingRegistration,
  FormConfig,
  Path,
  Registration,
  SecondFormRef,
  SecondFormValues,
  isSuccessCode,
} from '../../src/lib/contract';
import type { Contact, Upstream, UpstreamResult } from '../../src/lib/contract';

export type { ConfigCache, UpstreamOptions } from './core';

/** The upstream's calls, one method each (docs/upstream.md "Calls"): declared once, in the contract. */
export type { Contact, Upstream } from '../../src/lib/contract';

/** A lookup's record list; entries that are not records are dropped rather than failing the page. */
const RegistrationList = z.array(z.unknown()).transform((items) =>
  items.flatMap((item) => {
    const r = Registration.safeParse(item);
    return r.success ? [r.data] : [];
  }),
);

/**
 * Creates an upstream client.
 * @example const up = createUpstream({ baseUrl: 'https://api.example.com', fetch, timeoutMs: 15000 });
 *          const r = await up.getCustomerId({ expoId: 1308, fId: 10542 });
 */
export function createUpstream(options: UpstreamOptions): Upstream {
  const core = createCore(options);
  const { call, read, readEncrypted, encryptParams, aesKeyOf, selectAESKey, plainCall, ok, refused } = core;

  /** The `phone` of captchaVerify: the e-mail, or the phone exactly as sent to the SMS call. */
  const verifyPhone = (c: Contact): string => (c.type === 'email' ? c.email : smsPhone(c.areaCode, c.national));

  return {
    ...seatCalls(core),
    ...healthCalls(core),
    ...ticketCalls(core),
    ...siteCalls(core),
    ...pagesCalls(core),
    ...busCalls(core),
    ...shareCalls(core),
    ...checkinCalls(core),
    selectAESKey,
    aesKey: aesKeyOf,

    getCustomerId(p) {
      const load = async (): Promise<UpstreamResult<FormConfig>> => {
        const { expoId, fId, ty } = p;
        const path = Path.getCustomerId;
        const aesKey = await aesKeyOf(expoId);
        const query: Record<string, string> = { fId: String(fId), eId: String(expoId) };
        if (ty !== undefined && ty !== '') query['ty'] = ty;
        const env = await call(path, expoId, { method: 'GET', query });
        if (!isSuccessCode(env.code)) return refused(env);
        return ok(env, await readEncrypted(path, expoId, aesKey, FormConfig, env.data));
      };
      return options.configCache ? options.configCache(p, load) : load();
    },

    sendSmsCode({ expoId, areaCode, national }) {
      return plainCall(smsSenderPath(areaCode, expoId), expoId, {
        method: 'POST',
        body: { smsPhone: smsPhone(areaCode, national), expoId },
      });
    },

    sendEmailCode({ expoId, email, lang }) {
      return plainCall(emailSenderPath(lang, expoId), expoId, { method: 'POST', body: { smsPhone: email, expoId } });
    },

    captchaVerify({ expoId, contact, captcha }) {
      return plainCall(Path.captchaVerify, expoId, {
        method: 'GET',
        query: { captcha, phone: verifyPhone(contact) },
      });
    },

    async queryRegistrations({ expoId, contact, captcha, urlsId, call: which }) {
      const path = which === 'queryHaiPhone' ? Path.queryHaiPhone : contact.type === 'phone' ? Path.queryUserExpoId : Path.queryEmailUserExpoId;
      const aesKey = await aesKeyOf(expoId);
      const encrypted = await encryptParams(
        {
          expoId: String(expoId),
          email: contact.type === 'email' ? contact.email : '',
          phone: contact.type === 'phone' ? fullPhone(contact.areaCode, contact.national) : '',
          captcha,
        },
        aesKey,
      );
      const query = urlsId === undefined ? encrypted : { ...encrypted, urlsId: String(urlsId) };
      const env = await call(path, expoId, { method: 'GET', query });
      if (env.code === Code.SECOND_FORM) {
        // 20003's data is in clear (docs/upstream.md).
        return {
          ok: false,
          kind: 'second-form',
          code: Code.SECOND_FORM,
          msg: env.msg,
          data: read(path, SecondFormRef, env.data),
        };
      }
      if (!isSuccessCode(env.code)) return refused(env);
      // No registrations may come as empty data rather than an encrypted empty list.
      if (env.data === null || env.data === undefined || env.data === '') return ok(env, []);
      return ok(env, await readEncrypted(path, expoId, aesKey, RegistrationList, env.data));
    },

    async queryFromUserExpoId({ expoId, userId, urlsId }) {
      const path = Path.queryFromUserExpoId;
      const env = await call(path, expoId, {
        method: 'GET',
        query: { userId: String(userId), urlsId: String(urlsId), expoId: String(expoId) },
      });
      return isSuccessCode(env.code) ? ok(env, read(path, SecondFormValues, env.data)) : refused(env);
    },

    async queryCustomerCode({ expoId, euCode }) {
      const path = Path.queryCustomerCode;
      const aesKey = await aesKeyOf(expoId);
      const query = await encryptParams({ expoId: String(expoId), euCode }, aesKey);
      const env = await call(path, expoId, { method: 'GET', query });
      if (!isSuccessCode(env.code)) return refused(env);
      return ok(env, await readEncrypted(path, expoId, aesKey, Credential, env.data));
    },

    async addUserInfo({ expoId, urlsId, values, call: which }) {
      const path = Path[which ?? 'addUserInfo'];
      const aesKey = await aesKeyOf(expoId);
      const data = await encryptJson(values, aesKey);
      const env = await call(path, expoId, { method: 'POST', body: { expoId, urlsId, data } });
      if (env.code === Code.ALREADY_REGISTERED) {
        return {
          ok: false,
          kind: 'already-registered',
          code: Code.ALREADY_REGISTERED,
          msg: env.msg,
          data: read(path, ExistingRegistration, env.data),
        };
      }
      return isSuccessCode(env.code) ? ok(env, read(path, Added, env.data)) : refused(env);
    },

    async addExhiUserInfor({ expoId, urlsId, values }) {
      const path = Path.addExhiUserInfor;
      const aesKey = await aesKeyOf(expoId);
      const data = await encryptJson(values, aesKey);
      const env = await call(path, expoId, { method: 'POST', body: { expoId, urlsId, data } });
      return isSuccessCode(env.code) ? ok(env, read(path, Added, env.data)) : refused(env);
    },

    async camera5({ expoId, image }) {
      const path = Path.camera5;
      const env = await call(path, expoId, { method: 'POST', body: { image, expoId } });
      return isSuccessCode(env.code) ? ok(env, read(path, CardOcr, env.data)) : refused(env);
    },
  };
}
