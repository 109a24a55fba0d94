import { describe, expect, it } from 'vitest';
import { TITLE_RULES, lookupTitleKey, organiserTitle, organiserTitleLang } from '../../src/lib/page/titles';
import { variantByExpoId, type Variant } from '../../src/lib/core/variants';

const v = (id: number): Variant => {
  const found = variantByExpoId(id);
  if (!found) throw new Error(`no variant ${id}`);
  return found;
};
const title = (expoId: number | null, urlId: number | null, ty?: string) =>
  lookupTitleKey({ variant: expoId === null ? null : v(expoId), urlId, ty });

describe('lookupTitleKey (spec §2.1, §2.2)', () => {
  it.each([
    [1316, 10920],
    [1312, 10887],
    [1313, 10891],
    [1314, 10895],
    [1262, 10918],
    [1106, 8730],
    [1179, 8730],
    [1317, 10916],
    [1113, 8831],
  ])('expo %i, url id %i: exhibitor title', (expoId, urlId) => {
    expect(title(expoId, urlId)).toBe('search.exhibitorTitle');
  });

  it.each([1316, 1312, 1313, 1314, 1262, 1106, 1179, 1317, 1113, 1178, 976])(
    'expo %i, another url id: visitor title',
    (expoId) => {
      expect(title(expoId, 1)).toBe('search.visitorTitle');
      expect(title(expoId, null)).toBe('search.visitorTitle');
    },
  );

  it("uses only the variant's own url ids", () => {
    // 10920 is Malaysia's exhibitor site, not Asia's.
    expect(title(1312, 10920)).toBe('search.visitorTitle');
  });

  it('1108: url id 8811 is Exhibitor Registration, otherwise Visitor Registration', () => {
    expect(title(1108, 8811)).toBe('search.exhibitorRegistration');
    expect(title(1108, 8812)).toBe('search.visitorRegistration');
    expect(title(1108, null)).toBe('search.visitorRegistration');
    expect(title(1108, 8811, 'exhibitor')).toBe('search.exhibitorRegistration');
  });

  it("1308: 'Exhibitor manual' for 10542, 'Buyer Register' for visitors", () => {
    expect(title(1308, 10542)).toBe('search.exhibitorManual');
    expect(title(1308, 1)).toBe('search.buyerTitle');
    expect(title(1308, null)).toBe('search.buyerTitle');
  });

  it("1261: 'Buyer Register' for visitors; it lists no exhibitor url id", () => {
    expect(title(1261, 1)).toBe('search.buyerTitle');
    expect(title(1261, 10542)).toBe('search.buyerTitle');
    expect(title(1261, 8730)).toBe('search.buyerTitle');
  });

  it('url id 10542 is the exhibitor manual only for 1308', () => {
    expect(title(1312, 10542)).toBe('search.visitorTitle');
  });

  it('generic screens: the visitor title, or the exhibitor title for visitor type exhibitor', () => {
    expect(title(null, 10920)).toBe('search.visitorTitle');
    expect(title(null, null)).toBe('search.visitorTitle');
    expect(title(null, 5, 'exhibitor')).toBe('search.exhibitorTitle');
    expect(title(null, 5, ' exhibitor ')).toBe('search.exhibitorTitle');
    expect(title(null, 5, 'admin')).toBe('search.visitorTitle');
    expect(title(null, 5, 'Exhibitor')).toBe('search.visitorTitle');
  });

  it('variants go by url id, not by visitor type', () => {
    expect(title(1312, 1, 'exhibitor')).toBe('search.visitorTitle');
  });

  it('ends with a rule that always applies', () => {
    expect(TITLE_RULES.at(-1)?.applies({ variant: null, urlId: null })).toBe(true);
  });
});

describe("the organiser's formTitle follows the page language (spec §4, issue 14)", () => {
  it('is written in Chinese for languageType 1 or none, in English otherwise', () => {
    expect(organiserTitleLang({ languageType: 1 })).toBe('zh');
    expect(organiserTitleLang({})).toBe('zh');
    expect(organiserTitleLang({ languageType: null })).toBe('zh');
    expect(organiserTitleLang({ languageType: 2 })).toBe('en');
  });

  it('is the title only on pages in its language; elsewhere the page keeps its own', () => {
    const en = { formTitle: ' New Thailand Expo Pre-registration ', languageType: 2 };
    expect(organiserTitle(en, 'en')).toBe('New Thailand Expo Pre-registration');
    for (const lang of ['zh', 'thai', 'vn', 'id', 'tw', 'ms'] as const) expect(organiserTitle(en, lang), lang).toBeNull();
    const zh = { formTitle: 'IEAE 观众预登记', languageType: 1 };
    expect(organiserTitle(zh, 'zh')).toBe('IEAE 观众预登记');
    expect(organiserTitle(zh, 'tw'), 'a simplified title is not a traditional page\'s').toBeNull();
    expect(organiserTitle(zh, 'en')).toBeNull();
  });

  it('is none without a title', () => {
    expect(organiserTitle(null, 'zh')).toBeNull();
    expect(organiserTitle({ formTitle: '  ' }, 'zh')).toBeNull();
    expect(organiserTitle({ formTitle: null, languageType: 2 }, 'en')).toBeNull();
  });
});
