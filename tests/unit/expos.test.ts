import { describe, expect, it } from 'vitest';
import { EXPOS, EXPO_TRAITS, exposWith, type ExpoTrait } from '../../src/lib/expo/expos';
import { ALL_EXPO_IDS, ENGLISH_EXPO_IDS, endedOutcome } from '../../src/lib/expo/config-apply';
import { REPAIR_EXPOS } from '../../src/lib/form/page';
import { REPAIR_EXPO_IDS } from '../../src/lib/lookup/lookup';
import { AUTO_EXPO_IDS } from '../../src/lib/page/guard';
import { NO_DESKTOP_BANNER_EXPO_IDS, NO_FOOTER_EXPO_IDS, bannerAutoplayMs } from '../../src/lib/expo/shell';
import { TICKET_EXPO_IDS } from '../../src/lib/expo/home';

const sorted = (s: ReadonlySet<number>) => [...s].sort((a, b) => a - b);

describe('the expo table (src/lib/expo/expos.ts)', () => {
  it('holds each expo once, and every trait is used', () => {
    expect(new Set(EXPOS.map((r) => r.id)).size).toBe(EXPOS.length);
    for (const trait of Object.keys(EXPO_TRAITS) as ExpoTrait[]) expect(exposWith(trait).size, trait).toBeGreaterThan(0);
  });

  it('gives every rule the ids the spec names', () => {
    expect(sorted(exposWith('repair'))).toEqual([785, 1074]);
    expect(REPAIR_EXPOS).toEqual(REPAIR_EXPO_IDS);
    expect(sorted(ENGLISH_EXPO_IDS)).toEqual([861, 976, 996, 1106, 1108, 1113, 1178]);
    // spec §3: "an all-expo list of 16 ids"
    expect(ALL_EXPO_IDS.size).toBe(16);
    expect(sorted(AUTO_EXPO_IDS)).toEqual([380]);
    expect(sorted(NO_DESKTOP_BANNER_EXPO_IDS)).toEqual([498, 1142]);
    expect(sorted(NO_FOOTER_EXPO_IDS)).toEqual([1142]);
    expect(sorted(TICKET_EXPO_IDS)).toEqual([1216]);
    expect(bannerAutoplayMs(1142)).toBe(3000);
    expect(bannerAutoplayMs(1308)).toBe(10000);
    const ended = { endTime: '2020-01-01 00:00:00', now: Date.now(), onFormPage: false };
    expect(endedOutcome({ ...ended, expoId: 343 })).toEqual({ kind: 'notice', key: 'error.openingSoon' });
    expect(endedOutcome({ ...ended, expoId: 1042 })).toEqual({ kind: 'redirect-form' });
    expect(endedOutcome({ ...ended, expoId: 2001 })).toEqual({ kind: 'notice', key: 'error.expoOver' });
  });
});
