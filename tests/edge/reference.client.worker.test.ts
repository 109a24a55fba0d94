/**
 * The upstream client (functions/upstream) against the reference upstream, in-process: both
 * sides of docs/upstream.md agree on a whole visitor journey.
 */
import { describe, expect, it } from 'vitest';
import { upstreamFor } from '../../functions/upstream/index';
import { outboxCode, testEnv } from './reference.helpers';

describe('upstream client × reference upstream', () => {
  const up = upstreamFor({ ...testEnv, UPSTREAM_URL: '' });

  it('config, e-mail code, verify, lookup, credential', async () => {
    const cfg = await up.getCustomerId({ expoId: 1308, fId: 21308 });
    expect(cfg.ok && cfg.data.customerWx?.id).toBe(5959);
    expect((await up.sendEmailCode({ expoId: 1308, email: 'several@demo.test', lang: 'zh' })).ok).toBe(true);
    const captcha = await outboxCode('several@demo.test');
    const contact = { type: 'email', email: 'several@demo.test' } as const;
    expect((await up.captchaVerify({ expoId: 1308, contact, captcha })).ok).toBe(true);
    const found = await up.queryRegistrations({ expoId: 1308, contact, captcha });
    expect(found.ok).toBe(true);
    const list = found.ok ? found.data : [];
    expect(list).toHaveLength(5);
    const cred = await up.queryCustomerCode({ expoId: 1308, euCode: list[0]?.euCode ?? '' });
    expect(cred.ok && cred.data.uname).toBe('李二');
  });

  it('+86 SMS code, verify and phone lookup', async () => {
    const contact = { type: 'phone', areaCode: '+86', national: '13800138000' } as const;
    expect((await up.sendSmsCode({ expoId: 1308, areaCode: '+86', national: '13800138000' })).ok).toBe(true);
    const captcha = await outboxCode('+8613800138000');
    expect((await up.captchaVerify({ expoId: 1308, contact, captcha })).ok).toBe(true);
    const found = await up.queryRegistrations({ expoId: 1308, contact, captcha });
    expect(found.ok && found.data.map((r) => r.euClass)).toEqual([3, 8]);
  });

  it('20003, the second form, and addUserInfo with 20001', async () => {
    const contact = { type: 'phone', areaCode: '+66', national: '800000002' } as const;
    expect((await up.sendSmsCode({ expoId: 1179, areaCode: '+66', national: '800000002' })).ok).toBe(true);
    const captcha = await outboxCode('+66800000002');
    const found = await up.queryRegistrations({ expoId: 1179, contact, captcha });
    expect(found.ok).toBe(false);
    expect(found.code).toBe(20003);
    const ref = !found.ok && 'data' in found ? (found.data as { userId: number; urlsId: number }) : null;
    const saved = await up.queryFromUserExpoId({ expoId: 1179, userId: ref?.userId ?? 0, urlsId: ref?.urlsId ?? 0 });
    expect(saved.ok).toBe(true);
    const added = await up.addUserInfo({
      expoId: 1179,
      urlsId: 21179,
      values: { uname: 'Client Person', email: 'client.person@demo.test' },
    });
    expect(added.ok && added.data.euCode).toMatch(/^[A-Z2-7]{16}$/);
    const dup = await up.addUserInfo({
      expoId: 1179,
      urlsId: 21179,
      values: { uname: 'Again', phone: '+66800000002' },
    });
    expect(dup.code).toBe(20001);
  });
});
