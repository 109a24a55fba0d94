import { describe, expect, it } from 'vitest';
import { Registration } from '../../src/lib/contract';
import { charLength, classKey, registrationLabel } from '../../src/lib/core/labels';

/** A catalogue stand-in that shows which key was asked for. */
const t = (key: string) => `<${key}>`;

describe('classKey (spec §3)', () => {
  it.each([0, 2, 3, 4, 5, 6, 7, 8, 9])('class %i has its own key', (c) => {
    expect(classKey(c)).toBe(`class.${c}`);
  });

  it.each([1, 10, -1, 3.5, null, undefined, Number.NaN])('unknown class %s falls back to class.0', (c) => {
    expect(classKey(c)).toBe('class.0');
  });
});

describe('charLength counts code points', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['展会', 2],
    ['👍🏽', 2],
    ['😀😀', 2],
  ])('%j has %i characters', (s, n) => {
    expect(charLength(s)).toBe(n);
  });
});

describe('registrationLabel (spec §2.1, §9)', () => {
  it('is the class name', () => {
    expect(registrationLabel({ euClass: 3 }, t)).toBe('<class.3>');
    expect(registrationLabel({ euClass: 0, euDefine: null, ticketName: null }, t)).toBe('<class.0>');
  });

  it('falls back to class.0 for an unknown or missing class', () => {
    expect(registrationLabel({ euClass: 42 }, t)).toBe('<class.0>');
    expect(registrationLabel({}, t)).toBe('<class.0>');
  });

  it('is the ticket name for class 8', () => {
    expect(registrationLabel({ euClass: 8, ticketName: 'Day pass' }, t)).toBe('Day pass');
    expect(registrationLabel({ euClass: 8, ticketName: '  Day pass ' }, t)).toBe('Day pass');
  });

  it.each([null, undefined, '', '   '])('falls back to class.8 when the ticket name is %j', (ticketName) => {
    expect(registrationLabel({ euClass: 8, ticketName }, t)).toBe('<class.8>');
  });

  it('ignores a ticket name on other classes', () => {
    expect(registrationLabel({ euClass: 2, ticketName: 'Day pass' }, t)).toBe('<class.2>');
  });

  it('prefixes a short euDefine', () => {
    expect(registrationLabel({ euClass: 3, euDefine: 'Speaker' }, t)).toBe('Speaker | <class.3>');
    expect(registrationLabel({ euClass: 8, euDefine: 'Group', ticketName: 'Day pass' }, t)).toBe('Group | Day pass');
  });

  it('trims euDefine before counting and showing it', () => {
    expect(registrationLabel({ euClass: 3, euDefine: '  Speaker  ' }, t)).toBe('Speaker | <class.3>');
    // 19 characters plus padding: still shown.
    expect(registrationLabel({ euClass: 3, euDefine: ` ${'a'.repeat(19)} ` }, t)).toBe(`${'a'.repeat(19)} | <class.3>`);
  });

  it.each([null, undefined, '', '    '])('shows no prefix for euDefine %j', (euDefine) => {
    expect(registrationLabel({ euClass: 4, euDefine }, t)).toBe('<class.4>');
  });

  const cases: [string, number, string, boolean][] = [
    ['ASCII', 19, 'a'.repeat(19), true],
    ['ASCII', 20, 'a'.repeat(20), false],
    ['CJK', 19, '展'.repeat(19), true],
    ['CJK', 20, '展'.repeat(20), false],
    // Each emoji is one code point but two UTF-16 units (and four UTF-8 bytes): 19 emoji are
    // 38 units, so counting units would wrongly hide it.
    ['emoji', 19, '😀'.repeat(19), true],
    ['emoji', 20, '😀'.repeat(20), false],
    ['mixed', 19, `展会${'😀'.repeat(7)}${'a'.repeat(10)}`, true],
    ['mixed', 20, `展会${'😀'.repeat(8)}${'a'.repeat(10)}`, false],
  ];
  it.each(cases)('%s euDefine of %i characters: shown %s', (_, length, euDefine, shown) => {
    expect(charLength(euDefine)).toBe(length);
    expect(registrationLabel({ euClass: 3, euDefine }, t)).toBe(shown ? `${euDefine} | <class.3>` : '<class.3>');
  });

  it('reads records parsed from the upstream', () => {
    const r = Registration.parse({ euClass: '2', euDefine: '展商', uname: 'Lee' });
    expect(registrationLabel(r, t)).toBe('展商 | <class.2>');
  });
});
