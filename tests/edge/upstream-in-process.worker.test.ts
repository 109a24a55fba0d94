/**
 * upstreamFor(env) inside workerd: without UPSTREAM_URL the client talks to the embedded
 * reference upstream in-process (same D1, no network hop) and the whole contract round-trips:
 * key, config, send, verify, lookup, register, credential. With UPSTREAM_URL it goes to the
 * network through the global fetch.
 *
 * The test makes its own expo and customer url, so it does not depend on the seed data.
 */
import { env } from 'cloudflare:test';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppEnv } from '../../functions/env';
import reference from '../../functions/reference';
import { Path } from '../../src/lib/contract';
import { REFERENCE_BASE_URL, UpstreamError, sharedAesKeyCache, upstreamFor } from '../../functions/upstream';

const appEnv = env as unknown as AppEnv;
const EXPO = 990_001;
const URLS = 990_101;
const KEY = 'edge-test-key-16';
const EMAIL = 'edge-test@example.com';

beforeAll(async () => {
  await appEnv.DB.batch([
    appEnv.DB.prepare('INSERT INTO expos (id, aes_key, exhi_name) VALUES (?, ?, ?)').bind(EXPO, KEY, 'Edge Test Expo'),
    appEnv.DB.prepare('INSERT INTO customer_urls (id, expo_id, long_url) VALUES (?, ?, ?)').bind(
      URLS,
      EXPO,
      'https://edge.example/form',
    ),
  ]);
});

afterEach(() => {
  vi.restoreAllMocks();
  sharedAesKeyCache.clear();
});

/** The code the reference put in its development outbox for a contact. */
async function outboxCode(to: string): Promise<string> {
  const res = await reference.fetch(
    new Request(`${REFERENCE_BASE_URL}/dev/outbox.json?to=${encodeURIComponent(to)}`),
    appEnv,
  );
  expect(res.status).toBe(200);
  const body = (await res.json()) as { code: string };
  return body.code;
}

describe('upstreamFor without UPSTREAM_URL: the reference upstream in-process', () => {
  it('round-trips the contract', async () => {
    const spy = vi.spyOn(globalThis, 'fetch');
    const up = upstreamFor(appEnv);

    expect(await up.selectAESKey(EXPO)).toMatchObject({ ok: true, data: { aesKey: KEY } });

    const config = await up.getCustomerId({ expoId: EXPO, fId: URLS });
    expect(config).toMatchObject({
      ok: true,
      data: { customerUrls: { id: URLS }, expoInfo: { id: EXPO, exhiName: 'Edge Test Expo' } },
    });

    expect(await up.sendEmailCode({ expoId: EXPO, email: EMAIL, lang: 'en' })).toMatchObject({ ok: true });
    const code = await outboxCode(EMAIL);
    const wrong = code === '000000' ? '111111' : '000000';
    const contact = { type: 'email', email: EMAIL } as const;

    expect(await up.captchaVerify({ expoId: EXPO, contact, captcha: wrong })).toMatchObject({
      ok: false,
      kind: 'refused',
    });
    expect(await up.captchaVerify({ expoId: EXPO, contact, captcha: code })).toMatchObject({ ok: true });

    expect(await up.queryRegistrations({ expoId: EXPO, contact, captcha: code })).toMatchObject({ ok: true, data: [] });

    const added = await up.addUserInfo({
      expoId: EXPO,
      urlsId: URLS,
      values: { uname: 'Edge Tester', email: EMAIL, ucompany: 'Acme' },
    });
    expect(added.ok).toBe(true);
    if (!added.ok) return;
    const euCode = added.data.euCode;

    const found = await up.queryRegistrations({ expoId: EXPO, contact, captcha: code });
    expect(found).toMatchObject({ ok: true, data: [{ euCode, uname: 'Edge Tester', ucompany: 'Acme' }] });

    expect(await up.queryCustomerCode({ expoId: EXPO, euCode })).toMatchObject({
      ok: true,
      data: { euCode, uname: 'Edge Tester' },
    });
    expect(await up.queryCustomerCode({ expoId: EXPO, euCode: 'NO-SUCH-CODE' })).toMatchObject({
      ok: false,
      kind: 'refused',
    });

    // Nothing went to the network.
    expect(spy).not.toHaveBeenCalled();
  });

  it("reads the seed's expo 1308 exhibitor config (spec §2.2: url id 10542)", async () => {
    const r = await upstreamFor(appEnv).getCustomerId({ expoId: 1308, fId: 10542 });
    expect(r).toMatchObject({ ok: true, data: { expoInfo: { id: 1308 }, customerUrls: { id: 10542 } } });
  });

  it('an unknown expo is no-key', async () => {
    const err = await upstreamFor(appEnv)
      .getCustomerId({ expoId: 990_999, fId: URLS })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as UpstreamError).kind).toBe('no-key');
  });

  it('a wrong code never lists registrations', async () => {
    const r = await upstreamFor(appEnv).queryRegistrations({
      expoId: EXPO,
      contact: { type: 'email', email: 'nobody@example.com' },
      captcha: '123456',
    });
    expect(r.ok).toBe(false);
  });
});

describe('upstreamFor with UPSTREAM_URL: the network', () => {
  it('sends the request to {UPSTREAM_URL}/custom through the global fetch', async () => {
    const spy = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => Response.json({ code: 200, msg: 'ok', data: { aesKey: 'net-key-16-bytes' } }));
    const up = upstreamFor({ ...appEnv, UPSTREAM_URL: 'https://organiser.example/api', UPSTREAM_TIMEOUT_MS: '2000' });
    expect(await up.selectAESKey(1308)).toMatchObject({ ok: true, data: { aesKey: 'net-key-16-bytes' } });
    expect(spy).toHaveBeenCalledTimes(1);
    const req = spy.mock.calls[0]![0] as Request;
    expect(req.url).toBe(`https://organiser.example/api/custom${Path.selectAESKey}?expoId=1308`);
    expect(req.headers.get('expoId')).toBe('1308');
  });
});
