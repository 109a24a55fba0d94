import { describe, expect, it } from 'vitest';
import { cameraRefusal } from '../../src/lib/form/camera';

const proven = { expoId: 2002, contact: 'a@b.co', checkType: 2 as const };

describe('cameraRefusal (issue 19 item 4)', () => {
  it("refuses no contact, a bypass contact and another expo's contact first", () => {
    const on = { isOpenBusinessCard: 1 };
    expect(cameraRefusal(null, 2002, on)).toEqual({ status: 401, key: 'form.verifyFirst' });
    expect(cameraRefusal({ ...proven, bypass: true }, 2002, on)).toEqual({ status: 401, key: 'form.verifyFirst' });
    expect(cameraRefusal(proven, 1308, on)).toEqual({ status: 401, key: 'form.verifyFirst' });
  });

  it('takes only isOpenBusinessCard 1 as on', () => {
    expect(cameraRefusal(proven, 2002, { isOpenBusinessCard: 1 })).toBeNull();
    for (const wx of [
      null,
      undefined,
      {},
      { isOpenBusinessCard: 0 },
      { isOpenBusinessCard: null },
      { isOpenBusinessCard: 2 },
    ])
      expect(cameraRefusal(proven, 2002, wx)).toEqual({ status: 403, key: 'form.cameraOff' });
  });
});
