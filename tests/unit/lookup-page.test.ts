import { describe, expect, it } from 'vitest';
import { bypassEnabled, bypassFor, lookupModes, usesBypass } from '../../src/lib/lookup/page';
import { variantByExpoId } from '../../src/lib/core/variants';

const v = (id: number) => variantByExpoId(id);

describe('lookup page modes (spec §2.1, §2.2)', () => {
  it('uses the variant table: e-mail only for 1108, tabs for 1308', () => {
    expect(lookupModes({ variant: v(1108), queryMethod: null, requested: null, flashed: null })).toEqual({
      modes: ['email'],
      tabs: false,
      checkType: 2,
      explicit: false,
    });
    expect(lookupModes({ variant: v(1308), queryMethod: null, requested: null, flashed: null }).tabs).toBe(true);
  });

  it('defaults to e-mail (2) unless a mode is requested or flashed', () => {
    const base = { variant: v(1312), queryMethod: null };
    expect(lookupModes({ ...base, requested: null, flashed: null }).checkType).toBe(2);
    expect(lookupModes({ ...base, requested: '1', flashed: null })).toMatchObject({ checkType: 1, explicit: true });
    expect(lookupModes({ ...base, requested: null, flashed: '1' })).toMatchObject({ checkType: 1, explicit: true });
  });

  it('ignores a requested mode the page does not offer', () => {
    expect(lookupModes({ variant: v(1108), queryMethod: null, requested: '1', flashed: null })).toMatchObject({
      checkType: 2,
      explicit: false,
    });
  });

  it('generic pages: e-mail and phone, e-mail only for queryMethod 2', () => {
    expect(lookupModes({ variant: null, queryMethod: null, requested: null, flashed: null }).modes).toEqual(['email', 'phone']);
    expect(lookupModes({ variant: null, queryMethod: 2, requested: '1', flashed: null })).toMatchObject({
      modes: ['email'],
      checkType: 2,
    });
  });
});

describe('bypass (spec §2.2, DESIGN.md)', () => {
  it('applies to 1308 url 10542 e-mail only', () => {
    expect(usesBypass(v(1308), 1308, 10542, 2, true)).toBe(true);
    expect(usesBypass(v(1308), 1308, 10542, 1, true)).toBe(false);
    expect(usesBypass(v(1308), 1308, 21308, 2, true)).toBe(false);
    expect(usesBypass(null, 1308, 10542, 2, true)).toBe(false);
  });
  it('never for another expo posted with the variant', () => {
    expect(usesBypass(v(1308), 1179, 10542, 2, true)).toBe(false);
  });
  it('never when the deployment turned it off (EXHIBITOR_BYPASS=off)', () => {
    expect(usesBypass(v(1308), 1308, 10542, 2, bypassEnabled('off'))).toBe(false);
    expect(usesBypass(v(1308), 1308, 10542, 2, bypassEnabled(' OFF '))).toBe(false);
    expect(usesBypass(v(1308), 1308, 10542, 2, bypassEnabled(undefined))).toBe(true);
    expect(usesBypass(v(1308), 1308, 10542, 2, bypassEnabled('on'))).toBe(true);
    // a browser asked to prove the e-mail by a code (its e-mail's code-less lookups spent) on that expo only
    expect(bypassFor(true, '1308', 1308)).toBe(false);
    expect(bypassFor(true, '1316', 1308)).toBe(true);
    expect(bypassFor(true, undefined, 1308)).toBe(true);
    expect(bypassFor(false, undefined, 1308)).toBe(false);
  });
});
