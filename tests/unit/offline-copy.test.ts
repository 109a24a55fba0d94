/** The offline copy's lifetime (issue 19 item 3): the expo's end plus a grace, as the service worker reads it. */
import { describe, expect, it } from 'vitest';
import { OFFLINE_GRACE_S, OFFLINE_NO_END_S, offlineCopyAlive, offlineUntil } from '../../src/lib/page/offline-copy';

describe('offlineUntil', () => {
  it('is the expo end (expo-local, UTC+8) plus the grace', () => {
    // 2026-12-03 18:00 in the expo's zone is 10:00 UTC
    expect(offlineUntil('2026-12-03 18:00:00', 0)).toBe(Date.UTC(2026, 11, 3, 10) + OFFLINE_GRACE_S * 1000);
    expect(offlineUntil('2026-12-03', 0)).toBe(Date.UTC(2026, 11, 2, 16) + OFFLINE_GRACE_S * 1000);
  });
  it('without a readable end: a week from the copy', () => {
    for (const end of [null, undefined, '', 'soon', '03.12.2026']) {
      expect(offlineUntil(end, 5_000), String(end)).toBe(5_000 + OFFLINE_NO_END_S * 1000);
    }
  });
  it('an expo that ended long ago gives an instant already past (nothing is stored)', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(offlineCopyAlive(String(offlineUntil('2024-06-30 18:00:00', now)), now)).toBe(false);
  });
});

describe('offlineCopyAlive', () => {
  it('is true strictly before the instant, false at and after it', () => {
    expect(offlineCopyAlive('2000', 1999)).toBe(true);
    expect(offlineCopyAlive('2000', 2000)).toBe(false);
    expect(offlineCopyAlive('2000', 2001)).toBe(false);
  });
  it('a copy without the header, or with anything else, is not served', () => {
    for (const h of [null, undefined, '', ' 2000', '2e3', '-1', 'Infinity', '1'.repeat(17)]) expect(offlineCopyAlive(h, 0), String(h)).toBe(false);
  });
  it('works as the worker embeds it: from its own source alone', () => {
    const copy = new Function(`return ${offlineCopyAlive.toString()}`)() as typeof offlineCopyAlive;
    expect(copy('2000', 1999)).toBe(true);
    expect(copy(null, 0)).toBe(false);
  });
});
