/**
 * The reference upstream's code rules (docs/upstream.md "What the reference upstream adds"):
 * sending, verifying, expiry, tries, send limits, delivery and the development outbox.
 * Each test uses its own contact: the file shares one migrated database.
 */
import { describe, expect, it, vi } from 'vitest';
import { CODE_TTL_MS } from '../../functions/reference/verificationCode';
import { age, call, enc, lookupCall, outboxCode, raw, send, testEnv } from './reference.helpers';

const verify = (expoId: number, phone: string, captcha: string) =>
  call('/sms/captchaVerify', { expoId, query: { phone, captcha } });

/** A code that is not `right` (same length, differs in the last digit). */
const wrongOf = (right: string) => right.slice(0, 5) + String((Number(right[5]) + 1) % 10);

describe('send code', () => {
  it('stores a 6-digit code, hashed, and puts it in the outbox', async () => {
    const r = await send('getemailCode', 1308, 'Send.Store@demo.test');
    expect(r).toEqual({ code: 200, msg: 'success', data: null });
    const code = await outboxCode('send.store@demo.test');
    expect(code).toMatch(/^\d{6}$/);
    const row = await testEnv.DB.prepare('SELECT * FROM verification_codes WHERE contact = ?')
      .bind('send.store@demo.test')
      .first<Record<string, unknown>>();
    expect(row).not.toBeNull();
    expect(JSON.stringify(row)).not.toContain(code);
    expect(row?.['code_hash']).toMatch(/^[0-9a-f]{64}$/);
    expect(Number(row?.['expires_at']) - Number(row?.['created_at'])).toBe(CODE_TTL_MS);
  });

  it.each([
    ['getCaptcha', '13700137001', '+8613700137001'],
    ['getSmsGJTWCode', '+886912345001', '+886912345001'],
    ['getSmsGJEnCode', '+66800009001', '+66800009001'],
    ['getemailCodeEn', 'en.sender@demo.test', 'en.sender@demo.test'],
    ['getemailCodeTw', 'tw.sender@demo.test', 'tw.sender@demo.test'],
    ['getemailCodeVietnam', 'vn.sender@demo.test', 'vn.sender@demo.test'],
    ['getemailCodeYN', 'id.sender@demo.test', 'id.sender@demo.test'],
  ])('%s accepts %s', async (path, smsPhone, stored) => {
    expect((await send(path, 1179, smsPhone)).code).toBe(200);
    expect(await outboxCode(stored)).toMatch(/^\d{6}$/);
  });

  it.each([
    ['getCaptcha', '+8613700137002'],
    ['getCaptcha', '12345'],
    ['getSmsGJTWCode', '+66800009002'],
    ['getSmsGJEnCode', '13700137003'],
    ['getSmsGJEnCode', '+8613700137003'],
    ['getemailCode', 'not-an-email'],
    ['getemailCode', ''],
  ])('%s refuses %j as bad input', async (path, smsPhone) => {
    const r = await send(path, 1179, smsPhone);
    expect(r.code).toBe(400);
    expect(r.msg).toMatch(/smsPhone/);
  });

  it('refuses a body whose expoId disagrees with the header, and a body that is not JSON', async () => {
    const r = await call('/sms/getemailCode', { expoId: 1308, body: { smsPhone: 'mismatch@demo.test', expoId: 1179 } });
    expect(r.code).toBe(400);
    const r2 = await call('/sms/getemailCode', { expoId: 1308, body: '{not json' });
    expect(r2.code).toBe(400);
  });

  it('refuses a resend within 60 s with 600 and a reason', async () => {
    const contact = 'resend.soon@demo.test';
    expect((await send('getemailCode', 1308, contact)).code).toBe(200);
    const r = await send('getemailCode', 1308, contact);
    expect(r.code).toBe(600);
    expect(r.msg).toMatch(/wait \d+ s/);
  });

  it('counts limits per expo and contact: another expo may send at once', async () => {
    const contact = 'two.expos@demo.test';
    expect((await send('getemailCode', 1308, contact)).code).toBe(200);
    expect((await send('getemailCodeEn', 1179, contact)).code).toBe(200);
    expect((await send('getemailCodeEn', 1179, contact)).code).toBe(600);
  });

  it('allows a resend after 60 s, which replaces the old code', async () => {
    const contact = 'resend.later@demo.test';
    await send('getemailCode', 1308, contact);
    const first = await outboxCode(contact);
    await age(contact, 61_000);
    expect((await send('getemailCode', 1308, contact)).code).toBe(200);
    const second = await outboxCode(contact);
    const rows = await testEnv.DB.prepare('SELECT count(*) AS n FROM verification_codes WHERE contact = ?')
      .bind(contact)
      .first<{ n: number }>();
    expect(rows?.n).toBe(1);
    if (first !== second) {
      expect((await verify(1308, contact, first)).code).toBe(401);
    }
    expect((await verify(1308, contact, second)).code).toBe(200);
  });

  it('refuses the sixth send in an hour even when 60 s apart', async () => {
    const contact = '+66800009100';
    for (let i = 0; i < 5; i++) {
      expect((await send('getSmsGJEnCode', 1179, contact)).code).toBe(200);
      await age(contact, 61_000);
    }
    const r = await send('getSmsGJEnCode', 1179, contact);
    expect(r.code).toBe(600);
    expect(r.msg).toMatch(/at most 5 an hour/);
    // An hour on, the window has room again.
    await age(contact, 3_600_000);
    expect((await send('getSmsGJEnCode', 1179, contact)).code).toBe(200);
  });

  it('refuses sends with 600 "no delivery configured" when neither webhook nor outbox is set', async () => {
    const r = await call('/sms/getemailCode', {
      expoId: 1308,
      body: { smsPhone: 'nodelivery@demo.test' },
      env: { ...testEnv, DEV_OUTBOX: '0' },
    });
    expect(r).toEqual({ code: 600, msg: 'no delivery configured', data: null });
  });

  it('posts { channel, to, code, expoId, sender } to the webhook when one is set, and stores the code', async () => {
    const posted: unknown[] = [];
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      expect(String(input instanceof Request ? input.url : input)).toBe('https://hooks.demo.test/codes');
      posted.push(JSON.parse(String(init?.body)));
      return new Response('ok');
    });
    try {
      const env = { ...testEnv, DELIVERY_WEBHOOK_URL: 'https://hooks.demo.test/codes' };
      const r = await call('/sms/getSmsGJEnCode', { expoId: 1179, body: { smsPhone: '+66800009200' }, env });
      expect(r.code).toBe(200);
    } finally {
      spy.mockRestore();
    }
    expect(posted).toEqual([
      { channel: 'sms', to: '+66800009200', code: expect.stringMatching(/^\d{6}$/), expoId: 1179, sender: '/sms/getSmsGJEnCode' },
    ]);
    const code = (posted[0] as { code: string }).code;
    expect((await verify(1179, '+66800009200', code)).code).toBe(200);
    // The webhook, not the outbox, got it.
    expect((await raw('/dev/outbox.json?to=%2B66800009200')).status).toBe(404);
  });

  it.each([
    ['answers an error', () => Promise.resolve(new Response('down', { status: 503 })), /provider answered 503/],
    ['cannot be reached', () => Promise.reject(new TypeError('Network connection lost.')), /could not be delivered/],
    ['times out', () => Promise.reject(new DOMException('timed out', 'TimeoutError')), /timed out/],
  ])('refuses with 600 when the webhook %s, and keeps no code', async (_what, impl, msg) => {
    const contact = `webhook.${_what.replace(/\W/g, '')}@demo.test`;
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(impl);
    let r;
    try {
      const env = { ...testEnv, DELIVERY_WEBHOOK_URL: 'https://hooks.demo.test/codes' };
      r = await call('/sms/getemailCode', { expoId: 1308, body: { smsPhone: contact }, env });
    } finally {
      spy.mockRestore();
    }
    expect(r.code).toBe(600);
    expect(r.msg).toMatch(msg);
    const row = await testEnv.DB.prepare('SELECT 1 FROM verification_codes WHERE contact = ?').bind(contact).first();
    expect(row).toBeNull();
  });
});

describe('captchaVerify', () => {
  it('answers 200 for the right code, once', async () => {
    await send('getemailCode', 1308, 'verify.right@demo.test');
    const code = await outboxCode('verify.right@demo.test');
    expect(await verify(1308, 'VERIFY.right@demo.test', code)).toEqual({ code: 200, msg: 'success', data: null });
    const again = await verify(1308, 'verify.right@demo.test', code);
    expect(again.code).toBe(401);
    expect(again.msg).toMatch(/already been used/);
  });

  it('takes the +86 phone exactly as sent to getCaptcha', async () => {
    await send('getCaptcha', 1308, '13700137010');
    const code = await outboxCode('13700137010');
    expect((await verify(1308, '13700137010', code)).code).toBe(200);
  });

  it('refuses a wrong code with a message and tries left', async () => {
    await send('getemailCode', 1308, 'verify.wrong@demo.test');
    const code = await outboxCode('verify.wrong@demo.test');
    const r = await verify(1308, 'verify.wrong@demo.test', wrongOf(code));
    expect(r.code).toBe(401);
    expect(r.msg).toMatch(/wrong; 4 tries left/);
    expect((await verify(1308, 'verify.wrong@demo.test', code)).code).toBe(200);
  });

  it('refuses an expired code', async () => {
    await send('getemailCode', 1308, 'verify.expired@demo.test');
    const code = await outboxCode('verify.expired@demo.test');
    await testEnv.DB.prepare('UPDATE verification_codes SET expires_at = ? WHERE contact = ?')
      .bind(Date.now() - 1, 'verify.expired@demo.test')
      .run();
    const r = await verify(1308, 'verify.expired@demo.test', code);
    expect(r.code).toBe(401);
    expect(r.msg).toMatch(/expired/);
  });

  it('refuses the sixth try even when it is right', async () => {
    await send('getemailCode', 1308, 'verify.sixth@demo.test');
    const code = await outboxCode('verify.sixth@demo.test');
    for (let i = 0; i < 5; i++) expect((await verify(1308, 'verify.sixth@demo.test', wrongOf(code))).code).toBe(401);
    const r = await verify(1308, 'verify.sixth@demo.test', code);
    expect(r.code).toBe(401);
    expect(r.msg).toMatch(/too many wrong tries/);
  });

  it('40 wrong tries at once: exactly 5 are compared, then the right code is refused (issue 9 hole 3)', async () => {
    const contact = 'race.verify@demo.test';
    await send('getemailCode', 1308, contact);
    const code = await outboxCode(contact);
    const wrong = wrongOf(code);
    const replies = await Promise.all(Array.from({ length: 40 }, () => verify(1308, contact, wrong)));
    expect(replies.every((r) => r.code === 401)).toBe(true);
    expect(replies.filter((r) => /the code is wrong/.test(r.msg))).toHaveLength(5);
    expect(replies.filter((r) => /too many wrong tries/.test(r.msg))).toHaveLength(35);
    const right = await verify(1308, contact, code);
    expect(right.code).toBe(401);
    expect(right.msg).toMatch(/too many wrong tries/);
  });

  it('the right code among 40 concurrent guesses is accepted only if it came before the 5th wrong one', async () => {
    const contact = '+8613900139077';
    await send('getCaptcha', 1308, '13900139077');
    const code = await outboxCode(contact);
    const wrong = wrongOf(code);
    // The right code is sent 9th: at most 5 wrong ones can be counted before it, so it is refused.
    const tries = Array.from({ length: 40 }, (_, i) => (i === 8 ? code : wrong));
    const replies = await Promise.all(tries.map((c) => lookupCall('phone', 1308, contact, c)));
    const row = await testEnv.DB.prepare('SELECT wrong_tries FROM verification_codes WHERE contact = ?')
      .bind(contact)
      .first<{ wrong_tries: number }>();
    expect(row?.wrong_tries).toBe(5);
    const accepted = replies.filter((r) => r.code === 200).length;
    const compared = replies.filter((r) => r.code === 200 || /the code is wrong/.test(r.msg)).length;
    expect(compared).toBe(5 + accepted);
    expect(accepted).toBeLessThanOrEqual(1);
  });

  it('refuses when no code was sent, and a code sent to another contact or expo', async () => {
    expect((await verify(1308, 'never.sent@demo.test', '123456')).msg).toMatch(/no code was sent/);
    await send('getemailCode', 1308, 'verify.other@demo.test');
    const code = await outboxCode('verify.other@demo.test');
    expect((await verify(1308, 'verify.another@demo.test', code)).code).toBe(401);
    expect((await verify(1179, 'verify.other@demo.test', code)).code).toBe(401);
  });

  it('refuses bad input without a 500', async () => {
    expect(
      (await call('/sms/captchaVerify', { expoId: 1308, query: { phone: 'x@demo.test', captcha: 'abc' } })).code,
    ).toBe(400);
    expect((await call('/sms/captchaVerify', { expoId: 1308, query: { captcha: '123456' } })).code).toBe(400);
    expect(
      (await call('/sms/captchaVerify', { expoId: 1308, query: { phone: 'nonsense', captcha: '123456' } })).code,
    ).toBe(400);
  });
});

describe('lookups need the right code for that contact', () => {
  it('refuses a lookup without a code sent, with a wrong code, and with a code of another contact', async () => {
    expect((await lookupCall('email', 1308, 'one@demo.test', '123456')).code).toBe(401);
    await send('getemailCode', 1308, 'attacker@demo.test');
    const code = await outboxCode('attacker@demo.test');
    expect((await lookupCall('email', 1308, 'one@demo.test', code)).code).toBe(401);
  });

  it('counts wrong lookup tries toward the same limit', async () => {
    await send('getCaptcha', 1308, '13900139000');
    const code = await outboxCode('+8613900139000');
    for (let i = 0; i < 5; i++)
      expect((await lookupCall('phone', 1308, '+8613900139000', wrongOf(code))).code).toBe(401);
    const r = await lookupCall('phone', 1308, '+8613900139000', code);
    expect(r.code).toBe(401);
    expect(r.msg).toMatch(/too many wrong tries/);
  });

  it('refuses a lookup with an expired code', async () => {
    await send('getSmsGJEnCode', 1179, '+66800000001');
    const code = await outboxCode('+66800000001');
    await age('+66800000001', CODE_TTL_MS + 1);
    expect((await lookupCall('phone', 1179, '+66800000001', code)).msg).toMatch(/expired/);
  });

  it('accepts the bypass code only for customer url 10542 e-mail lookups of expo 1308, only when BYPASS_CODE is set', async () => {
    const ok = await lookupCall('email', 1308, 'exhibitor@demo.test', '2468', { urlsId: '10542' });
    expect(ok.code).toBe(200);
    expect((await lookupCall('email', 1308, 'exhibitor@demo.test', '2468')).code).toBe(401);
    expect((await lookupCall('email', 1308, 'exhibitor@demo.test', '2468', { urlsId: '21308' })).code).toBe(401);
    expect((await lookupCall('phone', 1308, '+8613800138000', '2468', { urlsId: '10542' })).code).toBe(401);
    expect((await lookupCall('email', 1108, 'one@demo.test', '2468', { urlsId: '10542' })).code).toBe(401);
    expect((await lookupCall('email', 1308, 'exhibitor@demo.test', '1357', { urlsId: '10542' })).code).toBe(401);
    const unset = { ...testEnv };
    delete unset.BYPASS_CODE;
    const query = { urlsId: '10542' };
    const r = await lookupCallWithEnv(unset, query);
    expect(r.code).toBe(401);
  });
});

/** The bypass lookup of 10542 under another env. */
async function lookupCallWithEnv(env: typeof testEnv, extra: Record<string, string>) {
  const query = {
    expoId: await enc(1308, 1308),
    email: await enc('exhibitor@demo.test', 1308),
    captcha: await enc('2468', 1308),
    ...extra,
  };
  return call('/customFrom/queryEmailUserExpoId', { expoId: 1308, query, env });
}

describe('development outbox', () => {
  it('lists codes newest first, escaped', async () => {
    await send('getemailCode', 1308, 'outbox.page@demo.test');
    const code = await outboxCode('outbox.page@demo.test');
    const res = await raw('/dev/outbox');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain('outbox.page@demo.test');
    expect(html).toContain(code);
    await testEnv.DB.prepare(
      "INSERT INTO outbox (channel, to_contact, code, expo_id, created_at) VALUES ('email', '<script>x</script>@demo.test', '000000', 1308, ?)",
    )
      .bind(Date.now())
      .run();
    const html2 = await (await raw('/dev/outbox')).text();
    expect(html2).not.toContain('<script>x</script>');
    expect(html2).toContain('&lt;script&gt;');
    expect(html2.indexOf('&lt;script&gt;')).toBeLessThan(html2.indexOf('outbox.page@demo.test'));
  });

  it('answers 404 for a contact without a code and 400 for a bad contact', async () => {
    expect((await raw('/dev/outbox.json?to=nobody.here@demo.test')).status).toBe(404);
    expect((await raw('/dev/outbox.json?to=')).status).toBe(400);
  });

  it('with expoId: the latest code for that contact on that expo, not a later one of another expo', async () => {
    const to = 'outbox.expo@demo.test';
    const latest = async (query: string) => {
      const res = await raw(`/dev/outbox.json?to=${encodeURIComponent(to)}${query}`);
      expect(res.status, query).toBe(200);
      return (await res.json()) as { code: string; expoId: number };
    };
    await send('getemailCode', 1308, to);
    const on1308 = await latest('&expoId=1308');
    expect(on1308.expoId).toBe(1308);
    await send('getemailCode', 1108, to);
    const on1108 = await latest('&expoId=1108');
    expect(on1108.expoId).toBe(1108);
    // Without expoId: the latest of any expo (1108's); with it, each expo's own.
    expect(await latest('')).toEqual(on1108);
    expect(await latest('&expoId=1308')).toEqual(on1308);
    // Check against the table: one row per expo, each code where it was stored.
    const rows = await testEnv.DB.prepare('SELECT expo_id, code FROM outbox WHERE to_contact = ? ORDER BY id')
      .bind(to)
      .all<{ expo_id: number; code: string }>();
    expect(rows.results).toEqual([
      { expo_id: 1308, code: on1308.code },
      { expo_id: 1108, code: on1108.code },
    ]);
    expect((await raw(`/dev/outbox.json?to=${to}&expoId=1261`)).status).toBe(404);
    for (const bad of ['', 'x', '0', '-1', '1.5', '13080000000']) {
      expect((await raw(`/dev/outbox.json?to=${to}&expoId=${bad}`)).status, `expoId=${bad}`).toBe(400);
    }
  });

  it.each(['0', '', undefined])('both routes are 404 when DEV_OUTBOX is %j', async (flag) => {
    const env = { ...testEnv };
    if (flag === undefined) delete env.DEV_OUTBOX;
    else env.DEV_OUTBOX = flag;
    expect((await raw('/dev/outbox', { env })).status).toBe(404);
    expect((await raw('/dev/outbox.json?to=one@demo.test', { env })).status).toBe(404);
  });
});

describe('send limits are the operator\'s to tune', () => {
  it('defaults to 60 s and 5 an hour; REF_SEND_INTERVAL_S and REF_SENDS_PER_HOUR override', async () => {
    const { sendLimits } = await import('../../functions/reference/sendLimit');
    expect(sendLimits({})).toEqual({ minGapMs: 60_000, windowMs: 3_600_000, maxPerWindow: 5 });
    expect(sendLimits({ REF_SEND_INTERVAL_S: '0', REF_SENDS_PER_HOUR: '1000' })).toMatchObject({ minGapMs: 0, maxPerWindow: 1000 });
    expect(sendLimits({ REF_SEND_INTERVAL_S: 'x', REF_SENDS_PER_HOUR: '-1' })).toMatchObject({ minGapMs: 60_000, maxPerWindow: 5 });
  });
});
