import { describe, expect, it } from 'vitest';
import { ID_WEIGHTS, idCheckChar, idNumberProblem, idTypesFor, isLegalIdNumber } from '../../src/lib/form/id-number';

/** The check character straight from ISO 7064 MOD 11-2's definition: the c with (Σ aᵢ·2^(18-i) + c) ≡ 1 (mod 11). */
function checkFromDefinition(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * (2 ** (17 - i) % 11);
  for (let c = 0; c <= 10; c++) if ((sum + c) % 11 === 1) return c === 10 ? 'X' : String(c);
  throw new Error('no check character');
}

const TODAY = new Date(Date.UTC(2026, 5, 1));
const withCheck = (first17: string) => first17 + checkFromDefinition(first17);

describe('mainland ID numbers (GB 11643-1999, spec §5 "ID number not legal")', () => {
  it('weights are 2^(17-i) mod 11', () => {
    // From the definition, not a copy of the table (a copy agrees with any typo in it).
    expect(ID_WEIGHTS).toEqual(Array.from({ length: 17 }, (_, i) => 2 ** (17 - i) % 11));
  });

  it('computes the check character the definition gives, X for 10', () => {
    for (const body of [
      '11010519491231002',
      '44030419900101123',
      '31011519851207001',
      '51010719991231456',
      '65010220000229111',
    ]) {
      expect(idCheckChar(body)).toBe(checkFromDefinition(body));
    }
    expect(idCheckChar('11010519491231002')).toBe('X');
  });

  it('accepts real-shaped numbers with the right check character (lowercase x too)', () => {
    for (const body of [
      '11010519491231002',
      '44030419900101123',
      '31011519851207001',
      '65010220000229111',
      '81000019800101001',
    ]) {
      const id = withCheck(body);
      expect(idNumberProblem(id, TODAY), id).toBeNull();
      expect(isLegalIdNumber(` ${id.toLowerCase()} `, TODAY)).toBe(true);
    }
  });

  it('refuses a wrong check character', () => {
    const good = withCheck('44030419900101123');
    const last = good[17] ?? '';
    const wrong = good.slice(0, 17) + (last === '0' ? '1' : '0');
    expect(idNumberProblem(wrong, TODAY)).toBe('checkDigit');
    expect(idNumberProblem('110105194912310021', TODAY)).toBe('checkDigit');
  });

  it('refuses bad shapes, regions and birth dates', () => {
    expect(idNumberProblem('1101051949123100', TODAY)).toBe('shape');
    expect(idNumberProblem('11010519491231002Y', TODAY)).toBe('shape');
    expect(idNumberProblem('11010519491231002X1', TODAY)).toBe('shape');
    expect(idNumberProblem(withCheck('99010519491231002'), TODAY)).toBe('region');
    expect(idNumberProblem(withCheck('11000019491231002'), TODAY)).toBe('region');
    expect(idNumberProblem(withCheck('11010519490230002'), TODAY)).toBe('birthDate'); // 30 February
    expect(idNumberProblem(withCheck('11010519010229002'), TODAY)).toBe('birthDate'); // 1901 is not a leap year
    expect(idNumberProblem(withCheck('11010518991231002'), TODAY)).toBe('birthDate'); // before 1900
    expect(idNumberProblem(withCheck('11010520300101002'), TODAY)).toBe('birthDate'); // in the future
    expect(idNumberProblem(withCheck('11010520000229002'), TODAY)).toBeNull(); // 2000 is a leap year
  });
});

describe('ID document types (spec §3)', () => {
  it('offers 1-5 on Chinese pages and 6 (other) only in the English list', () => {
    expect(idTypesFor('zh')).toEqual([1, 2, 3, 4, 5]);
    expect(idTypesFor('tw')).toEqual([1, 2, 3, 4, 5]);
    expect(idTypesFor('en')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(idTypesFor('thai')).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
