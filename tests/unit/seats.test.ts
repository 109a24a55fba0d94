import { describe, expect, it } from 'vitest';
import {
  COMPANY_MAX,
  companyChoices,
  companySuggestions,
  parseSeatResult,
  readSeatResult,
  sameSeatText,
  seatKey,
  seatResultPath,
  shouldFetchCompanies,
  validateSeatName,
  validateSeatQuery,
} from '../../src/lib/seat/seats';
import { createT } from '../../src/i18n';
import { LANGS } from '../../src/lib/core/languages';

describe('seat query validation (spec §5)', () => {
  it('needs a name, then a company; trims and folds spaces', () => {
    expect(validateSeatName('  ')).toEqual({ ok: false, field: 'userName', key: 'seat.nameRequired' });
    expect(validateSeatQuery({ userName: '', companyName: 'x' })).toMatchObject({ field: 'userName', key: 'seat.nameRequired' });
    expect(validateSeatQuery({ userName: '张伟', companyName: ' ' })).toMatchObject({ field: 'companyName', key: 'seat.companyRequired' });
    expect(validateSeatQuery({ userName: ' 张  伟 ', companyName: ' A  B ' })).toEqual({ ok: true, value: { userName: '张 伟', companyName: 'A B' } });
    expect(validateSeatQuery({ userName: 'x'.repeat(101), companyName: 'y' })).toMatchObject({ key: 'seat.tooLong' });
    expect(validateSeatQuery({ userName: 3, companyName: null })).toMatchObject({ key: 'seat.nameRequired' });
  });

  it('asks for companies from 3 characters; keeps at most 20 distinct names', () => {
    expect(shouldFetchCompanies('华')).toBe(false);
    expect(shouldFetchCompanies(' 华信 ')).toBe(false);
    expect(shouldFetchCompanies(' 华信科 ')).toBe(true);
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

describe('exact names only (issue 19 item 4)', () => {
  it('folds case, spacing and full-width forms; a part is never the whole', () => {
    expect(seatKey('  ACME\u3000 Trading ')).toBe('acme trading');
    expect(sameSeatText('Acme  Trading', 'acme trading')).toBe(true);
    expect(sameSeatText('ＡＣＭＥ', 'acme')).toBe(true);
    expect(sameSeatText('东方电子', '东方电子集团')).toBe(false);
    expect(sameSeatText('', '')).toBe(false);
    expect(sameSeatText(null, 'x')).toBe(false);
  });

  it('suggests only companies that start with what was typed, from 3 characters', () => {
    const upstream = ['东方电子集团', '南方电子', '华信科技有限公司', 'Acme Trading', 7];
    expect(companySuggestions(upstream, '东方电')).toEqual(['东方电子集团']);
    expect(companySuggestions(upstream, '电子集')).toEqual([]);
    expect(companySuggestions(upstream, 'acme  t')).toEqual(['Acme Trading']);
    expect(companySuggestions(upstream, '东方')).toEqual([]);
  });
});

describe('seat result routes (spec §2.3, §9)', () => {
  const SECRET = 'a-test-secret-of-32-characters!!';
  const q = (path: string) => new URLSearchParams(path.slice(path.indexOf('?') + 1));

  it('1128 uses /zuoweiSuccess, the variants /successYeJinJi with expoId; both signed, with the lookup\'s fId', async () => {
    const z = await seatResultPath({ expoId: 1128, fId: 21128 }, { userName: 'a', companyName: 'b', seat: 'A 1' }, SECRET);
    expect(z).toMatch(/^\/zuoweiSuccess\?userName=a&companyName=b&seat=A\+1&fId=21128&sig=[A-Za-z0-9_-]{43}$/);
    const y = await seatResultPath({ expoId: 1235, fId: 21235 }, { userName: 'a', companyName: 'b', seat: 'C' }, SECRET);
    expect(y).toMatch(/^\/successYeJinJi\?userName=a&companyName=b&seat=C&expoId=1235&fId=21235&sig=/);
    expect(await readSeatResult(q(z), 'zuowei', SECRET)).toEqual({ ok: true, result: { userName: 'a', companyName: 'b', seat: 'A 1' } });
    expect(await readSeatResult(q(y), 'yejinji', SECRET)).toEqual({ ok: true, result: { userName: 'a', companyName: 'b', seat: 'C', expoId: 1235 } });
  });

  it('an unsigned, altered, moved or foreign-secret query is not a result: back to its lookup, or none', async () => {
    const y = await seatResultPath({ expoId: 1235, fId: 21235 }, { userName: 'a', companyName: 'b', seat: 'C' }, SECRET);
    const lookup = { ok: false, lookup: { expoId: 1235, fId: 21235 } };
    const altered = q(y);
    altered.set('seat', 'VIP 1');
    expect(await readSeatResult(altered, 'yejinji', SECRET)).toEqual(lookup);
    const unsigned = q(y);
    unsigned.delete('sig');
    expect(await readSeatResult(unsigned, 'yejinji', SECRET)).toEqual(lookup);
    expect(await readSeatResult(q(y), 'yejinji', 'another-secret-of-32-characters!')).toEqual(lookup);
    // The same signature on the other result page, or for another expo, is not valid either.
    expect((await readSeatResult(q(y), 'zuowei', SECRET)).ok).toBe(false);
    const moved = q(y);
    moved.set('expoId', '1193');
    expect(await readSeatResult(moved, 'yejinji', SECRET)).toEqual({ ok: false, lookup: { expoId: 1193, fId: 21235 } });
    // The spec's bare query (no fId): no lookup to go back to; an expo without seat lookup: none either.
    expect(await readSeatResult(q('?userName=<b>x</b>&companyName=b&seat=c'), 'zuowei', SECRET)).toEqual({ ok: false, lookup: null });
    expect(await readSeatResult(q('?userName=a&companyName=b&seat=c&expoId=2002&fId=1'), 'yejinji', SECRET)).toEqual({ ok: false, lookup: null });
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
    const { seatImageUrl } = await import('../../src/lib/seat/seats');
    expect(seatImageUrl('/seat-map.svg')).toBe('/seat-map.svg');
    expect(seatImageUrl('https://cdn.example/m.png')).toBe('https://cdn.example/m.png');
    for (const bad of ['//evil.example/x.png', '/\\evil', 'http://x/y.png', 'javascript:alert(1)', '', null]) expect(seatImageUrl(bad)).toBeNull();
  });
});
