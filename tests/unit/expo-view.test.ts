import { describe, expect, it } from 'vitest';
import { admits, expoName, isAwaitingReview, pageImage, safeImageUrl, usageLines } from '../../src/lib/expo/view';

describe('expo view', () => {
  it('names the expo in the visitor language with a fallback', () => {
    const info = { exhiName: '亚洲展', exhiNameEn: 'Asia Expo' };
    expect(expoName(info, 'zh')).toBe('亚洲展');
    expect(expoName(info, 'tw')).toBe('亚洲展');
    expect(expoName(info, 'thai')).toBe('Asia Expo');
    expect(expoName({ exhiName: '亚洲展', exhiNameEn: ' ' }, 'en')).toBe('亚洲展');
    expect(expoName(null, 'en')).toBeNull();
  });

  it.each([
    ['https://cdn.example/a.jpg', 'https://cdn.example/a.jpg'],
    ['/logo.jpg', '/logo.jpg'],
    ['javascript:alert(1)', null],
    ['//evil.example/x.jpg', null],
    ['data:image/svg+xml,<svg onload=alert(1)>', null],
    ['https://x.example/a.jpg" onerror="alert(1)', null],
    ['', null],
  ])('image %s → %s', (input, out) => {
    expect(safeImageUrl(input)).toBe(out);
  });

  it('picks pcBackground, else headImgUrl, else showLogo (spec §4)', () => {
    expect(pageImage({ pcBackground: 'https://a/bg.jpg', headImgUrl: 'https://a/h.jpg' }, { showLogo: '/l.jpg' })).toBe('https://a/bg.jpg');
    expect(pageImage({ pcBackground: '', headImgUrl: 'https://a/h1.jpg,https://a/h2.jpg' }, null)).toBe('https://a/h1.jpg');
    expect(pageImage({ pcBackground: 'javascript:x' }, { showLogo: '/l.jpg' })).toBe('/l.jpg');
    expect(pageImage(null, null)).toBeNull();
  });

  it('lists usage: status, count, maximum or unlimited', () => {
    expect(usageLines({ useStatus: 1, usedCount: 2, maxCount: 3 })).toEqual([
      { label: 'success.useStatus', value: { key: 'success.used' } },
      { label: 'success.usedCount', value: { count: 2 } },
      { label: 'success.maxCount', value: { count: 3 } },
    ]);
    expect(usageLines({ useStatus: 0, usedCount: null, maxCount: 0 })).toEqual([
      { label: 'success.useStatus', value: { key: 'success.unused' } },
      { label: 'success.usedCount', value: { count: 0 } },
      { label: 'success.maxCount', value: { key: 'success.unlimited' } },
    ]);
  });
});

describe('admits (spec §2.5 "awaiting review"): what may go to the gate', () => {
  it('an approved, unvoided credential admits; awaiting review or void does not', () => {
    expect(admits({ useStatus: 0, auditStatus: 0 })).toBe(true);
    expect(admits({ useStatus: 1, auditStatus: null })).toBe(true);
    expect(admits({ useStatus: 0, auditStatus: 1 })).toBe(false);
    expect(isAwaitingReview({ auditStatus: 1 })).toBe(true);
    expect(admits({ useStatus: 2, auditStatus: 0 })).toBe(false);
  });
});
