/**
 * The upstream client: the only code that speaks the organiser's legacy wire contract
 * (spec §7, made exact in docs/upstream.md). One typed method per call of docs/upstream.md's table.
 *
 * Wire rules it applies to every call: base `{baseUrl}/custom`, header `expoId: <decimal>`,
 * JSON bodies for POST and query strings for GET, AES-CBC encrypted params and data with the
 * expo's aesKey (fetched once per isolate and cached, aes-key-cache.ts), replies read through
 * contract/ schemas. Success and business refusals come back as values (result.ts);
 * transport faults are thrown as UpstreamError (errors.ts), and nothing else is ever thrown
 * for an odd reply.
 */
import { z } from 'zod';
import { encryptJson } from './contract/aes';
import type { Lang } from '../../src/lib/core/languages';
import type { LookupCallName, RegisterCallName } from '../../src/lib/expo/haisi';
import { emailSenderPath, smsPhone, smsSenderPath } from './senders';
import { fullPhone } from '../../src/lib/form/phone';
import { createCore, type UpstreamOptions } from './core';
import { seatCalls, type SeatCalls } from './calls/seats';
import { healthCalls, type HealthCalls } from './calls/health';
import { ticketCalls, type TicketCalls } from './calls/tickets';
import { siteCalls, type SiteCalls } from './calls/sites';
import { pagesCalls, type PagesCalls } from './calls/pages';
import { busCalls, type BusCalls } from './calls/bus';
import { shareCalls, type ShareCalls } from './calls/share';
import { checkinCalls, type CheckinCalls } from './calls/checkin';
import {
  Added,
  AesKeyData,
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
} from './contract';
import type { AlreadyRegistered, SecondForm, UpstreamResult } from './result';

export type { ConfigCache, UpstreamOptions } from './core';

/** A verified or to-be-verified contact (spec §2.1: phone mode or e-mail mode). */
export type Contact =
  | { type: 'phone'; /** e.g. `+66`: the first word of the picked country entry */ areaCode: string; national: string }
  | { type: 'email'; email: string };

/** The upstream's calls, one method each (docs/upstream.md "Calls"). */
export type Upstream = LookupCalls & SeatCalls & HealthCalls & TicketCalls & SiteCalls & PagesCalls & BusCalls & ShareCalls & CheckinCalls;

/** The lookup's calls (docs/upstream.md "Calls"). */
export interface LookupCalls {
  /** `GET /CustomerUserInfo/selectAESKey`: the expo's key. Throws `no-key` when a success carries no usable key. */
  selectAESKey(expoId: number): Promise<UpstreamResult<AesKeyData>>;
  /** The expo's aesKey from the isolate's key cache, fetched once (spec §4: navigation fetches it); throws `no-key`. */
  aesKey(expoId: number): Promise<string>;
  /** `GET /customFrom/getCustomerId`: the decrypted form config of a customer url (spec §3). */
  getCustomerId(p: { expoId: number; fId: number; ty?: string | undefined }): Promise<UpstreamResult<FormConfig>>;
  /** Sends an SMS code through the sender of the area code (`+86`, `+886`, others). Code 600 is a refusal. */
  sendSmsCode(p: { expoId: number; areaCode: string; national: string }): Promise<UpstreamResult<null>>;
  /** Sends an e-mail code through the sender of the page language. Code 600 is a refusal. */
  sendEmailCode(p: { expoId: number; email: string; lang: Lang }): Promise<UpstreamResult<null>>;
  /** `GET /sms/captchaVerify`: ok when the code is right and unexpired. */
  captchaVerify(p: { expoId: number; contact: Contact; captcha: string }): Promise<UpstreamResult<null>>;
  /** `GET /customFrom/queryUserExpoId` (phone) or `queryEmailUserExpoId` (e-mail): the contact's registrations, or 20003. */
  queryRegistrations(p: {
    expoId: number;
    contact: Contact;
    captcha: string;
    /**
     * The customer url id, sent (in clear) only with the bypass code of spec §2.2 so the
     * upstream can tell which site's bypass it is; other upstreams ignore the extra param.
     */
    urlsId?: number | undefined;
    /** `queryHaiPhone`: the haisi family's lookup, the same request for both contact kinds (docs/upstream.md "Haisi") */
    call?: LookupCallName | undefined;
  }): Promise<UpstreamResult<Registration[]> | SecondForm>;
  /** `GET /customFrom/queryFromUserExpoId`: the second form's saved values by field key. */
  queryFromUserExpoId(p: { expoId: number; userId: number; urlsId: number }): Promise<UpstreamResult<SecondFormValues>>;
  /** `GET /customFrom/queryCustomerCode`: one credential with its usage. */
  queryCustomerCode(p: { expoId: number; euCode: string }): Promise<UpstreamResult<Credential>>;
  /** `POST /CustomerUserInfo/addUserInfo`: registers the form values, or 20001 when already registered. */
  addUserInfo(p: {
    expoId: number;
    urlsId: number;
    values: Readonly<Record<string, unknown>>;
    /** the haisi family's registrations post to their own path, same request and reply (docs/upstream.md "Haisi") */
    call?: RegisterCallName | undefined;
  }): Promise<UpstreamResult<Added> | AlreadyRegistered>;
  /** `POST /exhiCustomerUser/addExhiUserInfor`: an exhibitor's registration (class 2), owned by the proven contact. */
  addExhiUserInfor(p: { expoId: number; urlsId: number; values: Readonly<Record<string, unknown>> }): Promise<UpstreamResult<Added>>;
  /** `POST /CustomerUserInfo/camera5`: recognises a business card (`image`: base64 JPEG, no `data:` prefix). */
  camera5(p: { expoId: number; image: string }): Promise<UpstreamResult<CardOcr>>;
}

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
