/**
 * The upstream client: the only code that speaks the organiser's legacy wire contract
 * (spec §7, made exact in UPSTREAM.md). One typed method per call of UPSTREAM.md's table.
 *
 * Wire rules it applies to every call: base `{baseUrl}/custom`, header `expoId: <decimal>`,
 * JSON bodies for POST and query strings for GET, AES-CBC encrypted params and data with the
 * expo's aesKey (fetched once per isolate and cached, aes-key-cache.ts), replies read through
 * contract.ts's schemas. Success and business refusals come back as values (result.ts);
 * transport faults are thrown as UpstreamError (errors.ts), and nothing else is ever thrown
 * for an odd reply.
 */
import { z } from 'zod';
import { AesError, decryptJson, encrypt, encryptJson } from './aes';
import type { Lang } from '../../src/lib/languages';
import { emailSenderPath, smsPhone, smsSenderPath } from './senders';
import { fullPhone } from '../../src/lib/phone';
import { sharedAesKeyCache, type AesKeyCache } from './aes-key-cache';
import {
  Added,
  AesKeyData,
  CardOcr,
  Code,
  Credential,
  Envelope,
  ExistingRegistration,
  FormConfig,
  Path,
  Registration,
  SecondFormRef,
  SecondFormValues,
  isSuccessCode,
} from './contract';
import { UpstreamError } from './errors';
import type { AlreadyRegistered, Ok, Refused, SecondForm, UpstreamResult } from './result';

/** Options of {@link createUpstream}. */
export interface UpstreamOptions {
  /** the organiser's API root, without `/custom` (e.g. `https://api.example.com`) */
  baseUrl: string;
  /** how requests leave: global fetch, or the reference upstream in-process */
  fetch: (req: Request) => Promise<Response>;
  /** per-call timeout in ms (env `UPSTREAM_TIMEOUT_MS`) */
  timeoutMs: number;
  /** aesKey cache; default the isolate's shared one */
  keyCache?: AesKeyCache;
  /** reads `getCustomerId` through a cache (config-cache.ts); default none */
  configCache?: ConfigCache | undefined;
}

/** A cache in front of `getCustomerId` (config-cache.ts `cachedConfig`). */
export type ConfigCache = (
  p: { expoId: number; fId: number; ty?: string | undefined },
  load: () => Promise<UpstreamResult<FormConfig>>,
) => Promise<UpstreamResult<FormConfig>>;

const OptionsSchema = z.object({
  baseUrl: z.string().url(),
  timeoutMs: z.number().int().positive(),
});

/** A verified or to-be-verified contact (spec §2.1: phone mode or e-mail mode). */
export type Contact =
  | { type: 'phone'; /** e.g. `+66`: the first word of the picked country entry */ areaCode: string; national: string }
  | { type: 'email'; email: string };

/** The upstream's calls, one method each (UPSTREAM.md "Calls"). */
export interface Upstream {
  /** `GET /CustomerUserInfo/selectAESKey`: the expo's key. Throws `no-key` when a success carries no usable key. */
  selectAESKey(expoId: number): Promise<UpstreamResult<AesKeyData>>;
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
  }): Promise<UpstreamResult<Added> | AlreadyRegistered>;
  /** `POST /CustomerUserInfo/camera5`: recognises a business card (`image`: base64 JPEG, no `data:` prefix). */
  camera5(p: { expoId: number; image: string }): Promise<UpstreamResult<CardOcr>>;
}

type Query = Readonly<Record<string, string>>;
type Send = { method: 'GET'; query: Query } | { method: 'POST'; body: unknown };

/** Data of send-code and verify calls is ignored: only code and msg matter (spec §4). */
const Ignored = z.unknown().transform(() => null);

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
  const { baseUrl, timeoutMs } = OptionsSchema.parse({ baseUrl: options.baseUrl, timeoutMs: options.timeoutMs });
  const root = `${baseUrl.replace(/\/+$/, '')}/custom`;
  const doFetch = options.fetch;
  const keyCache = options.keyCache ?? sharedAesKeyCache;

  /** Sends one request and reads the envelope; throws UpstreamError for every transport fault. */
  async function call(path: string, expoId: number, send: Send): Promise<Envelope> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new UpstreamError('timeout', `no reply within ${timeoutMs} ms`, { path }));
      }, timeoutMs);
    });
    const exchange = exchangeOnce(path, expoId, send, controller.signal);
    // The loser of the race must not surface as an unhandled rejection.
    exchange.catch(() => undefined);
    try {
      return await Promise.race([exchange, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function exchangeOnce(path: string, expoId: number, send: Send, signal: AbortSignal): Promise<Envelope> {
    const fault = (e: unknown, what: string): UpstreamError =>
      signal.aborted
        ? new UpstreamError('timeout', `no reply within ${timeoutMs} ms`, { path, cause: e })
        : new UpstreamError('network', `${what}: ${e instanceof Error ? e.message : String(e)}`, { path, cause: e });

    let response: Response;
    try {
      const url = new URL(root + path);
      const headers = new Headers({ expoId: String(expoId), accept: 'application/json' });
      let body: string | undefined;
      if (send.method === 'GET') {
        for (const [k, v] of Object.entries(send.query)) url.searchParams.set(k, v);
      } else {
        headers.set('content-type', 'application/json');
        body = JSON.stringify(send.body);
      }
      const request = new Request(url, {
        method: send.method,
        headers,
        signal,
        ...(body === undefined ? {} : { body }),
      });
      response = await doFetch(request);
    } catch (e) {
      throw fault(e, 'request failed');
    }

    if (!response.ok) {
      // spec §8 tells 404, 405, 500 and 403 apart; the body is not needed.
      response.body?.cancel().catch(() => undefined);
      throw new UpstreamError('http', `HTTP ${response.status}`, {
        path,
        status: response.status,
        statusText: response.statusText,
      });
    }

    let text: string;
    try {
      text = await response.text();
    } catch (e) {
      throw fault(e, 'reply body failed');
    }

    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new UpstreamError('not-json', 'reply is not JSON', { path, cause: e });
    }
    const envelope = Envelope.safeParse(json);
    if (!envelope.success) {
      throw new UpstreamError('bad-data', 'reply is not a {code, msg, data} envelope', { path, cause: envelope.error });
    }
    return envelope.data;
  }

  const scopeOf = (expoId: number): string => `${root}#${expoId}`;

  /** Reads `data` through a schema; a mismatch is `bad-data`. */
  function read<S extends z.ZodType>(path: string, schema: S, data: unknown): z.output<S> {
    const parsed = schema.safeParse(data);
    if (!parsed.success) throw new UpstreamError('bad-data', 'data has the wrong shape', { path, cause: parsed.error });
    return parsed.data;
  }

  /** Decrypts "encrypted data" and reads it through a schema; undecryptable or misshapen data is `bad-data`. */
  async function readEncrypted<S extends z.ZodType>(
    path: string,
    expoId: number,
    aesKey: string,
    schema: S,
    data: unknown,
  ): Promise<z.output<S>> {
    if (typeof data !== 'string') throw new UpstreamError('bad-data', 'encrypted data is not a string', { path });
    let plain: unknown;
    try {
      plain = await decryptJson(data, aesKey);
    } catch (e) {
      // The key may have rotated since it was cached: fetch it afresh next time.
      keyCache.invalidate(scopeOf(expoId));
      throw new UpstreamError('bad-data', e instanceof AesError ? e.message : 'data does not decrypt', {
        path,
        cause: e,
      });
    }
    return read(path, schema, plain);
  }

  /** Encrypts params with the expo's key; empty values stay empty (UPSTREAM.md: "each non-empty value"). */
  async function encryptParams(params: Query, aesKey: string): Promise<Query> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(params)) out[k] = v === '' ? '' : await encrypt(v, aesKey);
    return out;
  }

  const ok = <T>(env: Envelope, data: T): Ok<T> => ({ ok: true, code: env.code, msg: env.msg, data });
  const refused = (env: Envelope): Refused => ({ ok: false, kind: 'refused', code: env.code, msg: env.msg });

  async function selectAESKey(expoId: number): Promise<UpstreamResult<AesKeyData>> {
    const path = Path.selectAESKey;
    const env = await call(path, expoId, { method: 'GET', query: { expoId: String(expoId) } });
    if (!isSuccessCode(env.code)) return refused(env);
    const key = AesKeyData.safeParse(env.data);
    if (!key.success)
      throw new UpstreamError('no-key', 'the expo has no usable aesKey', { path, code: env.code, msg: env.msg });
    return ok(env, key.data);
  }

  /** The expo's aesKey, from the cache or fetched once; a refusal is `no-key`. */
  function aesKeyOf(expoId: number): Promise<string> {
    return keyCache.get(scopeOf(expoId), async () => {
      const r = await selectAESKey(expoId);
      if (!r.ok) {
        throw new UpstreamError('no-key', `selectAESKey refused (${r.code})`, {
          path: Path.selectAESKey,
          code: r.code,
          msg: r.msg,
        });
      }
      return r.data.aesKey;
    });
  }

  /** Send-code and verify calls: only code and msg matter. */
  async function plainCall(path: string, expoId: number, send: Send): Promise<UpstreamResult<null>> {
    const env = await call(path, expoId, send);
    return isSuccessCode(env.code) ? ok(env, read(path, Ignored, env.data)) : refused(env);
  }

  /** The `phone` of captchaVerify: the e-mail, or the phone exactly as sent to the SMS call. */
  const verifyPhone = (c: Contact): string => (c.type === 'email' ? c.email : smsPhone(c.areaCode, c.national));

  return {
    selectAESKey,

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
      return plainCall(smsSenderPath(areaCode), expoId, {
        method: 'POST',
        body: { smsPhone: smsPhone(areaCode, national), expoId },
      });
    },

    sendEmailCode({ expoId, email, lang }) {
      return plainCall(emailSenderPath(lang), expoId, { method: 'POST', body: { smsPhone: email, expoId } });
    },

    captchaVerify({ expoId, contact, captcha }) {
      return plainCall(Path.captchaVerify, expoId, {
        method: 'GET',
        query: { captcha, phone: verifyPhone(contact) },
      });
    },

    async queryRegistrations({ expoId, contact, captcha, urlsId }) {
      const path = contact.type === 'phone' ? Path.queryUserExpoId : Path.queryEmailUserExpoId;
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
        // 20003's data is in clear (UPSTREAM.md).
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

    async addUserInfo({ expoId, urlsId, values }) {
      const path = Path.addUserInfo;
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

    async camera5({ expoId, image }) {
      const path = Path.camera5;
      const env = await call(path, expoId, { method: 'POST', body: { image, expoId } });
      return isSuccessCode(env.code) ? ok(env, read(path, CardOcr, env.data)) : refused(env);
    },
  };
}
