import { describe, expect, it } from 'vitest';
import { Path } from '../../src/lib/contract';
import { LANGS } from '../../src/lib/core/languages';
import { EXPO_SENDERS, emailSenderPath, smsPhone, smsRule, smsSenderPath } from '../../functions/upstream/senders';
import { fullPhone, normalizeAreaCode } from '../../src/lib/form/phone';

describe('SMS sender by area code (docs/upstream.md "Calls")', () => {
  it.each([
    ['+86', Path.getCaptcha],
    ['86', Path.getCaptcha],
    ['+886', Path.getSmsGJTWCode],
    ['+66', Path.getSmsGJEnCode],
    ['+852', Path.getSmsGJEnCode],
    ['+62', Path.getSmsGJEnCode],
    ['+84', Path.getSmsGJEnCode],
    ['+1', Path.getSmsGJEnCode],
    ['+8', Path.getSmsGJEnCode],
  ])('%s → %s', (area, path) => {
    expect(smsSenderPath(area)).toBe(path);
  });

  it('+86 takes the bare national number, every other code the full phone', () => {
    expect(smsRule('+86').phone).toBe('national');
    expect(smsRule('+886').phone).toBe('full');
    expect(smsRule('+60').phone).toBe('full');
  });
});

describe('phones on the wire', () => {
  it('normalises the area code', () => {
    expect(normalizeAreaCode('+66')).toBe('+66');
    expect(normalizeAreaCode(' 66 ')).toBe('+66');
  });

  it('fullPhone is E.164 for every area code, +86 included', () => {
    expect(fullPhone('+66', '812345678')).toBe('+66812345678');
    expect(fullPhone('+86', '13812345678')).toBe('+8613812345678');
    expect(fullPhone('886', '912 345-678')).toBe('+886912345678');
  });

  it('smsPhone is the bare national number for +86 and the full phone otherwise', () => {
    expect(smsPhone('+86', '13812345678')).toBe('13812345678');
    expect(smsPhone('+86', '138 1234 5678')).toBe('13812345678');
    expect(smsPhone('+886', '912345678')).toBe('+886912345678');
    expect(smsPhone('+66', '812345678')).toBe('+66812345678');
  });
});

describe('e-mail sender by page language (docs/upstream.md "Calls")', () => {
  it.each([
    ['zh', Path.getemailCode],
    ['en', Path.getemailCodeEn],
    ['thai', Path.getemailCodeEn],
    ['ms', Path.getemailCodeEn],
    ['tw', Path.getemailCodeTw],
    ['vn', Path.getemailCodeVietnam],
    ['id', Path.getemailCodeYN],
  ])('%s → %s', (lang, path) => {
    expect(emailSenderPath(lang)).toBe(path);
  });

  it('covers every language code', () => {
    for (const lang of LANGS) expect(Object.values(Path)).toContain(emailSenderPath(lang));
  });

  it('falls back to the zh sender for an unknown code', () => {
    expect(emailSenderPath('fr')).toBe(Path.getemailCode);
  });
});

describe('senders of special expos (spec §7; docs/upstream.md "Senders of special expos")', () => {
  it('1177 sends SMS through getSmsCodeHJC, 1380 through getSmsCodeHaiSC, every area code, with its phone form', () => {
    expect(smsRule('+86', 1177)).toEqual({ path: Path.getSmsCodeHJC, phone: 'national' });
    expect(smsRule('+852', 1177)).toEqual({ path: Path.getSmsCodeHJC, phone: 'full' });
    expect(smsRule('+86', 1380)).toEqual({ path: Path.getSmsCodeHaiSC, phone: 'national' });
    expect(smsSenderPath('+66', 1380)).toBe(Path.getSmsCodeHaiSC);
  });

  it('1349 sends e-mail through getemailCodeEn2 whatever the language; its SMS stay by area code', () => {
    for (const lang of LANGS) expect(emailSenderPath(lang, 1349)).toBe(Path.getemailCodeEn2);
    expect(smsSenderPath('+86', 1349)).toBe(Path.getCaptcha);
  });

  it('other expos keep the area-code and language senders', () => {
    expect(smsSenderPath('+86', 1308)).toBe(Path.getCaptcha);
    expect(emailSenderPath('en', 1177)).toBe(Path.getemailCodeEn);
    expect(emailSenderPath('zh', 1380)).toBe(Path.getemailCode);
  });

  it('every sender of the table is a contract path', () => {
    for (const s of Object.values(EXPO_SENDERS)) {
      for (const p of [s.sms, s.email]) if (p) expect(Object.values(Path)).toContain(p);
    }
  });
});
