/**
 * The upstream client against a fake upstream that implements docs/upstream.md's wire contract in a
 * `fetch` function. The fake decrypts and encrypts with crypto-js (the legacy clients' library),
 * so the client's Web Crypto output is checked against an independent implementation.
 */
import CryptoJS from 'crypto-js';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAesKeyCache, type AesKeyCache } from '../../functions/upstream/aes-key-cache';
import { UNKNOWN_EXPO_TTL_S } from '../../functions/upstream/errors';
import { createUpstream, type Upstream } from '../../functions/upstream/client';
import { Path } from '../../src/lib/contract';
import { UpstreamError } from '../../functions/upstream/errors';

const BASE = 'https://organiser.example/api';
const KEYS: Record<number, string> = { 1308: 'abcdefgh12345678', 1178: 'K3y-for-Jakarta!' };

function cjsOptions(key: string) {
  const k = CryptoJS.enc.Utf8.parse(key);
  return { key: k, opts: { iv: k, mode: CryptoJS.mode.CBC, padding: CryptoJS.pad.Pkcs7 } };
}
function oracleEncrypt(plain: string, key: string): string {
  const { key: k, opts } = cjsOptions(key);
  return CryptoJS.AES.encrypt(plain, k, opts).toString();
}
function oracleDecrypt(cipher: string, key: string): string {
  const { key: k, opts } = cjsOptions(key);
  const text = CryptoJS.AES.decrypt(cipher, k, opts).toString(CryptoJS.enc.Utf8);
  if (text === '') throw new Error(`param does not decrypt: ${cipher}`);
  return text;
}

interface Seen {
  method: string;
  path: string;
  expoIdHeader: string | null;
  query: Record<string, string>;
  body: unknown;
}

const REG_A = {
  id: 11,
  euCode: 'EU-A',
  uname: 'Ann',
  euClass: 0,
  euDefine: null,
  ticketName: null,
  activityId: 7,
  createtime: '2026-01-02 10:00:00',
  ucompany: 'Acme',
  ucardid: null,
  ucompanyTitle: null,
};
const REG_B = { id: '12', euCode: 'EU-B', uname: 'Bob', euClass: '3' };

/** A fake organiser API: the contract of docs/upstream.md, with knobs the tests turn. */
class FakeUpstream {
  seen: Seen[] = [];
  /** selectAESKey replies to fail before succeeding */
  keyFailures = 0;
  /** replaces a path's reply */
  override = new Map<string, (q: Record<string, string>, body: unknown) => unknown>();
  keys: Record<number, string> = { ...KEYS };

  readonly fetch = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    expect(url.origin + url.pathname.slice(0, '/api/custom'.length)).toBe(`${BASE}/custom`);
    const path = url.pathname.slice('/api/custom'.length);
    const body = req.method === 'POST' ? ((await req.json()) as unknown) : undefined;
    if (req.method === 'POST') expect(req.headers.get('content-type')).toBe('application/json');
    const query = Object.fromEntries(url.searchParams);
    const expoIdHeader = req.headers.get('expoId');
    this.seen.push({ method: req.method, path, expoIdHeader, query, body });
    const reply = this.override.get(path)?.(query, body) ?? this.route(path, Number(expoIdHeader), query, body);
    return Response.json(reply);
  };

  calls(path: string): Seen[] {
    return this.seen.filter((s) => s.path === path);
  }

  private route(path: string, expoId: number, q: Record<string, string>, body: unknown): unknown {
    const key = this.keys[expoId];
    switch (path) {
      case Path.selectAESKey:
        if (this.keyFailures > 0) {
          this.keyFailures--;
          return { code: 500, msg: 'busy', data: null };
        }
        return key ? { code: 200, msg: 'ok', data: { aesKey: key } } : { code: 404, msg: 'no such expo', data: null };
      case Path.getCustomerId:
        return {
          code: 200,
          msg: 'ok',
          data: oracleEncrypt(
            JSON.stringify({
              customerForm: [{ key: 'uname' }],
              customerUrls: { id: Number(q['fId']), longUrl: 'https://x' },
              customerWx: { id: 5959, signType: '2' },
              expoInfo: { id: Number(q['eId']), exhiName: '展会', endTime: '2027-01-01 18:00:00' },
              activity: null,
            }),
            key!,
          ),
        };
      case Path.queryEmailUserExpoId:
      case Path.queryUserExpoId:
        return { code: 200, msg: 'ok', data: oracleEncrypt(JSON.stringify([REG_A, REG_B]), key!) };
      case Path.queryCustomerCode: {
        const euCode = oracleDecrypt(q['euCode']!, key!);
        if (euCode !== 'EU-A') return { code: 500, msg: 'not found', data: null };
        return {
          code: 200,
          msg: 'ok',
          data: oracleEncrypt(
            JSON.stringify({ ...REG_A, useStatus: 1, usedCount: 2, maxCount: 0, auditStatus: 0 }),
            key!,
          ),
        };
      }
      case Path.queryFromUserExpoId:
        return { code: 200, msg: 'ok', data: { company: 'Acme', userId: Number(q['userId']) } };
      case Path.addUserInfo:
        return { code: 200, msg: 'ok', data: { euCode: 'EU-NEW', id: 99 } };
      case Path.captchaVerify:
        return q['captcha'] === '123456' ? { code: 200, msg: 'ok', data: null } : { code: 500, msg: 'wrong code' };
      default:
        if (path.startsWith('/sms/')) return { code: 200, msg: 'sent', data: null, body };
        return { code: 404, msg: `no route ${path}` };
    }
  }
}

let fake: FakeUpstream;
let clock: number;
let cache: AesKeyCache;
let up: Upstream;

beforeEach(() => {
  fake = new FakeUpstream();
  clock = 1_000_000;
  cache = createAesKeyCache({ ttlMs: 60_000, now: () => clock });
  up = createUpstream({ baseUrl: `${BASE}/`, fetch: fake.fetch, timeoutMs: 2000, keyCache: cache });
});

describe('every request', () => {
  it('carries the expoId header and goes under /custom', async () => {
    await up.getCustomerId({ expoId: 1308, fId: 10542 });
    expect(fake.seen.length).toBe(2);
    for (const s of fake.seen) expect(s.expoIdHeader).toBe('1308');
  });
});

describe('selectAESKey', () => {
  it('returns the key', async () => {
    const r = await up.selectAESKey(1308);
    expect(r).toEqual({ ok: true, code: 200, msg: 'ok', data: { aesKey: KEYS[1308] } });
    expect(fake.seen[0]).toMatchObject({ method: 'GET', path: Path.selectAESKey, query: { expoId: '1308' } });
  });

  it('a refusal is a value', async () => {
    const r = await up.selectAESKey(4242);
    expect(r).toEqual({ ok: false, kind: 'refused', code: 404, msg: 'no such expo' });
  });

  it('a success without a usable key throws no-key', async () => {
    fake.override.set(Path.selectAESKey, () => ({ code: 200, msg: 'ok', data: { aesKey: '' } }));
    await expect(up.selectAESKey(1308)).rejects.toMatchObject({ name: 'UpstreamError', kind: 'no-key' });
  });
});

describe('getCustomerId', () => {
  it('sends fId, eId, ty and decrypts the form config', async () => {
    const r = await up.getCustomerId({ expoId: 1308, fId: 10542, ty: 'exhibitor' });
    const call = fake.calls(Path.getCustomerId)[0]!;
    expect(call.query).toEqual({ fId: '10542', eId: '1308', ty: 'exhibitor' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.data.customerWx?.signType).toBe(2);
    expect(r.data.customerUrls?.id).toBe(10542);
    expect(r.data.expoInfo?.exhiName).toBe('展会');
    expect(r.data.activity).toBeNull();
    expect(r.data.customerForm).toEqual([{ key: 'uname' }]);
  });

  it('omits an empty ty', async () => {
    await up.getCustomerId({ expoId: 1308, fId: 10542, ty: '' });
    expect(fake.calls(Path.getCustomerId)[0]!.query).toEqual({ fId: '10542', eId: '1308' });
  });

  it('an expo without a key throws no-key, with the refusal attached', async () => {
    const err = await up.getCustomerId({ expoId: 4242, fId: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err).toMatchObject({ kind: 'no-key', code: 404, msg: 'no such expo' });
    expect(fake.calls(Path.getCustomerId)).toHaveLength(0);
  });

  it('data encrypted with another key is bad-data, and the key is fetched afresh next time', async () => {
    fake.override.set(Path.getCustomerId, () => ({
      code: 200,
      msg: 'ok',
      data: oracleEncrypt('{}', 'another-key-0000'),
    }));
    await expect(up.getCustomerId({ expoId: 1308, fId: 1 })).rejects.toMatchObject({ kind: 'bad-data' });
    fake.override.clear();
    await up.getCustomerId({ expoId: 1308, fId: 1 });
    expect(fake.calls(Path.selectAESKey)).toHaveLength(2);
  });

  it('a refusal is a value and nothing is decrypted', async () => {
    fake.override.set(Path.getCustomerId, () => ({ code: 500, msg: 'url not configured', data: 'garbage' }));
    expect(await up.getCustomerId({ expoId: 1308, fId: 1 })).toEqual({
      ok: false,
      kind: 'refused',
      code: 500,
      msg: 'url not configured',
    });
  });
});

describe('sendSmsCode', () => {
  it.each([
    ['+86', '13812345678', Path.getCaptcha, '13812345678'],
    ['+886', '912345678', Path.getSmsGJTWCode, '+886912345678'],
    ['+66', '812345678', Path.getSmsGJEnCode, '+66812345678'],
  ])('%s goes to its sender with the right smsPhone', async (areaCode, national, path, smsPhone) => {
    const r = await up.sendSmsCode({ expoId: 1261, areaCode, national });
    expect(r).toEqual({ ok: true, code: 200, msg: 'sent', data: null });
    expect(fake.seen).toEqual([
      { method: 'POST', path, expoIdHeader: '1261', query: {}, body: { smsPhone, expoId: 1261 } },
    ]);
  });

  it('code 600 is a refusal with the server msg', async () => {
    fake.override.set(Path.getCaptcha, () => ({ code: 600, msg: 'too frequent', data: null }));
    expect(await up.sendSmsCode({ expoId: 1261, areaCode: '+86', national: '13812345678' })).toEqual({
      ok: false,
      kind: 'refused',
      code: 600,
      msg: 'too frequent',
    });
  });
});

describe('sendEmailCode', () => {
  it.each([
    ['zh', Path.getemailCode],
    ['thai', Path.getemailCodeEn],
    ['vn', Path.getemailCodeVietnam],
    ['id', Path.getemailCodeYN],
    ['tw', Path.getemailCodeTw],
  ] as const)('%s goes to %s with the e-mail as smsPhone', async (lang, path) => {
    const r = await up.sendEmailCode({ expoId: 1108, email: 'a@b.co', lang });
    expect(r.ok).toBe(true);
    expect(fake.seen).toEqual([
      { method: 'POST', path, expoIdHeader: '1108', query: {}, body: { smsPhone: 'a@b.co', expoId: 1108 } },
    ]);
  });
});

describe('captchaVerify', () => {
  it('phone is exactly as sent to the SMS call (+86: national)', async () => {
    const r = await up.captchaVerify({
      expoId: 1308,
      captcha: '123456',
      contact: { type: 'phone', areaCode: '+86', national: '13812345678' },
    });
    expect(r.ok).toBe(true);
    expect(fake.seen[0]).toMatchObject({
      method: 'GET',
      path: Path.captchaVerify,
      query: { captcha: '123456', phone: '13812345678' },
    });
  });

  it('other area codes send the full phone; e-mail sends the e-mail', async () => {
    await up.captchaVerify({
      expoId: 1308,
      captcha: '1',
      contact: { type: 'phone', areaCode: '+66', national: '812345678' },
    });
    await up.captchaVerify({ expoId: 1308, captcha: '1', contact: { type: 'email', email: 'a@b.co' } });
    expect(fake.seen.map((s) => s.query['phone'])).toEqual(['+66812345678', 'a@b.co']);
  });

  it('a wrong code is a refusal', async () => {
    const r = await up.captchaVerify({ expoId: 1308, captcha: '000000', contact: { type: 'email', email: 'a@b.co' } });
    expect(r).toEqual({ ok: false, kind: 'refused', code: 500, msg: 'wrong code' });
  });
});

describe('queryRegistrations', () => {
  it('e-mail: every non-empty param encrypted with the expo key; records decrypted and read', async () => {
    const r = await up.queryRegistrations({
      expoId: 1308,
      captcha: '123456',
      contact: { type: 'email', email: 'a@b.co' },
    });
    const call = fake.calls(Path.queryEmailUserExpoId)[0]!;
    expect(call.query['phone']).toBe('');
    expect(call.query['expoId']).not.toBe('1308');
    expect(oracleDecrypt(call.query['expoId']!, KEYS[1308]!)).toBe('1308');
    expect(oracleDecrypt(call.query['email']!, KEYS[1308]!)).toBe('a@b.co');
    expect(oracleDecrypt(call.query['captcha']!, KEYS[1308]!)).toBe('123456');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.data).toHaveLength(2);
    expect(r.data[0]).toEqual(REG_A);
    expect(r.data[1]).toMatchObject({ id: 12, euCode: 'EU-B', euClass: 3, activityId: null });
  });

  it('phone: the phone lookup with the full phone', async () => {
    await up.queryRegistrations({
      expoId: 1178,
      captcha: '123456',
      contact: { type: 'phone', areaCode: '+86', national: '13812345678' },
    });
    const call = fake.calls(Path.queryUserExpoId)[0]!;
    expect(call.query['email']).toBe('');
    expect(oracleDecrypt(call.query['phone']!, KEYS[1178]!)).toBe('+8613812345678');
  });

  it('20003 gives the second form reference in clear', async () => {
    fake.override.set(Path.queryUserExpoId, () => ({
      code: 20003,
      msg: 'second form',
      data: { userId: '501', urlsId: 9001 },
    }));
    const r = await up.queryRegistrations({
      expoId: 1178,
      captcha: '1',
      contact: { type: 'phone', areaCode: '+62', national: '81234567' },
    });
    expect(r).toEqual({
      ok: false,
      kind: 'second-form',
      code: 20003,
      msg: 'second form',
      data: { userId: 501, urlsId: 9001 },
    });
  });

  it('a 20003 without ids is bad-data', async () => {
    fake.override.set(Path.queryUserExpoId, () => ({ code: 20003, msg: 'second form', data: null }));
    await expect(
      up.queryRegistrations({
        expoId: 1178,
        captcha: '1',
        contact: { type: 'phone', areaCode: '+62', national: '81234567' },
      }),
    ).rejects.toMatchObject({ kind: 'bad-data' });
  });

  it('empty data is no registrations; non-record entries are dropped', async () => {
    fake.override.set(Path.queryEmailUserExpoId, () => ({ code: 200, msg: 'ok', data: null }));
    const empty = await up.queryRegistrations({
      expoId: 1308,
      captcha: '1',
      contact: { type: 'email', email: 'a@b.co' },
    });
    expect(empty).toMatchObject({ ok: true, data: [] });
    fake.override.set(Path.queryEmailUserExpoId, () => ({
      code: 200,
      msg: 'ok',
      data: oracleEncrypt(JSON.stringify([null, 5, REG_A]), KEYS[1308]!),
    }));
    const some = await up.queryRegistrations({
      expoId: 1308,
      captcha: '1',
      contact: { type: 'email', email: 'a@b.co' },
    });
    expect(some).toMatchObject({ ok: true, data: [REG_A] });
  });

  it('data that decrypts to something other than a list is bad-data', async () => {
    fake.override.set(Path.queryEmailUserExpoId, () => ({
      code: 200,
      msg: 'ok',
      data: oracleEncrypt('{"a":1}', KEYS[1308]!),
    }));
    await expect(
      up.queryRegistrations({ expoId: 1308, captcha: '1', contact: { type: 'email', email: 'a@b.co' } }),
    ).rejects.toMatchObject({
      kind: 'bad-data',
    });
  });
});

describe('queryFromUserExpoId', () => {
  it('sends ids in clear and returns the saved values', async () => {
    const r = await up.queryFromUserExpoId({ expoId: 1178, userId: 501, urlsId: 9001 });
    expect(fake.seen).toHaveLength(1);
    expect(fake.seen[0]).toMatchObject({
      method: 'GET',
      path: Path.queryFromUserExpoId,
      query: { userId: '501', urlsId: '9001', expoId: '1178' },
    });
    expect(r).toEqual({ ok: true, code: 200, msg: 'ok', data: { company: 'Acme', userId: 501 } });
  });
});

describe('queryCustomerCode', () => {
  it('encrypted params; decrypted credential with usage', async () => {
    const r = await up.queryCustomerCode({ expoId: 1308, euCode: 'EU-A' });
    const call = fake.calls(Path.queryCustomerCode)[0]!;
    expect(oracleDecrypt(call.query['expoId']!, KEYS[1308]!)).toBe('1308');
    expect(oracleDecrypt(call.query['euCode']!, KEYS[1308]!)).toBe('EU-A');
    expect(r).toMatchObject({
      ok: true,
      data: { euCode: 'EU-A', uname: 'Ann', useStatus: 1, usedCount: 2, maxCount: 0, auditStatus: 0 },
    });
  });

  it('an unknown code is a refusal', async () => {
    expect(await up.queryCustomerCode({ expoId: 1308, euCode: 'nope' })).toEqual({
      ok: false,
      kind: 'refused',
      code: 500,
      msg: 'not found',
    });
  });
});

describe('addUserInfo', () => {
  const values = { uname: '张三', email: 'z@s.cn', areaCode: '+86', extra: ['a', 'b'] };

  it('posts {expoId, urlsId, data} with data the encrypted JSON of the values', async () => {
    const r = await up.addUserInfo({ expoId: 1308, urlsId: 10542, values });
    const call = fake.calls(Path.addUserInfo)[0]!;
    expect(call.method).toBe('POST');
    const body = call.body as { expoId: number; urlsId: number; data: string };
    expect(body.expoId).toBe(1308);
    expect(body.urlsId).toBe(10542);
    expect(JSON.parse(oracleDecrypt(body.data, KEYS[1308]!))).toEqual(values);
    expect(r).toEqual({ ok: true, code: 200, msg: 'ok', data: { euCode: 'EU-NEW', id: 99 } });
  });

  it('20001 is already-registered with the existing id', async () => {
    fake.override.set(Path.addUserInfo, () => ({ code: 20001, msg: 'exists', data: { id: '77' } }));
    expect(await up.addUserInfo({ expoId: 1308, urlsId: 10542, values })).toEqual({
      ok: false,
      kind: 'already-registered',
      code: 20001,
      msg: 'exists',
      data: { id: 77 },
    });
  });

  it('a success without euCode is bad-data', async () => {
    fake.override.set(Path.addUserInfo, () => ({ code: 200, msg: 'ok', data: { id: 1 } }));
    await expect(up.addUserInfo({ expoId: 1308, urlsId: 10542, values })).rejects.toMatchObject({ kind: 'bad-data' });
  });
});

describe('the aesKey cache', () => {
  it('fetches the key once for many calls in a row', async () => {
    await up.queryCustomerCode({ expoId: 1308, euCode: 'EU-A' });
    await up.getCustomerId({ expoId: 1308, fId: 1 });
    await up.addUserInfo({ expoId: 1308, urlsId: 1, values: { uname: 'x' } });
    await up.queryRegistrations({ expoId: 1308, captcha: '1', contact: { type: 'email', email: 'a@b.co' } });
    expect(fake.calls(Path.selectAESKey)).toHaveLength(1);
  });

  it('never hands one caller the in-flight fetch of another (issue 9 hole 2: a request that ended early)', async () => {
    // A HEAD request answered before its key fetch settled: on workerd that fetch never
    // settles for anyone else. The next caller must fetch for itself, not wait on it.
    const own = createAesKeyCache();
    void own.get('scope', () => new Promise<string>(() => undefined));
    await expect(own.get('scope', () => Promise.resolve('k'.repeat(16)))).resolves.toBe('k'.repeat(16));
    // …and a fetch that failed is not kept either.
    await expect(own.get('other', () => Promise.reject(new Error('ended')))).rejects.toThrow('ended');
    await expect(own.get('other', () => Promise.resolve('second-key-16chr'))).resolves.toBe('second-key-16chr');
  });

  it('keeps one key per expo', async () => {
    await up.queryCustomerCode({ expoId: 1308, euCode: 'EU-A' });
    await up.queryRegistrations({ expoId: 1178, captcha: '1', contact: { type: 'email', email: 'a@b.co' } });
    await up.queryCustomerCode({ expoId: 1308, euCode: 'EU-A' });
    expect(fake.calls(Path.selectAESKey).map((s) => s.query['expoId'])).toEqual(['1308', '1178']);
  });

  it('refetches after the TTL', async () => {
    await up.getCustomerId({ expoId: 1308, fId: 1 });
    clock += 59_999;
    await up.getCustomerId({ expoId: 1308, fId: 1 });
    expect(fake.calls(Path.selectAESKey)).toHaveLength(1);
    clock += 2;
    await up.getCustomerId({ expoId: 1308, fId: 1 });
    expect(fake.calls(Path.selectAESKey)).toHaveLength(2);
  });

  it('does not cache a failed fetch', async () => {
    fake.keyFailures = 1;
    await expect(up.getCustomerId({ expoId: 1308, fId: 1 })).rejects.toMatchObject({
      kind: 'no-key',
      code: 500,
      msg: 'busy',
    });
    const r = await up.getCustomerId({ expoId: 1308, fId: 1 });
    expect(r.ok).toBe(true);
    expect(fake.calls(Path.selectAESKey)).toHaveLength(2);
  });

  it('remembers "unknown expo" (selectAESKey refused 404) for its TTL, a 500 refusal never (issue 19 item 13)', async () => {
    fake.override.set(Path.selectAESKey, () => ({ code: 404, msg: 'unknown expo 4040', data: null }));
    for (let i = 0; i < 20; i++) await expect(up.getCustomerId({ expoId: 4040, fId: 1 })).rejects.toMatchObject({ kind: 'no-key', code: 404 });
    expect(fake.calls(Path.selectAESKey)).toHaveLength(1);
    clock += UNKNOWN_EXPO_TTL_S * 1000;
    await expect(up.getCustomerId({ expoId: 4040, fId: 1 })).rejects.toMatchObject({ kind: 'no-key', code: 404 });
    expect(fake.calls(Path.selectAESKey)).toHaveLength(2);
    fake.override.set(Path.selectAESKey, () => ({ code: 500, msg: 'busy', data: null }));
    for (let i = 0; i < 3; i++) await expect(up.getCustomerId({ expoId: 4041, fId: 1 })).rejects.toMatchObject({ kind: 'no-key', code: 500 });
    expect(fake.calls(Path.selectAESKey)).toHaveLength(5);
  });

  it('is shared by clients of the same upstream, apart for another upstream', async () => {
    const again = createUpstream({ baseUrl: BASE, fetch: fake.fetch, timeoutMs: 2000, keyCache: cache });
    await up.getCustomerId({ expoId: 1308, fId: 1 });
    await again.getCustomerId({ expoId: 1308, fId: 1 });
    expect(fake.calls(Path.selectAESKey)).toHaveLength(1);
    const other = new FakeUpstream();
    other.keys = { 1308: 'other-upstream-k' };
    const elsewhere = createUpstream({
      baseUrl: 'https://other.example',
      fetch: (req) => other.fetch(new Request(req.url.replace('https://other.example', BASE), req)),
      timeoutMs: 2000,
      keyCache: cache,
    });
    expect((await elsewhere.getCustomerId({ expoId: 1308, fId: 1 })).ok).toBe(true);
    expect(other.calls(Path.selectAESKey)).toHaveLength(1);
  });
});

describe('odd replies never throw anything but UpstreamError', () => {
  it.each([
    ['a string body', () => 'hello'],
    ['a body without code', () => ({ msg: 'x' })],
    ['a code that is not a number', () => ({ code: 'ok' })],
    ['encrypted data that is not a string', () => ({ code: 200, msg: 'ok', data: { a: 1 } })],
    ['base64 that is not ciphertext', () => ({ code: 200, msg: 'ok', data: 'aGVsbG8=' })],
  ])('%s', async (_name, reply) => {
    await up.selectAESKey(1308);
    fake.override.set(Path.queryCustomerCode, reply);
    const err = await up.queryCustomerCode({ expoId: 1308, euCode: 'EU-A' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as UpstreamError).kind).toBe('bad-data');
  });

  it('a fetch that throws is network; one that never answers is timeout', async () => {
    const broken = createUpstream({
      baseUrl: BASE,
      fetch: () => Promise.reject(new TypeError('fetch failed')),
      timeoutMs: 50,
      keyCache: cache,
    });
    await expect(broken.selectAESKey(1308)).rejects.toMatchObject({ kind: 'network', path: Path.selectAESKey });
    const stuck = createUpstream({
      baseUrl: BASE,
      fetch: () => new Promise<Response>(() => undefined),
      timeoutMs: 50,
      keyCache: cache,
    });
    await expect(stuck.selectAESKey(1308)).rejects.toMatchObject({ kind: 'timeout' });
  });

  it('rejects bad options at construction', () => {
    expect(() => createUpstream({ baseUrl: 'not a url', fetch: fake.fetch, timeoutMs: 10 })).toThrow();
    expect(() => createUpstream({ baseUrl: BASE, fetch: fake.fetch, timeoutMs: 0 })).toThrow();
  });
});
