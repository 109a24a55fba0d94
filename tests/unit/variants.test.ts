import { describe, expect, it } from 'vitest';
import {
  ALL_VARIANTS,
  VariantSchema,
  VariantTableSchema,
  variantByExpoId,
  variantByName,
  variantByRoute,
  type Variant,
} from '../../src/lib/core/variants';

/** A deep, mutable copy of a row, to break one field at a time. */
const copy = (v: Variant): Variant => structuredClone(v) as Variant;
const must = (v: Variant | null): Variant => {
  if (v === null) throw new Error('variant missing');
  return v;
};

describe('variants table (spec §2.2)', () => {
  it('holds the 13 variants of §2.2 plus Baigou, then the haisi family of §2.3 (any expo)', () => {
    expect(ALL_VARIANTS.map((v) => [v.name, v.expoId])).toEqual([
      ['Indonesian', 1108],
      ['ThaiNew', 1261],
      ['Maylaysia', 1316],
      ['Asia', 1312],
      ['InAsia', 1313],
      ['Jakarta', 1178],
      ['IEAE', 1308],
      ['VnAsia', 1314],
      ['IndonesianNew', 1262],
      ['Thai', 1106],
      ['Bangkok', 1179],
      ['vietnamNew', 1317],
      ['vietnam', 1113],
      ['baigou', 976],
      ['haisi', null],
      ['haisiEn', null],
    ]);
  });

  it.each([
    [1108, ['email'], false, true],
    [1313, ['email'], false, true],
    [1314, ['email'], false, true],
    [1262, ['email'], false, true],
    [1317, ['email'], false, false],
    [1113, ['email'], false, false],
    [1261, ['phone', 'email'], false, true],
    [1316, ['phone', 'email'], false, true],
    [1312, ['phone', 'email'], false, true],
    [1178, ['phone', 'email'], false, true],
    [1308, ['email', 'phone'], true, true],
    [1106, ['phone', 'email'], false, true],
    [1179, ['phone', 'email'], false, true],
    [976, ['phone', 'email'], false, true],
  ])('expo %i offers %j (tabs %s, phone collected %s)', (id, offered, tabs, phoneCollected) => {
    expect(must(variantByExpoId(id)).modes).toEqual({ offered, tabs, phoneCollected });
  });

  it('defaults to e-mail (check type 2) everywhere, as no variant is phone-only (spec §2.1)', () => {
    for (const v of ALL_VARIANTS) expect(v.defaultCheckType).toBe(2);
  });

  it.each([
    [1108, [8811]],
    [1261, []],
    [1316, [10920]],
    [1312, [10887]],
    [1313, [10891]],
    [1178, []],
    [1308, [10542]],
    [1314, [10895]],
    [1262, [10918]],
    [1106, [8730]],
    [1179, [8730]],
    [1317, [10916]],
    [1113, [8831]],
    [976, []],
  ])('expo %i exhibitor url ids %j', (id, ids) => {
    expect(must(variantByExpoId(id)).exhibitorUrlIds).toEqual(ids);
  });

  it.each([
    [1108, 'id'],
    [1261, 'thai'],
    [1316, 'ms'],
    [1312, null],
    [1313, 'id'],
    [1178, 'id'],
    [1308, null],
    [1314, 'vn'],
    [1262, 'id'],
    [1106, 'thai'],
    [1179, 'thai'],
    [1317, 'vn'],
    [1113, 'vn'],
    [976, null],
  ])('expo %i local language %s', (id, lang) => {
    expect(must(variantByExpoId(id)).localLang).toBe(lang);
  });

  it('names routes after the variant, as in §2.2', () => {
    const indo = must(variantByName('Indonesian'));
    expect([indo.search, indo.form, indo.success]).toEqual(['IndonesianSearch', 'IndonesianForm', 'IndonesianSuccess']);
    const vn = must(variantByName('vietnamNew'));
    expect([vn.search, vn.form, vn.success]).toEqual(['vietnamNewSearch', 'vietnamNewForm', 'vietnamNewSuccess']);
    expect(must(variantByName('Jakarta')).extraForms).toEqual(['JakartaSupplement', 'JakartaSecondForm']);
    expect(must(variantByName('Bangkok')).extraForms).toEqual(['BangkokSecondForm', 'SupplyBangkokForm']);
  });

  it('carries the special rules of §2.2 on the right rows only', () => {
    const flagged = (f: (v: Variant) => unknown) => ALL_VARIANTS.filter((v) => f(v)).map((v) => v.expoId);
    expect(flagged((v) => v.rules.earliestPlusClass3)).toEqual([1308]);
    expect(flagged((v) => v.rules.supplementWhenNoActivity)).toEqual([1178]);
    expect(must(variantByExpoId(1178)).rules.supplementWhenNoActivity).toBe('JakartaSupplement');
    expect(flagged((v) => v.rules.secondFormOn20003)).toEqual([1178, 1179]);
    expect(must(variantByExpoId(1178)).rules.secondFormOn20003).toBe('JakartaSecondForm');
    expect(must(variantByExpoId(1179)).rules.secondFormOn20003).toBe('BangkokSecondForm');
    expect(flagged((v) => v.rules.emailSessionKey === 'phone')).toEqual([1108]);
    expect(flagged((v) => v.rules.bypassUrlIds.length > 0)).toEqual([1308]);
    expect(must(variantByExpoId(1308)).rules.bypassUrlIds).toEqual([10542]);
    expect(flagged((v) => v.rules.buyerTitle)).toEqual([1261, 1308]);
  });

  it('is frozen: no request can change it for the next', () => {
    const v = must(variantByExpoId(1108));
    expect(Object.isFrozen(ALL_VARIANTS)).toBe(true);
    expect(Object.isFrozen(v.rules.bypassUrlIds)).toBe(true);
    expect(() => {
      (v as { expoId: number }).expoId = 1;
    }).toThrow();
  });
});

describe('lookups', () => {
  it('finds by expo id; unknown or missing ids are the generic case', () => {
    expect(variantByExpoId(1316)?.name).toBe('Maylaysia');
    expect(variantByExpoId(1)).toBeNull();
    expect(variantByExpoId(null)).toBeNull();
    expect(variantByExpoId(undefined)).toBeNull();
  });

  it('finds by name, case-sensitively (spec spelling)', () => {
    expect(variantByName('Maylaysia')?.expoId).toBe(1316);
    expect(variantByName('Malaysia')).toBeNull();
    expect(variantByName('indonesian')).toBeNull();
    expect(variantByName('')).toBeNull();
  });

  it.each([
    ['IndonesianSearch', 1108, 'search'],
    ['IndonesianForm', 1108, 'form'],
    ['IndonesianSuccess', 1108, 'success'],
    ['IndonesianNewSearch', 1262, 'search'],
    ['JakartaSupplement', 1178, 'extra'],
    ['JakartaSecondForm', 1178, 'extra'],
    ['BangkokSecondForm', 1179, 'extra'],
    ['SupplyBangkokForm', 1179, 'extra'],
    ['baigouSearch', 976, 'search'],
    ['vietnamSuccess', 1113, 'success'],
  ])('resolves route %s', (route, expoId, kind) => {
    const r = variantByRoute(route);
    expect(r?.variant.expoId).toBe(expoId);
    expect(r?.kind).toBe(kind);
  });

  it.each(['Indonesian', 'indonesianSearch', 'FooSearch', 'search', 'success', '', 'toString', '__proto__'])(
    'answers null for unknown route %j (404)',
    (route) => {
      expect(variantByRoute(route)).toBeNull();
    },
  );
});

describe('the schema rejects bad rows', () => {
  const good = copy(must(variantByExpoId(1178)));

  it('accepts the real table', () => {
    expect(VariantTableSchema.safeParse(ALL_VARIANTS.map(copy)).success).toBe(true);
  });

  const bad: [string, (v: Variant) => void][] = [
    ['a missing name', (v) => Reflect.deleteProperty(v, 'name')],
    ['a route name with a slash', (v) => (v.form = 'Jakarta/Form')],
    ['a non-integer expo id', (v) => (v.expoId = 11.5)],
    ['a negative url id', (v) => (v.exhibitorUrlIds = [-1])],
    ['an unknown mode', (v) => (v.modes.offered = ['fax' as 'phone'])],
    ['no mode', (v) => (v.modes.offered = [])],
    ['a mode twice', (v) => (v.modes.offered = ['email', 'email'])],
    ['default check type phone while e-mail is offered', (v) => (v.defaultCheckType = 1)],
    ['an unknown language', (v) => (v.localLang = 'fr' as 'en')],
    ['a rule route not among its extra forms', (v) => (v.rules.secondFormOn20003 = 'BangkokSecondForm')],
    ['an unknown field', (v) => Object.assign(v, { colour: 'red' })],
    ['tabs with one mode', (v) => (v.modes = { offered: ['email'], tabs: true, phoneCollected: true })],
    [
      'a bypass without e-mail',
      (v) => ((v.modes.offered = ['phone']), (v.defaultCheckType = 1), (v.rules.bypassUrlIds = [1])),
    ],
  ];
  it.each(bad)('rejects %s', (_, breakIt) => {
    const v = copy(good);
    breakIt(v);
    expect(VariantSchema.safeParse(v).success).toBe(false);
  });

  it('accepts a phone-only row with default check type 1', () => {
    const v = copy(good);
    v.modes.offered = ['phone'];
    v.defaultCheckType = 1;
    expect(VariantSchema.safeParse(v).success).toBe(true);
  });

  it.each([
    ['expo id', (v: Variant) => (v.name = 'Other')],
    ['name', (v: Variant) => (v.expoId = 99999)],
  ])('rejects a table where a row repeats the %s', (_, tweak) => {
    const dup = copy(good);
    tweak(dup);
    dup.search = 'OtherSearch';
    dup.form = 'OtherForm';
    dup.success = 'OtherSuccess';
    dup.extraForms = [];
    dup.rules.supplementWhenNoActivity = null;
    dup.rules.secondFormOn20003 = null;
    expect(VariantSchema.safeParse(dup).success).toBe(true);
    expect(VariantTableSchema.safeParse([good, dup]).success).toBe(false);
  });

  it('rejects a table where two rows share a route name, even in another case', () => {
    const other = copy(must(variantByExpoId(1179)));
    other.search = 'jakartasearch';
    expect(VariantTableSchema.safeParse([good, other]).success).toBe(false);
  });
});
