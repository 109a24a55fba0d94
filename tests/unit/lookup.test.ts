import { describe, expect, it } from 'vitest';
import { Registration } from '../../src/lib/contract';
import { decodeId, encodeId } from '../../src/lib/util/ids';
import {
  bypassOutcome,
  createtimeValue,
  decideOutcome,
  filterRecords,
  foundCodes,
  formPath,
  parseSuccessParams,
  successPath,
  type LookupRecord,
} from '../../src/lib/lookup/lookup';
import { variantByExpoId, type Variant } from '../../src/lib/core/variants';
import { readSecondFormRef } from '../../src/lib/util/domain';

const v = (id: number): Variant => {
  const found = variantByExpoId(id);
  if (!found) throw new Error(`no variant ${id}`);
  return found;
};
const ieae = v(1308);
const jakarta = v(1178);
const bangkok = v(1179);
const asia = v(1312);

type Rec = LookupRecord & { id: number };
let next = 1;
const rec = (over: Partial<Rec> = {}): Rec => ({
  id: next++,
  euCode: `C${next}`,
  euClass: 0,
  createtime: '2024-05-01 10:00:00',
  activityId: 1,
  ...over,
});
const ids = (rs: readonly Rec[]) => rs.map((r) => r.id);

describe('createtimeValue', () => {
  it('orders valid times', () => {
    const a = createtimeValue('2024-05-01 10:00:00');
    const b = createtimeValue('2024-05-01 10:00:01');
    expect(a).not.toBeNull();
    expect(b! - a!).toBe(1000);
    expect(createtimeValue(' 2024-05-01 10:00:00 ')).toBe(a);
  });

  it.each([
    null,
    undefined,
    '',
    '2024-05-01',
    '2024-05-01T10:00:00',
    '2024-05-01 10:00',
    '2024-5-1 10:00:00',
    '2024-02-30 10:00:00',
    '2024-13-01 10:00:00',
    '2024-05-01 24:00:00',
    '2024-05-01 10:60:00',
    'yesterday',
  ])('%j is not a valid createtime', (s) => {
    expect(createtimeValue(s)).toBeNull();
  });

  it('knows leap years', () => {
    expect(createtimeValue('2024-02-29 00:00:00')).not.toBeNull();
    expect(createtimeValue('2023-02-29 00:00:00')).toBeNull();
  });
});

describe('filterRecords (spec §2.2: 1308 lists the earliest plus every class 3)', () => {
  it('keeps the earliest and every class 3, in upstream order', () => {
    const a = rec({ createtime: '2024-05-03 10:00:00' });
    const b = rec({ createtime: '2024-05-04 10:00:00', euClass: 3 });
    const c = rec({ createtime: '2024-05-01 09:00:00' });
    const d = rec({ createtime: '2024-05-02 10:00:00', euClass: 2 });
    const e = rec({ createtime: '2024-06-01 10:00:00', euClass: 3 });
    expect(ids(filterRecords([a, b, c, d, e], ieae))).toEqual(ids([b, c, e]));
  });

  it('lists a class 3 record that is also the earliest once', () => {
    const a = rec({ createtime: '2024-05-03 10:00:00' });
    const b = rec({ createtime: '2024-05-01 10:00:00', euClass: 3 });
    const c = rec({ createtime: '2024-05-04 10:00:00', euClass: 3 });
    expect(ids(filterRecords([a, b, c], ieae))).toEqual(ids([b, c]));
  });

  it('breaks a tie by the upstream order: the first of the earliest', () => {
    const a = rec({ createtime: '2024-05-02 10:00:00' });
    const b = rec({ createtime: '2024-05-01 10:00:00' });
    const c = rec({ createtime: '2024-05-01 10:00:00' });
    expect(ids(filterRecords([a, b, c], ieae))).toEqual(ids([b]));
  });

  it('sorts missing or invalid createtimes last', () => {
    const a = rec({ createtime: null });
    const b = rec({ createtime: 'garbage' });
    const c = rec({ createtime: '2030-01-01 00:00:00' });
    const d = rec({ createtime: undefined });
    expect(ids(filterRecords([a, b, c, d], ieae))).toEqual(ids([c]));
  });

  it('takes the first record when no createtime is valid', () => {
    const a = rec({ createtime: null });
    const b = rec({ createtime: '' });
    const c = rec({ createtime: null, euClass: 3 });
    expect(ids(filterRecords([a, b, c], ieae))).toEqual(ids([a, c]));
  });

  it('handles zero and one record', () => {
    expect(filterRecords([], ieae)).toEqual([]);
    const one = rec();
    expect(filterRecords([one], ieae)).toEqual([one]);
  });

  it('is idempotent', () => {
    const rs = [
      rec({ createtime: '2024-05-02 10:00:00', euClass: 3 }),
      rec({ createtime: '2024-05-01 10:00:00' }),
      rec(),
    ];
    const once = filterRecords(rs, ieae);
    expect(filterRecords(once, ieae)).toEqual(once);
  });

  it('keeps everything for other variants and the generic screens, as a copy', () => {
    const rs = [rec({ createtime: '2024-05-03 10:00:00' }), rec({ createtime: '2024-05-01 10:00:00' })];
    expect(filterRecords(rs, asia)).toEqual(rs);
    expect(filterRecords(rs, null)).toEqual(rs);
    expect(filterRecords(rs, null)).not.toBe(rs);
  });

  it('reads records parsed from the upstream', () => {
    const rs = [
      Registration.parse({ id: 1, euCode: 'A', euClass: '0', createtime: '2024-05-02 10:00:00' }),
      Registration.parse({ id: 2, euCode: 'B', euClass: '0', createtime: '2024-05-01 10:00:00' }),
      Registration.parse({ id: 3, euCode: 'C', euClass: '3' }),
    ];
    expect(filterRecords(rs, ieae).map((r) => r.id)).toEqual([2, 3]);
  });
});

describe('decideOutcome (spec §4 lookup flow)', () => {
  it('sends zero records to the variant form', () => {
    expect(decideOutcome({ variant: asia, code: 200, records: [] })).toEqual({ kind: 'form' });
  });

  it('sends one record to its success page', () => {
    const r = rec();
    expect(decideOutcome({ variant: asia, code: 200, records: [r] })).toEqual({ kind: 'success', record: r });
  });

  it('opens the selection for several', () => {
    const rs = [rec(), rec()];
    expect(decideOutcome({ variant: asia, code: 200, records: rs })).toEqual({ kind: 'select', records: rs });
  });

  it('filters 1308 first: several that filter down to one go to success', () => {
    const early = rec({ createtime: '2024-01-01 00:00:00' });
    const late = rec({ createtime: '2024-02-01 00:00:00', euClass: 2 });
    expect(decideOutcome({ variant: ieae, code: 200, records: [late, early] })).toEqual({
      kind: 'success',
      record: early,
    });
    const vip = rec({ euClass: 3, createtime: '2024-03-01 00:00:00' });
    expect(decideOutcome({ variant: ieae, code: 200, records: [late, early, vip] })).toEqual({
      kind: 'select',
      records: [early, vip],
    });
  });

  describe('generic screens (spec §4)', () => {
    it('go to the generic form for zero records', () => {
      expect(decideOutcome({ variant: null, code: 200, records: [] })).toEqual({ kind: 'form' });
    });

    it('go to success for one and select for several', () => {
      const r = rec();
      expect(decideOutcome({ variant: null, code: 200, records: [r] })).toEqual({ kind: 'success', record: r });
      expect(decideOutcome({ variant: null, code: 200, records: [r, rec()] }).kind).toBe('select');
    });
  });

  describe('unusable records (no registration code)', () => {
    it('are dropped', () => {
      const good = rec();
      const out = decideOutcome({
        variant: asia,
        code: 200,
        records: [rec({ euCode: null }), good, rec({ euCode: '  ' })],
      });
      expect(out).toEqual({ kind: 'success', record: good });
    });

    it('alone give no data rather than a second registration', () => {
      expect(decideOutcome({ variant: asia, code: 200, records: [rec({ euCode: undefined })] })).toEqual({
        kind: 'nodata',
      });
      expect(decideOutcome({ variant: null, code: 200, records: [rec({ euCode: '' })] })).toEqual({ kind: 'nodata' });
    });
  });

  describe('Jakarta supplement (spec §2.2)', () => {
    it.each([null, undefined, 0])('one record with activityId %j goes to JakartaSupplement', (activityId) => {
      const r = rec({ activityId });
      expect(decideOutcome({ variant: jakarta, code: 200, records: [r] })).toEqual({
        kind: 'supplement',
        record: r,
        route: 'JakartaSupplement',
      });
    });

    it('one record with an activity goes to success', () => {
      const r = rec({ activityId: 12 });
      expect(decideOutcome({ variant: jakarta, code: 200, records: [r] })).toEqual({ kind: 'success', record: r });
    });

    it('several records open the selection even without activities', () => {
      expect(
        decideOutcome({ variant: jakarta, code: 200, records: [rec({ activityId: null }), rec({ activityId: null })] })
          .kind,
      ).toBe('select');
    });

    it('applies to Jakarta only', () => {
      const r = rec({ activityId: null });
      expect(decideOutcome({ variant: bangkok, code: 200, records: [r] }).kind).toBe('success');
      expect(decideOutcome({ variant: null, code: 200, records: [r] }).kind).toBe('success');
    });
  });

  describe('code 20003: second form (spec §2.2, §4)', () => {
    it.each([
      ['Jakarta', jakarta, 'JakartaSecondForm'],
      ['Bangkok', bangkok, 'BangkokSecondForm'],
    ])('%s goes to its second form with userId and urlsId', (_, variant, route) => {
      expect(decideOutcome({ variant, code: 20003, records: [], data: { userId: '77', urlsId: 9 } })).toEqual({
        kind: 'secondForm',
        userId: 77,
        urlsId: 9,
        route,
      });
    });

    it('is an error for other variants; the generic screens go to /twoForm (spec §2.3)', () => {
      const data = { userId: 77, urlsId: 9 };
      expect(decideOutcome({ variant: asia, code: 20003, records: [], data })).toEqual({ kind: 'error', code: 20003 });
      expect(decideOutcome({ variant: null, code: 20003, records: [], data })).toEqual({ kind: 'secondForm', userId: 77, urlsId: 9, route: 'twoForm' });
    });

    it.each([undefined, null, {}, { userId: 1 }, { userId: 'x', urlsId: 2 }])('is an error when data is %j', (data) => {
      expect(decideOutcome({ variant: jakarta, code: 20003, records: [], data })).toEqual({
        kind: 'error',
        code: 20003,
      });
    });
  });

  it.each([201, 202, 500, 600, 20001])('stops on code %i (continue only on 200)', (code) => {
    expect(decideOutcome({ variant: asia, code, records: [rec()] })).toEqual({ kind: 'error', code });
  });
});

describe('successPath (spec §2.1, §2.3)', () => {
  it('builds the variant route with encoded ids and f', () => {
    expect(successPath({ variant: ieae, urlId: 10542, euCode: 'A1', expoId: 1308, fId: 10542, f: '' })).toBe(
      '/IEAESuccess/MTA1NDI/QTE/MTMwOA/10542/?f=',
    );
    expect(
      successPath({ variant: asia, urlId: 10887, euCode: 'X', expoId: 1312, fId: 10887, f: 'a b&c=d/é' }),
    ).toBe(`/AsiaSuccess/${encodeId(10887)}/${encodeId('X')}/${encodeId(1312)}/10887/?f=a%20b%26c%3Dd%2F%C3%A9`);
  });

  it.each([undefined, null, ''])('leaves f empty when it is %j', (f) => {
    expect(successPath({ variant: asia, urlId: 1, euCode: 'E', expoId: 1312, fId: 1, f })).toMatch(/\/\?f=$/);
  });

  it('builds the generic route without f', () => {
    expect(successPath({ variant: null, urlId: 5, euCode: 'E9', expoId: 700, fId: 5, f: 'x' })).toBe(
      `/success/${encodeId(5)}/${encodeId('E9')}/${encodeId(700)}/5`,
    );
  });

  it('keeps an odd registration code inside one path segment', () => {
    const path = successPath({ variant: asia, urlId: 1, euCode: '展/会?#', expoId: 1312, fId: 1 });
    const segment = path.split('/')[3];
    expect(decodeId(segment)).toBe('展/会?#');
  });
});

describe('parseSuccessParams (inverse of successPath)', () => {
  it('reads what successPath wrote', () => {
    const path = successPath({ variant: ieae, urlId: 10542, euCode: 'REG-7', expoId: 1308, fId: 10542, f: 'x y' });
    const url = new URL(path, 'https://example.test');
    const [, , urlId, euCode, expoId, fId] = url.pathname.split('/');
    expect(parseSuccessParams({ urlId, euCode, expoId, fId, f: url.searchParams.get('f') }, ieae)).toEqual({
      urlId: 10542,
      euCode: 'REG-7',
      expoId: 1308,
      fId: 10542,
      f: 'x y',
    });
  });

  it('defaults f to empty', () => {
    expect(parseSuccessParams({ urlId: 'MTA1NDI', euCode: 'QTE', expoId: 'MTMwOA', fId: '10542' })?.f).toBe('');
  });

  it('accepts plain decimals of older links', () => {
    expect(parseSuccessParams({ urlId: '10542', euCode: 'QTE', expoId: '1308', fId: '10542' })).toMatchObject({
      urlId: 10542,
      expoId: 1308,
    });
  });

  const good = { urlId: 'MTA1NDI', euCode: 'QTE', expoId: 'MTMwOA', fId: '10542' };
  it.each([
    ['a missing url id', { ...good, urlId: undefined }],
    ['a non-numeric url id', { ...good, urlId: encodeId('abc') }],
    ['a bad euCode', { ...good, euCode: '!!' }],
    ['a missing euCode', { ...good, euCode: '' }],
    ['a bad expo id', { ...good, expoId: 'A' }],
    ['an encoded fId', { ...good, fId: 'MTA1NDI' }],
    ['a zero fId', { ...good, fId: '0' }],
    ['a missing fId', { ...good, fId: null }],
  ])('is null for %s', (_, raw) => {
    expect(parseSuccessParams(raw)).toBeNull();
  });

  it("is null when the expo is not the variant's", () => {
    expect(parseSuccessParams(good, ieae)).not.toBeNull();
    expect(parseSuccessParams(good, asia)).toBeNull();
    expect(parseSuccessParams(good, null)).not.toBeNull();
  });
});

describe('formPath (spec §2.1, §2.3)', () => {
  it('appends the stored path to the variant form', () => {
    expect(formPath(asia, '10887/MTMxMg/visitor')).toBe('/AsiaForm/10887/MTMxMg/visitor');
    expect(formPath(v(1178), '/1/abc/')).toBe('/JakartaForm/1/abc');
  });

  it.each([undefined, null, '', '/'])('ends at the form route for the stored path %j', (p) => {
    expect(formPath(asia, p)).toBe('/AsiaForm/');
  });

  it('uses /form for the generic screens', () => {
    expect(formPath(null, '5/MTMxMg/visitor')).toBe('/form/5/MTMxMg/visitor');
  });

  it('stays under the form route', () => {
    expect(formPath(asia, '../../admin')).toBe('/AsiaForm/admin');
    expect(formPath(asia, '//evil.example/x')).toBe('/AsiaForm/evil.example/x');
    expect(formPath(asia, 'a?b#c')).toBe('/AsiaForm/a%3Fb%23c');
    expect(formPath(asia, '%2E%2E/%2e/x')).toBe('/AsiaForm/x');
    expect(formPath(asia, 'a%2F..%2Fb')).toBe('/AsiaForm/a%2F..%2Fb');
  });

  it('does not encode an already encoded segment twice', () => {
    expect(formPath(asia, 'a%20b')).toBe('/AsiaForm/a%20b');
    expect(formPath(asia, 'a b')).toBe('/AsiaForm/a%20b');
    expect(formPath(asia, '100%')).toBe('/AsiaForm/100%25');
  });
});

describe('the repair form (spec §2.3: expos 785 and 1074)', () => {
  const complete = { euCode: 'R1', uname: '王五', ucompany: 'Co', ucardid: '110101199003074578', ucompanyTitle: 'CEO' };
  it.each([785, 1074])('expo %i: one record missing a field goes to the repair form', (expoId) => {
    for (const missing of ['uname', 'ucompany', 'ucardid', 'ucompanyTitle'] as const) {
      const rec = { ...complete, [missing]: ' ' };
      expect(decideOutcome({ variant: null, expoId, code: 200, records: [rec] })).toEqual({ kind: 'repair', record: rec });
    }
  });
  it('a complete record, or another expo, goes to the credential', () => {
    expect(decideOutcome({ variant: null, expoId: 785, code: 200, records: [complete] }).kind).toBe('success');
    expect(decideOutcome({ variant: null, expoId: 2001, code: 200, records: [{ ...complete, ucompany: null }] }).kind).toBe('success');
  });
});

describe('bypass lookups and found codes (issue 9 holes 10, 12)', () => {
  it('a bypass shows what was found and nothing that registers or fills a form', () => {
    const one = rec({ euCode: 'ONE' });
    expect(bypassOutcome({ kind: 'success', record: one })).toEqual({ kind: 'success', record: one });
    expect(bypassOutcome({ kind: 'select', records: [one] })).toEqual({ kind: 'select', records: [one] });
    expect(bypassOutcome({ kind: 'error', code: 401 })).toEqual({ kind: 'error', code: 401 });
    for (const o of [
      { kind: 'form' },
      { kind: 'supplement', record: one, route: 'JakartaSupplementForm' },
      { kind: 'repair', record: one },
      { kind: 'secondForm', userId: 1, urlsId: 2, route: 'JakartaSecondForm' },
      { kind: 'nodata' },
    ] as const) {
      expect(bypassOutcome(o)).toEqual({ kind: 'nodata' });
    }
  });

  it('foundCodes lists the codes of the records an outcome found, capped, empty ones dropped', () => {
    const records = [rec({ euCode: 'A' }), rec({ euCode: '' }), rec({ euCode: 'B' }), rec({ euCode: 'C' })];
    expect(foundCodes({ kind: 'select', records })).toEqual(['A', 'B', 'C']);
    expect(foundCodes({ kind: 'select', records }, 2)).toEqual(['A', 'B']);
    expect(foundCodes({ kind: 'repair', record: rec({ euCode: 'R' }) })).toEqual(['R']);
    expect(foundCodes({ kind: 'form' })).toEqual([]);
  });
});

describe('readSecondFormRef (20003 data, src/lib/util/domain.ts)', () => {
  it.each([
    [{ userId: 7, urlsId: 9 }, { userId: 7, urlsId: 9 }],
    [{ userId: '7', urlsId: ' 9 ' }, { userId: 7, urlsId: 9 }],
    [{ userId: 7 }, null],
    [{ userId: 'x', urlsId: 9 }, null],
    [{ userId: 7.5, urlsId: 9 }, null],
    [null, null],
    ['7,9', null],
  ])('%j → %j', (data, out) => {
    expect(readSecondFormRef(data)).toEqual(out);
  });
});
