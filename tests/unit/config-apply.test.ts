import { describe, expect, it } from 'vitest';
import { ALL_EXPO_IDS, documentTitle, endInstant, endedOutcome, expoEnded, pageLang } from '../../src/lib/expo/config-apply';

describe('config application: language (spec §4)', () => {
  it('signType 2 forces English whatever the cookie says', () => {
    expect(pageLang({ expoId: 2002, wx: { signType: 2 }, cookieLang: 'zh' })).toEqual({
      lang: 'en',
      forced: true,
      reason: 'sign-type-2',
    });
    expect(pageLang({ expoId: 2002, wx: { signType: 2 }, cookieLang: null }).lang).toBe('en');
  });

  it('signType 4 outside the all-expo list: Chinese for languageType 1 or missing, else English', () => {
    expect(pageLang({ expoId: 1216, wx: { signType: 4, languageType: 1 }, cookieLang: 'en' })).toMatchObject({
      lang: 'zh',
      forced: true,
    });
    expect(pageLang({ expoId: 1216, wx: { signType: 4 }, cookieLang: 'thai' }).lang).toBe('zh');
    expect(pageLang({ expoId: 1216, wx: { signType: 4, languageType: 2 }, cookieLang: 'zh' }).lang).toBe('en');
  });

  it('signType 4 inside the all-expo list (16 ids) keeps the visitor language', () => {
    expect(ALL_EXPO_IDS.size).toBe(16);
    expect(pageLang({ expoId: 1177, wx: { id: 5127, signType: 4, languageType: 1 }, cookieLang: 'tw' })).toEqual({
      lang: 'tw',
      forced: false,
      reason: 'visitor',
    });
  });

  it('1308 forces Chinese except configs 5959 and 6309', () => {
    expect(pageLang({ expoId: 1308, wx: { id: 6310, signType: 2 }, cookieLang: 'en' })).toMatchObject({
      lang: 'zh',
      forced: true,
      reason: 'ieae-chinese',
    });
    expect(pageLang({ expoId: 1308, wx: { id: 5959, signType: 1 }, cookieLang: 'en' })).toMatchObject({
      lang: 'en',
      forced: false,
    });
    expect(pageLang({ expoId: 1308, wx: { id: 6309, signType: 1 }, cookieLang: null }).lang).toBe('zh');
  });

  it.each([861, 976, 996, 1106, 1108, 1113, 1178])(
    'English expo %i defaults to English; the visitor choice stands',
    (expoId) => {
      expect(pageLang({ expoId, wx: { signType: 1 }, cookieLang: null })).toEqual({
        lang: 'en',
        forced: false,
        reason: 'english-expo',
      });
      expect(pageLang({ expoId, wx: { signType: 1 }, cookieLang: 'zh' }).lang).toBe('zh');
    },
  );

  it('the Thai expo 1179 (spec §3 "Thai 1179") defaults to Thai; the visitor choice stands', () => {
    expect(pageLang({ expoId: 1179, wx: { signType: 1 }, cookieLang: null })).toEqual({ lang: 'thai', forced: false, reason: 'thai-expo' });
    expect(pageLang({ expoId: 1179, wx: { signType: 1 }, cookieLang: 'en' }).lang).toBe('en');
  });

  it('otherwise the cookie, else zh', () => {
    expect(pageLang({ expoId: 2001, wx: { signType: 1 }, cookieLang: 'vn' }).lang).toBe('vn');
    expect(pageLang({ expoId: 2001, wx: null, cookieLang: null }).lang).toBe('zh');
  });

  it('document title from formTitle', () => {
    expect(documentTitle({ formTitle: '  Expo  ' }, 'x')).toBe('Expo');
    expect(documentTitle({ formTitle: ' ' }, 'x')).toBe('x');
    expect(documentTitle(null, 'x')).toBe('x');
  });
});

describe('expo ended (spec §4)', () => {
  const end = '2024-06-30 18:00:00';
  it('reads endTime as expo-local time (UTC+8)', () => {
    expect(endInstant(end)).toBe(Date.UTC(2024, 5, 30, 10));
    expect(endInstant('soon')).toBeNull();
    expect(expoEnded(end, Date.UTC(2024, 5, 30, 10) + 1)).toBe(true);
    expect(expoEnded(end, Date.UTC(2024, 5, 30, 9, 59))).toBe(false);
    expect(expoEnded(null, Date.now())).toBe(false);
  });

  const after = Date.UTC(2025, 0, 1);
  it.each([
    [343, false, { kind: 'notice', key: 'error.openingSoon' }],
    [1042, false, { kind: 'redirect-form' }],
    [1042, true, { kind: 'none' }],
    [2005, false, { kind: 'notice', key: 'error.expoOver' }],
  ] as const)('expo %i (on a form page: %s)', (expoId, onFormPage, outcome) => {
    expect(endedOutcome({ expoId, endTime: end, now: after, onFormPage })).toEqual(outcome);
  });

  it('nothing while the expo runs', () => {
    expect(endedOutcome({ expoId: 343, endTime: '2099-01-01 00:00:00', now: after, onFormPage: false })).toEqual({
      kind: 'none',
    });
  });
});
