import { describe, expect, it } from 'vitest';
import { CODE_GROUP_SIZE, codeGroups, codeParts, spokenCode } from '../../src/lib/lookup/code-groups';

describe('codeGroups (issue 14: the code in groups of 4 at the gate)', () => {
  it.each([
    ['IWHBZIMYEOZETLFI', ['IWHB', 'ZIMY', 'EOZE', 'TLFI']],
    ['ABCD', ['ABCD']],
    // lengths that are not a multiple of 4: the last group holds the rest
    ['AB12CD34E', ['AB12', 'CD34', 'E']],
    ['AB12CD34EF', ['AB12', 'CD34', 'EF']],
    ['AB12CD34EFG', ['AB12', 'CD34', 'EFG']],
    ['ABC', ['ABC']],
    ['A', ['A']],
    ['', []],
    ['  ABCDEF \n', ['ABCD', 'EF']],
  ])('%j → %j', (code, groups) => {
    expect(codeGroups(code)).toEqual(groups);
  });

  it('joined again, the groups are the code: nothing added, nothing lost', () => {
    for (const code of ['IWHBZIMYEOZETLFI', 'AB12CD34E', 'O0O0I1I1l', 'x']) {
      expect(codeGroups(code).join('')).toBe(code);
      expect(codeGroups(code).every((g) => g.length <= CODE_GROUP_SIZE && g.length > 0)).toBe(true);
    }
  });

  it('counts code points, so a character outside the BMP is not split', () => {
    expect(codeGroups('AB😀CDE')).toEqual(['AB😀C', 'DE']);
  });

  it('takes another size, and never loops on a size below 1', () => {
    expect(codeGroups('ABCDEF', 3)).toEqual(['ABC', 'DEF']);
    expect(codeGroups('ABC', 0)).toEqual(['A', 'B', 'C']);
  });
});

describe('codeParts: each digit zero alone, to carry its dot', () => {
  it.each([
    ['ABCD', [{ text: 'ABCD', zero: false }]],
    ['A0B', [{ text: 'A', zero: false }, { text: '0', zero: true }, { text: 'B', zero: false }]],
    ['00', [{ text: '0', zero: true }, { text: '0', zero: true }]],
    ['0O0', [{ text: '0', zero: true }, { text: 'O', zero: false }, { text: '0', zero: true }]],
    ['', []],
  ])('%j', (group, parts) => {
    expect(codeParts(group)).toEqual(parts);
    expect(codeParts(group).map((p) => p.text).join('')).toBe(group);
  });

  it('marks the digit only, never the letter O', () => {
    expect(codeParts('OOOO').some((p) => p.zero)).toBe(false);
  });
});

describe('spokenCode: what a screen reader gets', () => {
  it.each([
    ['IWHBZIMYEOZETLFI', 'I W H B, Z I M Y, E O Z E, T L F I'],
    ['AB12CD', 'A B 1 2, C D'],
    ['O0', 'O 0'],
    ['', ''],
  ])('%j → %j', (code, spoken) => {
    expect(spokenCode(code)).toBe(spoken);
  });
});
