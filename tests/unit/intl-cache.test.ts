import { describe, expect, it } from 'vitest';
import { dateFormat, numberFormat } from '../../src/lib/util/intl-cache';
import { qrMatrix, qrSize } from '../../src/lib/util/qr-png';

describe('Intl formatters made once (issue 24: a millisecond of CPU each)', () => {
  it('the same locale and options give the same formatter, which formats as a new one', () => {
    const o: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' };
    expect(dateFormat('th-TH', o)).toBe(dateFormat('th-TH', { ...o }));
    expect(dateFormat('th-TH', o)).not.toBe(dateFormat('en-GB', o));
    const d = new Date(Date.UTC(2026, 11, 1));
    expect(dateFormat('th-TH', o).format(d)).toBe(new Intl.DateTimeFormat('th-TH', o).format(d));
    const money: Intl.NumberFormatOptions = { style: 'currency', currency: 'THB' };
    expect(numberFormat('th', money)).toBe(numberFormat('th', money));
    expect(numberFormat('th', money).format(1200)).toBe(new Intl.NumberFormat('th', money).format(1200));
  });

  it('an unknown currency throws as Intl does, and nothing is kept', () => {
    expect(() => numberFormat('en', { style: 'currency', currency: 'NOPE!' })).toThrow(RangeError);
    expect(() => numberFormat('en', { style: 'currency', currency: 'NOPE!' })).toThrow(RangeError);
  });
});

describe('qrSize: the matrix side without drawing it on every view', () => {
  it('is the matrix\'s size, for short and long codes', () => {
    for (const code of ['XCOE6GON4WB4N6BR', 'A', 'https://expo.example/IEAESuccess/MjEzMDg/SVdIQlpJTVlFT1pFVExGSQ/MTMwOA/21308/']) {
      expect(qrSize(code)).toBe(qrMatrix(code).size);
      expect(qrSize(code)).toBe(qrMatrix(code).size);
    }
  });
});
