import { describe, expect, it } from 'vitest';
import {
  COMPANY_MAX,
  companyChoices,
  parseSeatResult,
  seatResultPath,
  shouldFetchCompanies,
  validateSeatName,
  validateSeatQuery,
} from '../../src/lib/seats';
import { createT } from '../../src/i18n';
import { LANGS } from '../../src/lib/languages';

describe('seat query validation (spec §5)', () => {
  it('needs a name, then a company; trims and folds spaces', () => {
    expect(validateSeatName('  ')).toEqual({ ok: false, field: 'userName', key: 'seat.nameRequired' });
    expect(validateSeatQuery({ userName: '', companyName: 'x' })).toMatchObject({ field: 'userName', key: 'seat.nameRequired' });
    expect(validateSeatQuery({ userName: '张伟', companyName: ' ' })).toMatchObject({ field: 'companyName', key: 'seat.companyRequired' });
    expect(validateSeatQuery({ userName: ' 张  伟 ', companyName: ' A  B ' })).toEqual({ ok: true, value: { userName: '张 伟', companyName: 'A B' } });
    expect(validateSeatQuery({ userName: 'x'.repeat(101), companyName: 'y' })).toMatchObject({ key: 'seat.tooLong' });
    expect(validateSeatQuery({ userName: 3, companyName: null })).toMatchObject({ key: 'seat.nameRequired' });
  });

  it('asks for companies from 2 characters; keeps at most 20 distinct names', () => {
    expect(shouldFetchCompanies('华')).toBe(false);
    expect(shouldFetchCompanies(' 华信 ')).toBe(true);
    const many = Array.from({ length: 30 }, (_, i) => `Co ${i % 25}`);
    expect(companyChoices([...many, '', null, 7])).toHaveLength(COMPANY_MAX);
    expect(companyChoices(['a', ' a ', 'b', ''])).toEqual(['a', 'b']);
  });

  it('has its messages in all seven languages', () => {
    for (const lang of LANGS) {
      const t = createT(lang);
      for (const key of ['seat.nameRequired', 'seat.companyRequired', 'seat.noSeat', 'seat.tooLong'] as const) {
        expect(t(key), `${lang} ${key}`).not.toBe('');
      }
    }
    expect(createT('en')('seat.noSeat')).toBe('No seat number information found');
    expect(createT('zh')('seat.nameRequired')).toBe('请输入姓名');
  });
});

describe('seat result routes (spec §2.3, §9)', () => {
  it('1128 uses /zuoweiSuccess, the variants /successYeJinJi with expoId', () => {
    expect(seatResultPath(1128, { userName: 'a', companyName: 'b', seat: 'A 1' })).toBe('/zuoweiSuccess?userName=a&companyName=b&seat=A+1');
    expect(seatResultPath(1235, { userName: 'a', companyName: 'b', seat: 'C' })).toBe('/successYeJinJi?userName=a&companyName=b&seat=C&expoId=1235');
  });

  it('reads the result query; a missing value or a bad expoId is none; no expoId is 1235', () => {
    const q = (s: string) => new URLSearchParams(s);
    expect(parseSeatResult(q('userName=a&companyName=b&seat=c'), false)).toEqual({ userName: 'a', companyName: 'b', seat: 'c' });
    expect(parseSeatResult(q('userName=a&companyName=b'), false)).toBeNull();
    expect(parseSeatResult(q('userName=a&companyName=b&seat=c'), true)).toMatchObject({ expoId: 1235 });
    expect(parseSeatResult(q('userName=a&companyName=b&seat=c&expoId=x'), true)).toBeNull();
    expect(parseSeatResult(q(`userName=${'x'.repeat(101)}&companyName=b&seat=c`), false)).toBeNull();
  });
});

describe('seat map url', () => {
  it('is a path on this site or https', async () => {
    const { seatImageUrl } = await import('../../src/lib/seats');
    expect(seatImageUrl('/seat-map.svg')).toBe('/seat-map.svg');
    expect(seatImageUrl('https://cdn.example/m.png')).toBe('https://cdn.example/m.png');
    for (const bad of ['//evil.example/x.png', '/\\evil', 'http://x/y.png', 'javascript:alert(1)', '', null]) expect(seatImageUrl(bad)).toBeNull();
  });
});
