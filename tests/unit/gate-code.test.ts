/**
 * The one reading of a typed or scanned registration code (src/lib/gate/code.ts, issue 30): a
 * valid code typed on a phone keyboard (lower case, in groups, with 0 for O) is the code.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CODE_ALPHABET, CONFUSABLES, canonicalCode, codeReadings, normaliseCode } from '../../src/lib/gate/code';
import { listHash } from '../../src/lib/gate/offline';
import { ALPHABET as REFERENCE_ALPHABET, newEuCode } from '../../functions/reference/euCode';
import { routePath } from '../../src/lib/core/routes';

const CODE = 'PF4R5MHUHIPEQBHR';

describe('the code alphabet', () => {
  it('is the one the registration codes are made of (the reference upstream’s base32)', () => {
    expect(CODE_ALPHABET).toBe(REFERENCE_ALPHABET);
    for (let i = 0; i < 50; i++) {
      const code = newEuCode();
      expect(normaliseCode(code)).toBe(code);
      expect(normaliseCode(code.toLowerCase())).toBe(code);
    }
  });

  it('maps only characters the alphabet leaves out, each to a letter of it', () => {
    for (const [from, to] of Object.entries(CONFUSABLES)) {
      expect(CODE_ALPHABET, `${from} is not a code character`).not.toContain(from);
      expect(CODE_ALPHABET, `${to} is a code character`).toContain(to);
    }
    // base32 has no 0, 1 or 8: exactly these are read as the letters they are mistaken for
    expect(CONFUSABLES).toEqual({ '0': 'O', '1': 'I', '8': 'B' });
  });
});

describe('normaliseCode: a typed or scanned code', () => {
  it.each([
    ['lower case, as a phone keyboard starts', 'pf4r5mhuhipeqbhr'],
    ['lower case in the groups of four the credential shows', 'pf4r 5mhu hipe qbhr'],
    ['mixed case, spaces around', '  Pf4R 5mHu HIPE qbhr \n'],
    ['dashes between the groups', 'PF4R-5MHU-HIPE-QBHR'],
    ['other dashes and a tab', 'pf4r–5mhu—hipe\tqbhr'],
    ['full-width letters and a full-width space (a CJK input method)', 'ＰＦ４Ｒ\u30005ＭＨＵ ＨＩＰＥ ＱＢＨＲ'],
    ['0 typed for O', 'PF4R5MHUHIPEQBHR'.replace('O', '0')],
    ['1 typed for I', 'PF4R5MHUH1PEQBHR'],
    ['8 typed for B', 'PF4R5MHUHIPEQ8HR'],
    ['all of it at once', 'pf4r-5mhu h1pe q8hr'],
  ])('%s', (_why, typed) => {
    expect(normaliseCode(typed)).toBe(CODE);
  });

  it('reads a code with O, I, B typed as digits to the code the credential shows', () => {
    expect(normaliseCode('I0NNWZJM2Q5HHMQG'.toLowerCase())).toBe('IONNWZJM2Q5HHMQG');
    expect(normaliseCode('ocean0nevisit0ra')).toBe('OCEANONEVISITORA');
  });

  it('takes the code of one of our credential links, on any host, case-blind; nothing of any other link', () => {
    const path = routePath({ screen: 'credential', variant: null, params: { urlId: 21308, euCode: CODE, expoId: 1308, fId: 21308 } });
    expect(normaliseCode(`https://expo.example${path}`)).toBe(CODE);
    expect(normaliseCode('http://127.0.0.1:8787/IEAESuccess/MjEzMDg/UEY0UjVNSFVISVBFUUJIUg/MTMwOA/21308/?f=x')).toBe(CODE);
    expect(normaliseCode('https://expo.example/haisiSuccessEn/MjEzMDg/UEY0UjVNSFVISVBFUUJIUg/MTMwOA/21308')).toBe(CODE);
    expect(normaliseCode('https://expo.example/IEAESearch/10542/MTMwOA/visitor')).toBeNull();
    expect(normaliseCode('https://evil.example/x?code=PF4R5MHUHIPEQBHR')).toBeNull();
    expect(normaliseCode('javascript:alert(1)')).toBeNull();
  });

  it('reads nothing from an empty text, a text with other characters or one too long', () => {
    for (const text of [null, undefined, '', '   ', 'a;b', 'PF4R!', 'not a code!', 'x'.repeat(65), '<script>']) {
      expect(normaliseCode(text), String(text)).toBeNull();
    }
  });

  it('keeps a code of another alphabet as typed (spaces dropped): nothing is guessed beyond base32', () => {
    // 9 and _ are no base32 and no confusable: an organiser whose codes have them gets them exactly
    expect(normaliseCode(' ab9_x ')).toBe('ab9_x');
    expect(canonicalCode('AB-9')).toBe('AB-9');
  });

  it('is stable: a normalised code normalises to itself', () => {
    for (const typed of ['pf4r 5mhu h1pe q8hr', 'ab9_x', 'ＡＢＣ']) {
      const once = normaliseCode(typed);
      expect(once).not.toBeNull();
      expect(normaliseCode(once)).toBe(once);
    }
  });
});

describe('the offline list key of a typed code', () => {
  it('is the hash of the code itself, however it was typed', async () => {
    const want = createHash('sha256').update(`1308:${CODE}`).digest('hex');
    for (const typed of [CODE, 'pf4r 5mhu hipe qbhr', 'PF4R-5MHU-H1PE-Q8HR']) expect(await listHash(1308, typed)).toBe(want);
  });
});

describe('codeReadings: every reading the organiser may know a code by', () => {
  it('the alphabet\'s reading first, then upper case with 0/1/8 kept, then as typed', () => {
    expect(codeReadings('ab0c-d1')).toEqual(['ABOCDI', 'AB0CD1', 'ab0cd1']);
    expect(codeReadings('PF4R 5MHU')).toEqual(['PF4R5MHU']);
    expect(codeReadings('pf4r')).toEqual(['PF4R', 'pf4r']);
    expect(codeReadings('   ')).toEqual([]);
  });
});
