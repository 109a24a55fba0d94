import { describe, expect, it } from 'vitest';
import { Envelope, FormConfig, Registration, isSuccessCode } from '../../src/lib/contract';

describe('upstream contract schemas read replies defensively', () => {
  it('coerces numeric strings and defaults missing fields to null', () => {
    const r = Registration.parse({ id: '5', uname: null, euClass: 3 });
    expect(r).toMatchObject({ id: 5, uname: null, euClass: 3, euCode: null, euDefine: null });
  });

  it('keeps a config whose parts are missing', () => {
    const c = FormConfig.parse({ customerWx: { signType: '2' } });
    expect(c.customerWx?.signType).toBe(2);
    expect(c.expoInfo).toBeNull();
    expect(c.activity).toBeNull();
  });

  it('requires a numeric code in the envelope', () => {
    expect(Envelope.safeParse({ code: 'x' }).success).toBe(false);
    expect(Envelope.parse({ code: '200', msg: 'ok' })).toMatchObject({ code: 200, msg: 'ok' });
  });

  it.each([
    [200, true],
    [201, true],
    [202, true],
    [600, false],
    [20003, false],
  ])('code %i success: %s', (code, ok) => {
    expect(isSuccessCode(code)).toBe(ok);
  });
});
