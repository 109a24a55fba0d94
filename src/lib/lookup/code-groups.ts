/**
 * The registration code as it is read aloud at the gate: groups of 4 characters
 * from the start (a last group may be shorter), each digit zero marked so that it is not read
 * as the letter O, and a spoken form for screen readers, character by character with a pause
 * between groups. The page shows the groups; the code itself (copy, QR, lookups) stays one
 * string: grouping only decides where the eye and the line may break.
 */

/** Characters per group. */
export const CODE_GROUP_SIZE = 4;

/**
 * The code in groups of `size` characters, from the start; the last group holds the rest.
 * Whitespace around the code is dropped; characters are counted as code points.
 * @example codeGroups('IWHBZIMYEOZETLFI') // ['IWHB', 'ZIMY', 'EOZE', 'TLFI']
 * @example codeGroups('AB12CD34E') // ['AB12', 'CD34', 'E']
 */
export function codeGroups(code: string, size: number = CODE_GROUP_SIZE): string[] {
  const chars = Array.from(code.trim());
  const step = Math.max(1, Math.floor(size));
  const groups: string[] = [];
  for (let i = 0; i < chars.length; i += step) groups.push(chars.slice(i, i + step).join(''));
  return groups;
}

/** A run of a group's characters: `zero` runs are the digit 0 alone, drawn with a dot. */
export interface CodePart {
  text: string;
  zero: boolean;
}

/**
 * A group split into runs so that each digit zero can carry a mark (a dot drawn by the page):
 * phones' monospace fonts do not all tell 0 from O (Android's Droid Sans Mono does not).
 * @example codeParts('A0B') // [{ text: 'A', zero: false }, { text: '0', zero: true }, { text: 'B', zero: false }]
 */
export function codeParts(group: string): CodePart[] {
  return group
    .split(/(0)/)
    .filter((text) => text !== '')
    .map((text) => ({ text, zero: text === '0' }));
}

/**
 * The code for a screen reader: every character apart (so it is spelled, not pronounced as a
 * word; a reader says "zero" for 0 and "O" for O), groups separated by a comma (a pause).
 * @example spokenCode('AB12CD') // 'A B 1 2, C D'
 */
export function spokenCode(code: string, size: number = CODE_GROUP_SIZE): string {
  return codeGroups(code, size)
    .map((group) => Array.from(group).join(' '))
    .join(', ');
}
