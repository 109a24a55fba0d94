import { describe, expect, it } from 'vitest';
import { isFormNext, resolveFormPage, verifyAgainPath } from '../../src/lib/form/page';
import { encodeId } from '../../src/lib/util/ids';
import { variantByExpoId } from '../../src/lib/core/variants';

const thai = `21261/${encodeId(1261)}/visitor`;

describe('back to the form after a new code (issue 14)', () => {
  it('sends the visitor to the lookup with the form as next, its ?e= kept', () => {
    const page = resolveFormPage('ThaiNewForm', thai.split('/'), variantByExpoId(1261) ?? null);
    if (!page) throw new Error('no page');
    expect(verifyAgainPath(page, `/ThaiNewForm/${thai}`)).toBe(
      `/ThaiNewSearch/${thai}?next=${encodeURIComponent(`/ThaiNewForm/${thai}`)}`,
    );
    const generic = resolveFormPage('form', ['22003', encodeId(2003), 'visitor'], null);
    if (!generic) throw new Error('no page');
    expect(verifyAgainPath(generic, `/form/22003/${encodeId(2003)}/visitor?e=ABC`)).toBe(
      `/search/22003/${encodeId(2003)}/visitor?next=${encodeURIComponent(`/form/22003/${encodeId(2003)}/visitor?e=ABC`)}`,
    );
  });

  it('a second form goes to the lookup without next (the lookup finds it again)', () => {
    const path = `21179/${encodeId(1179)}/visitor`;
    const page = resolveFormPage('BangkokSecondForm', path.split('/'), variantByExpoId(1179) ?? null);
    if (!page) throw new Error('no page');
    expect(page.kind).toBe('secondForm');
    expect(verifyAgainPath(page, `/BangkokSecondForm/${path}`)).toBe(`/BangkokSearch/${path}`);
  });

  it.each([
    [`/ThaiNewForm/${thai}`, 1261, true],
    [`/ThaiNewForm/${thai}?e=ABC123`, 1261, true],
    [`/form/22003/${encodeId(2003)}/visitor`, 2003, true],
    [`/proving/22001/${encodeId(2001)}/visitor`, 2001, true],
    [`/ThaiNewForm/${thai}`, 1308, false],
    [`/IEAEForm/21261/${encodeId(1261)}/visitor`, 1261, false],
    [`/ThaiNewForm/${thai}?next=//evil.example`, 1261, false],
    [`/ThaiNewForm/${thai}?e=A&x=1`, 1261, false],
    [`//evil.example/ThaiNewForm/${thai}`, 1261, false],
    [`https://evil.example/ThaiNewForm/${thai}`, 1261, false],
    [`/ThaiNewSearch/${thai}`, 1261, false],
    [`/BangkokSecondForm/21179/${encodeId(1179)}/visitor`, 1179, false],
    [`/ThaiNewForm/${thai}\n`, 1261, false],
    ['', 1261, false],
  ])('%j for expo %i: %s', (next, expoId, ok) => {
    expect(isFormNext(next, expoId)).toBe(ok);
  });
});
