import { describe, expect, it } from 'vitest';
import {
  PRIVATE_CACHE_CONTROL,
  PUBLIC_CACHE_CONTROL,
  pagePolicy,
  pagePolicyHeaders,
  setPagePolicy,
} from '../../src/lib/page/policy';
import { SCREENS } from '../../src/lib/screens';

describe('page cache and index policy (issue 9 §1)', () => {
  it('a personal page is private, no-store, noindex, flash or not', () => {
    for (const flashShown of [false, true]) {
      expect(pagePolicy({ personal: true, flashShown })).toEqual({ cacheControl: 'private, no-store', noindex: true });
    }
  });

  it('a public page without a flash: kept out of shared caches, revalidated every time, indexable', () => {
    expect(pagePolicy({ personal: false, flashShown: false })).toEqual({ cacheControl: 'private, max-age=0, must-revalidate', noindex: false });
  });

  it('a public page that showed flashed values is private, no-store, noindex', () => {
    expect(pagePolicy({ personal: false, flashShown: true })).toEqual({ cacheControl: PRIVATE_CACHE_CONTROL, noindex: true });
  });

  it('the screens that show personal data (or need a verified contact) say so in their declaration', () => {
    const personal = Object.values(SCREENS).filter((s) => s.personal).map((s) => s.name).sort();
    expect(personal).toEqual(['applyList', 'bus', 'credential', 'form', 'gate', 'seatResult', 'ticket']);
  });

  it('no policy lets a shared cache store a page (every page varies by cookie)', () => {
    for (const personal of [false, true]) {
      for (const flashShown of [false, true]) {
        const { cacheControl } = pagePolicy({ personal, flashShown });
        expect(cacheControl).toMatch(/^private\b/);
        expect(cacheControl).not.toMatch(/\bpublic\b|s-maxage/);
      }
    }
  });

  it('headers: x-robots-tag only when noindex', () => {
    expect(pagePolicyHeaders({ cacheControl: PUBLIC_CACHE_CONTROL, noindex: false })).toEqual({
      'cache-control': PUBLIC_CACHE_CONTROL,
    });
    expect(pagePolicyHeaders({ cacheControl: PRIVATE_CACHE_CONTROL, noindex: true })).toEqual({
      'cache-control': PRIVATE_CACHE_CONTROL,
      'x-robots-tag': 'noindex',
    });
  });

  it('setPagePolicy replaces what the headers held', () => {
    const h = new Headers({ 'cache-control': 'public, max-age=3600' });
    setPagePolicy(h, pagePolicy({ personal: true, flashShown: false }));
    expect(h.get('cache-control')).toBe('private, no-store');
    expect(h.get('x-robots-tag')).toBe('noindex');
  });
});
