import { describe, expect, it } from 'vitest';
import { formatDate, parseDate } from '../../src/lib/form/date';
import { LANGS } from '../../src/lib/page/languages';

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
});
