/**
 * What the credential page says about the gate (docs/upstream.md "Check-in (the gate)"): the
 * latest admission ("Checked in 09:12 at Gate 3") next to used / maximum, and the line its
 * offline copy shows ("Saved 09:20 — offline copy, the count may have changed").
 *
 * Times are expo-local: `lastEntry.at` arrives as expo-local text, and "today" is the expo's
 * day at `now` (the expo's UTC offset: src/lib/tickets/money.ts marketOf). A time of today is
 * the time alone; any other day the date the page language's way (src/lib/core/date.ts) and the
 * time. Pure: the loader turns the keys into words.
 */
import { formatDate } from '../core/date';
import type { Lang } from '../core/languages';

/** A sentence to show: a catalogue key and its values. */
export interface EntryText {
  key: 'entry.checkedIn' | 'entry.checkedInNoGate';
  vars: { when: string; gate?: string };
}

const LOCAL = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2})(?::\d{2})?$/;

/** The expo-local "YYYY-MM-DD HH:mm" of an instant. */
function localParts(ms: number, utcOffsetMinutes: number): { day: string; hhmm: string } {
  const iso = new Date(ms + utcOffsetMinutes * 60_000).toISOString();
  return { day: iso.slice(0, 10), hhmm: iso.slice(11, 16) };
}

/**
 * An expo-local time as the page shows it: the time alone on the expo's today, else date and time.
 * @example whenText('2026-12-01', '09:12', '2026-12-01', 'en') // '09:12'
 * @example whenText('2026-11-30', '17:05', '2026-12-01', 'en') // '30/11/2026 17:05'
 * @example whenText('2026-11-30', '17:05', '2026-12-01', 'zh') // '2026-11-30 17:05'
 */
export function whenText(day: string, hhmm: string, today: string, lang: Lang): string {
  return day === today ? hhmm : `${formatDate(day, lang)} ${hhmm}`;
}

/**
 * The latest admission as a sentence; null without one (or with an `at` that is no time).
 * @example lastEntryText({ at: '2026-12-01 09:12:40', gate: 'Gate 3' }, Date.UTC(2026, 11, 1, 3), 480, 'en')
 *   // { key: 'entry.checkedIn', vars: { when: '09:12', gate: 'Gate 3' } }
 * @example lastEntryText(null, 0, 480, 'en') // null
 */
export function lastEntryText(
  entry: { at: string; gate: string } | null | undefined,
  now: number,
  utcOffsetMinutes: number,
  lang: Lang,
): EntryText | null {
  const m = LOCAL.exec(entry?.at.trim() ?? '');
  if (!entry || !m) return null;
  const [, day = '', hh = '', mm = ''] = m;
  if (Number(hh) > 23 || Number(mm) > 59) return null;
  const when = whenText(day, `${hh}:${mm}`, localParts(now, utcOffsetMinutes).day, lang);
  const gate = entry.gate.trim();
  return gate ? { key: 'entry.checkedIn', vars: { when, gate } } : { key: 'entry.checkedInNoGate', vars: { when } };
}

/**
 * When a copy made at `now` was saved, both ways: `today` (the time alone) while the expo's day of
 * `now` lasts, `later` (date and time) after `dayEnd` (the instant that day ends). The service
 * worker shows one of them in the copy it serves offline (src/lib/page/sw-script.ts showOfflineLine).
 * @example savedTimes(Date.UTC(2026, 11, 1, 1, 20), 480, 'en')
 *   // { today: '09:20', later: '01/12/2026 09:20', dayEnd: Date.UTC(2026, 11, 1, 16) }
 */
export function savedTimes(now: number, utcOffsetMinutes: number, lang: Lang): { today: string; later: string; dayEnd: number } {
  const { day, hhmm } = localParts(now, utcOffsetMinutes);
  const dayEnd = Date.parse(`${day}T00:00:00Z`) + 86_400_000 - utcOffsetMinutes * 60_000;
  return { today: hhmm, later: whenText(day, hhmm, '', lang), dayEnd };
}
