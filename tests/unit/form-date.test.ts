import { describe, expect, it } from 'vitest';
import { displayYear, formatDate, gregorianYear, parseDate } from '../../src/lib/core/date';
import { LANGS } from '../../src/lib/core/languages';

describe('the date field in the page language (issue 14)', () => {
  it.each([
    ['zh', '2026-05-20'],
    ['zh', '2026/5/20'],
    ['zh', '2026年5月20日'],
    ['tw', '2026.05.20'],
    ['en', '20/05/2026'],
    ['en', '20-5-2026'],
    ['en', ' 20 05 2026 '],
    ['thai', '20/05/2026'],
    ['thai', '20/05/2569'],
    ['vn', '20/05/2026'],
    ['id', '20.05.2026'],
    ['ms', '20/5/2026'],
  ] as const)('%s reads %j as 2026-05-20', (lang, text) => {
    expect(parseDate(text, lang)).toBe('2026-05-20');
  });

  it('reads an ISO date on every page: a four-digit first part is a year', () => {
    for (const lang of LANGS) expect(parseDate('2026-05-20', lang), lang).toBe('2026-05-20');
  });

  it('is not the US order: 05/20/2026 is no date on a day/month/year page', () => {
    expect(parseDate('05/20/2026', 'en')).toBeNull();
    expect(parseDate('05/04/2026', 'en')).toBe('2026-04-05');
  });

  it.each([
    ['31/02/2026', 'en'],
    ['29/02/2027', 'en'],
    ['2026-13-01', 'zh'],
    ['20/05/26', 'en'],
    ['20/05', 'en'],
    ['20/05/2026/1', 'en'],
    ['tomorrow', 'en'],
    ['', 'zh'],
    ['20/05/0999', 'en'],
  ] as const)('%j is not a date (%s)', (text, lang) => {
    expect(parseDate(text, lang)).toBeNull();
  });

  it('takes Buddhist-era years on Thai pages only', () => {
    expect(parseDate('20/05/2569', 'thai')).toBe('2026-05-20');
    expect(parseDate('20/05/2569', 'en')).toBe('2569-05-20');
  });

  it('writes a stored date the page language\'s way, and reads it back', () => {
    expect(formatDate('2026-05-20', 'en')).toBe('20/05/2026');
    expect(formatDate('2026-05-20', 'zh')).toBe('2026-05-20');
    expect(formatDate('20/05/2026', 'zh')).toBe('20/05/2026');
    for (const lang of LANGS) expect(parseDate(formatDate('2028-02-29', lang), lang), lang).toBe('2028-02-29');
  });

  it('Thai pages: a year above 2400 is Buddhist era, and dates come back in it', () => {
    expect(parseDate('20/05/2569', 'thai')).toBe('2026-05-20');
    expect(parseDate('2569-05-20', 'thai')).toBe('2026-05-20');
    // a Gregorian year is still understood on a Thai page
    expect(parseDate('20/05/2026', 'thai')).toBe('2026-05-20');
    // the boundary: 2400 itself is a Gregorian year, 2401 the BE year 1858
    expect(gregorianYear(2400, 'thai')).toBe(2400);
    expect(gregorianYear(2401, 'thai')).toBe(1858);
    expect(formatDate('2026-05-20', 'thai')).toBe('20/05/2569');
    expect(displayYear(2026, 'thai')).toBe(2569);
    // a birth date of 1950 typed in BE (2493) and shown back in BE
    expect(parseDate('01/01/2493', 'thai')).toBe('1950-01-01');
    expect(formatDate('1950-01-01', 'thai')).toBe('01/01/2493');
    // no other language shifts years
    for (const lang of ['zh', 'en', 'vn', 'id', 'tw', 'ms'] as const) {
      expect(formatDate('2026-05-20', lang), lang).not.toContain('2569');
      expect(gregorianYear(2569, lang), lang).toBe(2569);
    }
  });

  it('the Thai date hint shows a Buddhist-era example that reads back as the same day', async () => {
    const thai = (await import('../../src/i18n/thai.json')).default as Record<string, string>;
    const example = /\d\d\/\d\d\/\d{4}/.exec(thai['form.dateHint'] ?? '')?.[0] ?? '';
    expect(example).toBe(formatDate('2026-05-20', 'thai'));
    expect(parseDate(example, 'thai')).toBe('2026-05-20');
  });
});
