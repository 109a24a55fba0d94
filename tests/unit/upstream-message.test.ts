import { describe, expect, it } from 'vitest';
import { cutText, readRefusal, refusalText, REFUSAL_RULES, UPSTREAM_TEXT_MAX } from '../../src/lib/page/upstream-message';
import { CODE_REFUSALS } from '../../functions/reference/verificationCode';
import { createT, MESSAGES } from '../../src/i18n';

describe('readRefusal (issue 14 item 1): the refusals the product knows', () => {
  it.each([
    // the reference's own words (functions/reference/sendLimit.ts, verificationCode.ts, expo.ts)
    [600, 'too frequent: wait 58 s before requesting another code', 'sendTooSoon', { n: 58 }, false],
    [600, 'too frequent: wait 1 s before requesting another code', 'sendTooSoon', { n: 1 }, false],
    [600, 'too many codes: at most 5 an hour for this contact; try again later', 'sendTooMany', {}, false],
    [600, 'Too many verification requests from this contact today; please wait and try again later.', 'sendTooMany', {}, false],
    [404, 'unknown expo 9999', 'unknownExpo', {}, false],
    [401, CODE_REFUSALS.locked, 'codeLocked', {}, true],
    [401, 'the code is wrong; no tries left, request a new code', 'codeLocked', {}, true],
    [401, CODE_REFUSALS.expired, 'codeExpired', {}, true],
    [401, CODE_REFUSALS.used, 'codeUsed', {}, true],
    [401, CODE_REFUSALS.none, 'codeNone', {}, true],
    [401, CODE_REFUSALS.wrong, 'codeWrong', {}, false],
    [401, 'the code is wrong; 3 tries left', 'codeWrong', {}, false],
    // the legacy API's Chinese shapes
    [600, '发送过于频繁，请60秒后再试', 'sendTooSoon', { n: 60 }, false],
    [600, '获取验证码过于频繁', 'sendTooSoon', { n: 60 }, false],
    [500, '验证码已过期', 'codeExpired', {}, true],
    [500, '验证码错误', 'codeWrong', {}, false],
  ] as const)('%i %s → %s', (code, msg, kind, vars, newCode) => {
    const v = readRefusal(code, msg);
    expect(v.kind).toBe(kind);
    expect(v.vars).toEqual(vars);
    expect(v.newCodeNeeded).toBe(newCode);
    expect(v.text).toBeNull();
  });

  it('a send refusal is recognised only with the contract\'s send code 600', () => {
    expect(readRefusal(401, 'too frequent: wait 5 s').kind).toBe('other');
    expect(readRefusal(600, 'too frequent: wait 5 s').kind).toBe('sendTooSoon');
  });

  it('"blocked" is not "locked"', () => {
    expect(readRefusal(600, 'number blocked by the carrier')).toMatchObject({ kind: 'other', text: 'number blocked by the carrier', newCodeNeeded: false });
  });

  it('a wrong code maps to no text (spec §8: a failed verify shows nothing)', () => {
    expect(readRefusal(401, 'the code is wrong').key).toBeNull();
    expect(refusalText(readRefusal(401, 'the code is wrong'), createT('en'))).toBe('');
  });

  it('an unknown message: the lead sentence, then the words cut to a readable length', () => {
    const long = `The SMS gateway says: ${'x'.repeat(400)}`;
    const v = readRefusal(600, long);
    expect(v).toMatchObject({ kind: 'other', key: 'search.upstreamSaid', newCodeNeeded: false });
    expect(v.text?.length).toBe(UPSTREAM_TEXT_MAX);
    expect(v.text?.endsWith('…')).toBe(true);
    expect(refusalText(v, createT('thai'))).toBe(`${MESSAGES.thai['search.upstreamSaid']}\n${v.text}`);
  });

  it('no message at all: spec §8\'s "error"', () => {
    expect(refusalText(readRefusal(600, null), createT('zh'))).toBe(MESSAGES.zh['error.generic']);
    expect(refusalText(readRefusal(600, '   '), createT('en'))).toBe(MESSAGES.en['error.generic']);
  });

  it('texts in the page language, with the wait', () => {
    const v = readRefusal(600, 'too frequent: wait 42 s before requesting another code');
    expect(refusalText(v, createT('zh'))).toBe('请在 42 秒后再获取新的验证码');
    expect(refusalText(v, createT('en'))).toBe('Please wait 42 s before asking for a new code');
    expect(refusalText(v, createT('thai'))).toBe('โปรดรอ 42 วินาทีก่อนขอรหัสใหม่');
  });

  it('every key a rule names exists in every catalogue', () => {
    for (const rule of REFUSAL_RULES) {
      if (rule.key === null) continue;
      for (const [lang, cat] of Object.entries(MESSAGES)) expect(cat[rule.key], `${lang} ${rule.key}`).toBeTruthy();
    }
  });
});

describe('cutText', () => {
  it('collapses whitespace and never splits a surrogate pair', () => {
    expect(cutText('  a \n b  ')).toBe('a b');
    expect(cutText(`${'a'.repeat(8)}😀😀`, 10)).toBe(`${'a'.repeat(8)}…`);
    expect(cutText('short', 10)).toBe('short');
  });
});
