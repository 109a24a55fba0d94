/**
 * Every call of docs/upstream.md against the seeded D1: right answers (decrypted with the expo's
 * key, as the upstream client will) and the refusals. Each test uses its own contact.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../functions/env';
import reference from '../../functions/reference/index';
import { Credential, FormConfig, Registration } from '../../src/lib/contract';
import { newEuCode } from '../../functions/reference/euCode';
import { aesKeyOf, call, dec, enc, lookupCall, outboxCode, raw, send, testEnv } from './reference.helpers';

/** Sends a code to a contact and returns it from the outbox. */
async function codeFor(expoId: number, contact: string): Promise<string> {
  const isEmail = contact.includes('@');
  const path = isEmail ? 'getemailCode' : contact.startsWith('+86') ? 'getCaptcha' : 'getSmsGJEnCode';
  const r = await send(path, expoId, path === 'getCaptcha' ? contact.slice(3) : contact);
  expect(r.code).toBe(200);
  return outboxCode(contact);
}

/** A verified lookup: code, captchaVerify, then the lookup; returns the envelope. */
async function verifiedLookup(expoId: number, contact: string) {
  const code = await codeFor(expoId, contact);
  const verify = await call('/sms/captchaVerify', {
    expoId,
    query: { phone: contact.startsWith('+86') ? contact.slice(3) : contact, captcha: code },
  });
  expect(verify.code).toBe(200);
  return lookupCall(contact.includes('@') ? 'email' : 'phone', expoId, contact, code);
}

const records = async (expoId: number, data: unknown) => Registration.array().parse(await dec(data, expoId));

describe('every call answers an envelope, also when refused', () => {
  it('selectAESKey answers the 16-character key in clear', async () => {
    const r = await call('/CustomerUserInfo/selectAESKey', { expoId: 1308, query: { expoId: '1308' } });
    expect(r.code).toBe(200);
    expect((r.data as { aesKey: string }).aesKey).toHaveLength(16);
    expect((await call('/CustomerUserInfo/selectAESKey', { expoId: 1308, query: { expoId: '1179' } })).code).toBe(400);
  });

  it.each([
    ['/CustomerUserInfo/selectAESKey', 'GET'],
    ['/customFrom/getCustomerId', 'GET'],
    ['/sms/getCaptcha', 'POST'],
    ['/sms/captchaVerify', 'GET'],
    ['/customFrom/queryUserExpoId', 'GET'],
    ['/customFrom/queryEmailUserExpoId', 'GET'],
    ['/customFrom/queryFromUserExpoId', 'GET'],
    ['/customFrom/queryCustomerCode', 'GET'],
    ['/CustomerUserInfo/addUserInfo', 'POST'],
  ] as const)('%s refuses an unknown expo (404) and a missing or bad expoId header (400)', async (path, method) => {
    const body = method === 'POST' ? {} : undefined;
    const unknown = await call(path, { expoId: 999999, method, body });
    expect(unknown).toEqual({ code: 404, msg: 'unknown expo 999999', data: null });
    expect((await call(path, { expoId: null, method, body })).code).toBe(400);
    expect((await call(path, { expoId: 'abc', method, body })).code).toBe(400);
  });

  it('an unknown /custom call, a wrong method and /wx answer 404 "unknown call"', async () => {
    const none = { code: 404, msg: 'unknown call', data: null };
    expect(await call('/customFrom/doesNotExist', { expoId: 1308 })).toEqual(none);
    expect(await call('/sms/getCaptcha', { expoId: 1308, method: 'GET' })).toEqual(none);
    // The reference has no silent login; its app id only with REF_WX_APP_ID (tests/edge/share.worker.test.ts).
    const wx = await raw('/wx/getOpenId', { expoId: 1308 });
    expect(wx.status).toBe(200);
    expect(await wx.json()).toEqual(none);
    expect(await (await raw('/wx/getwxAppId', { expoId: 1308 })).json()).toMatchObject({ code: 404, data: null });
  });
});

describe('mounted at the root of another Hono app, as the Worker does', () => {
  it('serves /custom, /wx and /dev/outbox the same, and leaves other paths to the parent', async () => {
    const worker = new Hono<{ Bindings: AppEnv }>();
    worker.route('/', reference);
    worker.get('/', (c) => c.text('page'));
    const get = (path: string, env: AppEnv = testEnv) =>
      worker.fetch(new Request(`http://w${path}`, { headers: { expoId: '1308' } }), env);
    const key = (await (await get('/custom/CustomerUserInfo/selectAESKey')).json()) as { code: number };
    expect(key.code).toBe(200);
    expect(await (await get('/custom/nope')).json()).toMatchObject({ code: 404, msg: 'unknown call' });
    expect(await (await get('/wx/anything')).json()).toMatchObject({ code: 404, msg: 'unknown call' });
    expect((await get('/dev/outbox')).status).toBe(200);
    expect((await get('/dev/outbox', { ...testEnv, DEV_OUTBOX: '0' })).status).toBe(404);
    expect(await (await get('/')).text()).toBe('page');
  });
});

describe('getCustomerId', () => {
  it('answers the encrypted form config of a url with config, expo info and activity', async () => {
    const r = await call('/customFrom/getCustomerId', {
      expoId: 2001,
      query: { fId: '22001', eId: '2001', ty: 'visitor' },
    });
    expect(r.code).toBe(200);
    const plain = (await dec(r.data, 2001)) as Record<string, unknown>;
    const cfg = FormConfig.parse(plain);
    expect(cfg.customerUrls?.id).toBe(22001);
    expect(cfg.customerWx).toMatchObject({
      urlsId: 22001,
      signType: 1,
      wechatShare: expect.any(String),
      shareLog: expect.any(String),
    });
    expect(cfg.customerWx?.headjumpUrl).toBe('https://example.com/expo-2001,javascript:alert(1)');
    expect(cfg.expoInfo).toMatchObject({
      id: 2001,
      exhiName: expect.any(String),
      exhiNameEn: expect.any(String),
      endTime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    expect(cfg.activity).toEqual({ id: 12001, activityName: '开幕论坛' });
    expect(plain['customerForm']).toEqual(
      expect.arrayContaining([expect.objectContaining({ key: 'uname', required: true })]),
    );
  });

  it('answers activity null, and the spec config ids for 1308 and 1177', async () => {
    const get = async (expoId: number, fId: number) => {
      const r = await call('/customFrom/getCustomerId', { expoId, query: { fId: String(fId), eId: String(expoId) } });
      expect(r.code).toBe(200);
      return FormConfig.parse(await dec(r.data, expoId));
    };
    const ieae = await get(1308, 21308);
    expect(ieae.customerWx?.id).toBe(5959);
    expect(ieae.activity).toBeNull();
    expect((await get(1308, 31308)).customerWx?.id).toBe(6309);
    expect((await get(1177, 31177)).customerWx?.id).toBe(5013);
    expect((await get(1177, 41177)).customerWx?.id).toBe(5127);
    // 8730 belongs to both Thai expos (spec §2.2).
    expect((await get(1106, 8730)).customerUrls?.id).toBe(8730);
    expect((await get(1179, 8730)).customerUrls?.id).toBe(8730);
    // 1317 collects no phone.
    const vn = (await get(1317, 21317)) as unknown as { customerForm: { key: string }[] };
    expect(vn.customerForm.map((f) => f.key)).not.toContain('phone');
  });

  it('refuses an unknown url, a url of another expo, eId unlike the header, and bad input', async () => {
    expect((await call('/customFrom/getCustomerId', { expoId: 1308, query: { fId: '99999', eId: '1308' } })).code).toBe(
      404,
    );
    expect((await call('/customFrom/getCustomerId', { expoId: 1308, query: { fId: '8811', eId: '1308' } })).code).toBe(
      404,
    );
    expect((await call('/customFrom/getCustomerId', { expoId: 1308, query: { fId: '21308', eId: '1179' } })).code).toBe(
      400,
    );
    const bad = await call('/customFrom/getCustomerId', { expoId: 1308, query: { fId: 'x' } });
    expect(bad.code).toBe(400);
    expect(bad.msg).toMatch(/fId/);
  });
});

describe('lookups', () => {
  it('e-mail: zero, one and several matches, case-insensitive', async () => {
    const none = await verifiedLookup(1313, 'none@demo.test');
    expect(none.code).toBe(200);
    expect(await records(1313, none.data)).toEqual([]);
    const one = await verifiedLookup(1313, 'ONE@demo.test');
    expect((await records(1313, one.data)).map((r) => r.uname)).toEqual(['Dewi One']);
    const several = await verifiedLookup(1313, 'several@demo.test');
    const list = await records(1313, several.data);
    expect(list).toHaveLength(2);
    for (const r of list) expect(r.euCode).toMatch(/^[A-Z2-7]{16}$/);
  });

  it('a lookup works without a prior captchaVerify and may repeat while the code lives', async () => {
    const code = await codeFor(1316, 'one@demo.test');
    const first = await lookupCall('email', 1316, 'one@demo.test', code);
    expect(first.code).toBe(200);
    expect((await lookupCall('email', 1316, 'one@demo.test', code)).code).toBe(200);
  });

  it('phone: matches the full phone, +86 sent bare, class 3 and class 8 records', async () => {
    const r = await verifiedLookup(1308, '+8613800138000');
    const list = await records(1308, r.data);
    expect(list.map((x) => x.euClass)).toEqual([3, 8]);
    expect(list[1]?.ticketName).toBe('全程通票 Full Pass');
  });

  it('1308 several: an earliest-created tie, class 3 with a short and a long CJK euDefine', async () => {
    const list = await records(1308, (await verifiedLookup(1308, 'several@demo.test')).data);
    expect(list.length).toBeGreaterThanOrEqual(5);
    expect(list[0]?.createtime).toBe(list[1]?.createtime);
    const defines = list.filter((x) => x.euClass === 3).map((x) => x.euDefine ?? '');
    expect(defines.some((d) => d.length < 20)).toBe(true);
    expect(defines.some((d) => d.length >= 20 && /[\u4e00-\u9fff]/.test(d))).toBe(true);
  });

  it('Jakarta: a record without activityId; +66, +62 phones', async () => {
    const sup = await records(1178, (await verifiedLookup(1178, '+62811000001')).data);
    expect(sup).toHaveLength(1);
    expect(sup[0]?.activityId).toBeNull();
    const withAct = await records(1178, (await verifiedLookup(1178, 'one@demo.test')).data);
    expect(withAct[0]?.activityId).toBe(11781);
    const bkk = await records(1179, (await verifiedLookup(1179, '+66800000003')).data);
    expect(bkk).toHaveLength(3);
  });

  it.each([
    [1178, 'second@demo.test', 31178],
    [1179, '+66800000002', 31179],
  ])('20003 for a second form to complete (expo %i), then queryFromUserExpoId', async (expoId, contact, urlsId) => {
    const r = await verifiedLookup(expoId, contact);
    expect(r.code).toBe(20003);
    const ref = r.data as { userId: number; urlsId: number };
    expect(ref.urlsId).toBe(urlsId);
    expect(typeof ref.userId).toBe('number');
    const saved = await call('/customFrom/queryFromUserExpoId', {
      expoId,
      query: { userId: String(ref.userId), urlsId: String(ref.urlsId), expoId: String(expoId) },
    });
    expect(saved.code).toBe(200);
    expect(saved.data).toMatchObject({ industry: expect.any(String) });
  });

  it('queryFromUserExpoId refuses unknown pairs, another expo and bad input', async () => {
    expect(
      (await call('/customFrom/queryFromUserExpoId', { expoId: 1178, query: { userId: '1', urlsId: '31178' } })).code,
    ).toBe(404);
    const row = await testEnv.DB.prepare('SELECT user_id FROM second_forms WHERE urls_id = 31178').first<{
      user_id: number;
    }>();
    expect(
      (
        await call('/customFrom/queryFromUserExpoId', {
          expoId: 1179,
          query: { userId: String(row?.user_id), urlsId: '31178' },
        })
      ).code,
    ).toBe(404);
    expect((await call('/customFrom/queryFromUserExpoId', { expoId: 1178, query: { userId: 'me' } })).code).toBe(400);
  });

  it('refuses bad input: missing contact, params that do not decrypt, expoId unlike the header', async () => {
    const code = await codeFor(1312, 'bad.lookup@demo.test');
    const key = await aesKeyOf(1312);
    expect(key).toHaveLength(16);
    const base = { expoId: await enc(1312, 1312), captcha: await enc(code, 1312) };
    const path = '/customFrom/queryEmailUserExpoId';
    expect((await call(path, { expoId: 1312, query: base })).msg).toMatch(/email is required/);
    expect((await call(path, { expoId: 1312, query: { ...base, email: 'plain@demo.test' } })).code).toBe(400);
    expect(
      (await call(path, { expoId: 1312, query: { ...base, email: await enc('bad.lookup@demo.test', 1308) } })).code,
    ).toBe(400);
    expect(
      (
        await call(path, {
          expoId: 1312,
          query: { ...base, expoId: await enc(1308, 1312), email: await enc('bad.lookup@demo.test', 1312) },
        })
      ).code,
    ).toBe(400);
    expect((await call(path, { expoId: 1312, query: { email: await enc('bad.lookup@demo.test', 1312) } })).code).toBe(
      400,
    );
    // After all that, the right lookup still works: bad input is not a wrong try.
    expect((await lookupCall('email', 1312, 'bad.lookup@demo.test', code)).code).toBe(200);
  });
});

describe('queryCustomerCode', () => {
  const credentialOf = async (expoId: number, euCode: string) =>
    call('/customFrom/queryCustomerCode', {
      expoId,
      query: { expoId: await enc(expoId, expoId), euCode: await enc(euCode, expoId) },
    });
  const euCodeOf = async (expoId: number, where: string) =>
    (
      await testEnv.DB.prepare(`SELECT eu_code FROM registrations WHERE expo_id = ? AND ${where}`)
        .bind(expoId)
        .first<{ eu_code: string }>()
    )?.eu_code ?? '';

  it('answers one record plus usage: used, unlimited, awaiting review', async () => {
    const used = Credential.parse(
      await dec((await credentialOf(1308, await euCodeOf(1308, "email = 'one@demo.test'"))).data, 1308),
    );
    expect(used).toMatchObject({ uname: '张一', useStatus: 1, usedCount: 2, maxCount: 3, auditStatus: 0 });
    const unlimited = Credential.parse(
      await dec((await credentialOf(1308, await euCodeOf(1308, "phone = '+8613900139000'"))).data, 1308),
    );
    expect(unlimited.maxCount).toBe(0);
    const review = Credential.parse(
      await dec((await credentialOf(1106, await euCodeOf(1106, "email = 'one@demo.test'"))).data, 1106),
    );
    expect(review.auditStatus).toBe(1);
  });

  it('refuses an unknown code, a code of another expo, and params that do not decrypt', async () => {
    expect((await credentialOf(1308, newEuCode())).code).toBe(404);
    expect((await credentialOf(1179, await euCodeOf(1308, "email = 'one@demo.test'"))).code).toBe(404);
    const r = await call('/customFrom/queryCustomerCode', {
      expoId: 1308,
      query: { expoId: await enc(1308, 1308), euCode: 'not-base64!' },
    });
    expect(r.code).toBe(400);
    expect((await call('/customFrom/queryCustomerCode', { expoId: 1308 })).code).toBe(400);
  });
});

describe('addUserInfo', () => {
  const add = async (expoId: number, urlsId: number | string, values: unknown) =>
    call('/CustomerUserInfo/addUserInfo', {
      expoId,
      body: { expoId, urlsId, data: await enc(JSON.stringify(values), expoId) },
    });

  it('registers, answers { euCode, id }, and the lookup then finds it', async () => {
    const r = await add(1312, 21312, {
      uname: 'New Person',
      email: 'New.Person@demo.test',
      ucompany: 'Demo Co.',
      phone: '812340001',
      areaCode: '+66',
      hobby: 'sailing',
    });
    expect(r.code).toBe(200);
    const added = r.data as { euCode: string; id: number };
    expect(added.euCode).toMatch(/^[A-Z2-7]{16}$/);
    const list = await records(1312, (await verifiedLookup(1312, 'new.person@demo.test')).data);
    expect(list).toEqual([
      expect.objectContaining({ id: added.id, euCode: added.euCode, uname: 'New Person', euClass: 0 }),
    ]);
    expect(list[0]?.createtime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const row = await testEnv.DB.prepare('SELECT phone, form_values FROM registrations WHERE id = ?')
      .bind(added.id)
      .first<{ phone: string; form_values: string }>();
    expect(row?.phone).toBe('+66812340001');
    expect(JSON.parse(row?.form_values ?? '{}')).toMatchObject({ hobby: 'sailing' });
  });

  it('an exhibitor url registers class 2', async () => {
    const r = await add(1316, 10920, { uname: 'Booth Person', email: 'booth.person@demo.test' });
    const row = await testEnv.DB.prepare('SELECT eu_class FROM registrations WHERE id = ?')
      .bind((r.data as { id: number }).id)
      .first<{ eu_class: number }>();
    expect(row?.eu_class).toBe(2);
  });

  it('answers 20001 { id } to the contact that owns the phone or ID number; update: true updates that record', async () => {
    const existing = await testEnv.DB.prepare(
      "SELECT id, eu_code FROM registrations WHERE expo_id = 1308 AND phone = '+8613900139000'",
    ).first<{ id: number; eu_code: string }>();
    const dupPhone = await add(1308, 21308, { uname: '赵四', phone: '13900139000', checkType: 1 });
    expect(dupPhone).toMatchObject({ code: 20001, data: { id: existing?.id } });
    const byId = await testEnv.DB.prepare(
      "SELECT id FROM registrations WHERE expo_id = 1308 AND ucardid = 'DEMO-ID-1308-01'",
    ).first<{ id: number }>();
    const dupId = await add(1308, 21308, { uname: '张一', email: 'one@demo.test', ucardid: 'DEMO-ID-1308-01' });
    expect(dupId).toMatchObject({ code: 20001, data: { id: byId?.id } });
    const upd = await add(1308, 21308, {
      uname: '赵四（新）',
      phone: '+8613900139000',
      ucompany: 'New Co.',
      checkType: 1,
      update: true,
    });
    expect(upd).toMatchObject({ code: 200, data: { euCode: existing?.eu_code, id: existing?.id } });
    const row = await testEnv.DB.prepare('SELECT uname, ucompany FROM registrations WHERE id = ?')
      .bind(existing?.id)
      .first();
    expect(row).toEqual({ uname: '赵四（新）', ucompany: 'New Co.' });
  });

  describe('never changes, describes or is blocked by a registration of another contact (issue 9 holes 1, 9; issue 19 items 1, 2)', () => {
    const snapshot = (id: number) =>
      testEnv.DB.prepare('SELECT uname, ucompany, phone, email, ucardid, form_values, owner_phone, owner_email FROM registrations WHERE id = ?')
        .bind(id)
        .first();
    const victims = [100001, 100009];
    const victimText = /IWHBZIMYEOZETLFI|XCOE6GON4WB4N6BR|100001|100009|张一|赵四|Demo Co|one@demo/;

    it.each([
      ['their ID number, update', 'mallory1@demo.test', { ucardid: 'DEMO-ID-1308-01', update: true }],
      ['their ID number, no update', 'mallory2@demo.test', { ucardid: 'DEMO-ID-1308-01' }],
      ['their phone, update', 'mallory3@demo.test', { phone: '+8613900139000', update: true }],
      ['their phone, no update', 'mallory4@demo.test', { phone: '+8613900139000' }],
    ])('an e-mail-verified attacker posting %s: a new registration of the attacker\'s own, theirs unchanged and not named', async (_name, email, extra) => {
      const before = await Promise.all(victims.map(snapshot));
      const r = await add(1308, 21308, { uname: 'Mallory', ucompany: 'Evil Ltd.', email, checkType: 2, ...extra });
      // The same answer as for a phone or ID number nobody has (issue 19 item 2: no oracle).
      expect(r.code).toBe(200);
      const added = r.data as { euCode: string; id: number };
      expect(victims).not.toContain(added.id);
      expect(JSON.stringify(r)).not.toMatch(victimText);
      expect(await Promise.all(victims.map(snapshot))).toEqual(before);
      expect(await snapshot(added.id)).toMatchObject({ uname: 'Mallory', owner_email: email, owner_phone: null });
    });

    it('an e-mail-verified attacker naming their registration code (repair form): 404, nothing changed or named', async () => {
      const before = await Promise.all(victims.map(snapshot));
      const r = await add(1308, 21308, { uname: 'Mallory', email: 'mallory5@demo.test', checkType: 2, euCode: 'IWHBZIMYEOZETLFI', update: true });
      expect(r.code).toBe(404);
      expect(r.data).toBeNull();
      expect(JSON.stringify(r).replace('IWHBZIMYEOZETLFI', '')).not.toMatch(victimText);
      expect(await Promise.all(victims.map(snapshot))).toEqual(before);
    });

    it('the verified channel decides: a phone-verified visitor cannot claim an e-mail registration by typing that e-mail', async () => {
      const before = await snapshot(100001);
      const r = await add(1308, 21308, {
        uname: 'Mallory',
        phone: '+8613900139555',
        email: 'one@demo.test',
        checkType: 1,
        update: true,
      });
      // A new registration of the phone's own, never an update of one@demo.test's.
      expect(r.code).toBe(200);
      expect((r.data as { euCode: string }).euCode).not.toBe('IWHBZIMYEOZETLFI');
      expect(await snapshot(100001)).toEqual(before);
    });
  });

  it('Jakarta supplement: update: true sets the missing activityId', async () => {
    const r = await add(1178, 21178, {
      uname: 'Rina Supplement',
      phone: '+62811000001',
      activityId: 11781,
      update: true,
    });
    expect(r.code).toBe(200);
    const row = await testEnv.DB.prepare('SELECT activity_id FROM registrations WHERE id = ?')
      .bind((r.data as { id: number }).id)
      .first<{ activity_id: number }>();
    expect(row?.activity_id).toBe(11781);
  });

  it('an identical repeat within the window answers the same registration', async () => {
    const values = { uname: 'Double Tap', phone: '+84900000077', email: 'double.tap@demo.test' };
    const first = await add(1314, 21314, values);
    const again = await add(1314, 21314, values);
    expect(first.code).toBe(200);
    expect(again).toEqual(first);
    const n = await testEnv.DB.prepare("SELECT count(*) AS n FROM registrations WHERE phone = '+84900000077'").first<{
      n: number;
    }>();
    expect(n?.n).toBe(1);
  });

  it.each([
    ['no name', { email: 'x1@demo.test' }, /uname/],
    ['no contact', { uname: 'X' }, /phone or an e-mail/],
    ['a bad e-mail', { uname: 'X', email: 'nope' }, /email/],
    ['a bad phone', { uname: 'X', phone: '12' }, /phone/],
    ['a foreign activity', { uname: 'X', email: 'x2@demo.test', activityId: 12001 }, /activityId/],
    ['not an object', ['uname'], /bad input/],
  ])('refuses %s', async (_what, values, msg) => {
    const r = await add(1178, 21178, values);
    expect(r.code).toBe(400);
    expect(r.msg).toMatch(msg);
  });

  it('refuses data that does not decrypt or is not JSON, an unknown url, and a body without fields', async () => {
    const post = (body: unknown) => call('/CustomerUserInfo/addUserInfo', { expoId: 1179, body });
    expect((await post({ urlsId: 21179, data: await enc('{}', 1308) })).msg).toMatch(/decrypt/);
    expect((await post({ urlsId: 21179, data: await enc('not json', 1179) })).msg).toMatch(/not JSON/);
    expect((await post({ urlsId: 99999, data: await enc('{}', 1179) })).code).toBe(404);
    expect((await post({})).code).toBe(400);
    expect((await post('nonsense')).code).toBe(400);
  });
});

describe('euCode', () => {
  it('registrations get distinct codes', async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const r = await call('/CustomerUserInfo/addUserInfo', {
        expoId: 1262,
        body: {
          urlsId: 21262,
          data: await enc(JSON.stringify({ uname: `Many ${i}`, email: `many${i}@demo.test` }), 1262),
        },
      });
      codes.add((r.data as { euCode: string }).euCode);
    }
    expect(codes.size).toBe(10);
  });
});
