/**
 * What the credential page says about the gate (src/lib/expo/entry.ts): the latest admission as a
 * sentence, the time alone on the expo's today and date and time on another day, nothing without
 * one; the offline copy's "saved" time both ways and the instant its day ends; and the service
 * worker's choice between them (src/lib/page/sw-script.ts showOfflineLine).
 */
import { describe, expect, it } from 'vitest';
import { lastEntryText, savedTimes, whenText } from '../../src/lib/expo/entry';
import { showOfflineLine } from '../../src/lib/page/sw-script';

const CST = 480; // UTC+8
const BKK = 420; // UTC+7
/** 2026-12-01 10:30 in UTC+8 */
const NOW = Date.UTC(2026, 11, 1, 2, 30);

describe('the last entry (credential page)', () => {
  it('today, expo-local: the time alone, with the gate', () => {
    expect(lastEntryText({ at: '2026-12-01 09:12:40', gate: 'Gate 3' }, NOW, CST, 'en')).toEqual({
      key: 'entry.checkedIn',
      vars: { when: '09:12', gate: 'Gate 3' },
    });
    // a minute before the expo's midnight is still today
    expect(lastEntryText({ at: '2026-12-01 23:59:00', gate: 'N' }, Date.UTC(2026, 11, 1, 15, 59, 30), CST, 'en')?.vars.when).toBe('23:59');
  });

  it('another day: date (the page language’s way) and time', () => {
    const entry = { at: '2026-11-30 17:05:00', gate: 'North' };
    expect(lastEntryText(entry, NOW, CST, 'en')?.vars.when).toBe('30/11/2026 17:05');
    // Thai pages write Buddhist-era years (src/lib/core/date.ts)
    expect(lastEntryText(entry, NOW, CST, 'thai')?.vars.when).toBe('30/11/2569 17:05');
    expect(lastEntryText(entry, NOW, CST, 'zh')?.vars.when).toBe('2026-11-30 17:05');
    expect(lastEntryText(entry, NOW, CST, 'tw')?.vars.when).toBe('2026-11-30 17:05');
  });

  it('"today" is the expo’s day, not UTC’s: 00:30 expo-local on Dec 2 is Dec 1 in UTC', () => {
    const now = Date.UTC(2026, 11, 1, 16, 30); // 2026-12-02 00:30 in UTC+8
    expect(lastEntryText({ at: '2026-12-02 00:10:00', gate: 'A' }, now, CST, 'en')?.vars.when).toBe('00:10');
    expect(lastEntryText({ at: '2026-12-01 23:50:00', gate: 'A' }, now, CST, 'en')?.vars.when).toBe('01/12/2026 23:50');
    // the same instant in Bangkok is still Dec 1 (23:30)
    expect(lastEntryText({ at: '2026-12-01 23:10:00', gate: 'A' }, now, BKK, 'en')?.vars.when).toBe('23:10');
  });

  it('no entry, or one that is no time: nothing', () => {
    expect(lastEntryText(null, NOW, CST, 'en')).toBeNull();
    expect(lastEntryText(undefined, NOW, CST, 'en')).toBeNull();
    for (const at of ['', 'yesterday', '2026-12-01', '2026-12-01 25:00:00', '2026-12-01 09:75:00', '<b>2026-12-01 09:12</b>']) {
      expect(lastEntryText({ at, gate: 'A' }, NOW, CST, 'en'), at).toBeNull();
    }
  });

  it('without a gate name: the sentence without "at"; an ISO "T" and missing seconds read too', () => {
    expect(lastEntryText({ at: '2026-12-01T09:12', gate: '  ' }, NOW, CST, 'en')).toEqual({
      key: 'entry.checkedInNoGate',
      vars: { when: '09:12' },
    });
  });

  it('whenText: time alone only on the same day', () => {
    expect(whenText('2026-12-01', '09:12', '2026-12-01', 'ms')).toBe('09:12');
    expect(whenText('2026-12-01', '09:12', '2026-12-02', 'ms')).toBe('01/12/2026 09:12');
  });
});

describe('the offline copy’s saved time', () => {
  it('both ways, and the instant the expo’s day of the visit ends', () => {
    expect(savedTimes(NOW, CST, 'en')).toEqual({
      today: '10:30',
      later: '01/12/2026 10:30',
      dayEnd: Date.UTC(2026, 11, 1, 16), // midnight in UTC+8
    });
    expect(savedTimes(NOW, CST, 'zh').later).toBe('2026-12-01 10:30');
    expect(savedTimes(Date.UTC(2026, 11, 1, 17, 5), BKK, 'en')).toEqual({
      today: '00:05',
      later: '02/12/2026 00:05',
      dayEnd: Date.UTC(2026, 11, 2, 17),
    });
  });

  it('the worker shows the time alone that day, date and time after it; never both', () => {
    const end = Date.UTC(2026, 11, 1, 16);
    const html = `<p class="offline-note" data-offline data-offline-day-end="${end}" hidden role="status" data-astro-cid-x><span data-saved-today data-astro-cid-x>Saved 10:30</span><span data-saved-earlier hidden data-astro-cid-x>Saved 01/12/2026 10:30</span></p>`;
    const sameDay = showOfflineLine(html, end - 1);
    expect(sameDay).toBe(html.replace(' hidden role', ' role'));
    const later = showOfflineLine(html, end);
    expect(later).toBe(
      `<p class="offline-note" data-offline data-offline-day-end="${end}" role="status" data-astro-cid-x><span data-saved-today data-astro-cid-x hidden>Saved 10:30</span><span data-saved-earlier data-astro-cid-x>Saved 01/12/2026 10:30</span></p>`,
    );
    // without a time (or a day end) only the line is shown
    expect(showOfflineLine(html)).toBe(sameDay);
    expect(showOfflineLine('<p data-offline hidden><span data-saved-today>x</span></p>', end)).toBe('<p data-offline><span data-saved-today>x</span></p>');
  });
});
