import { describe, expect, it } from 'vitest';
import {
  PRIVATE_CACHE_CONTROL,
  PUBLIC_CACHE_CONTROL,
  pagePolicy,
  pagePolicyHeaders,
  setPagePolicy,
  type PageKind,
} from '../../src/lib/page/policy';

describe('page cache and index policy (issue 9 §1)', () => {
  it.each<PageKind>(['success', 'applyList', 'form'])('%s shows personal data: private, no-store, noindex', (kind) => {
    for (const flashShown of [false, true]) {
      expect(pagePolicy({ kind, flashShown })).toEqual({ cacheControl: 'private, no-store', noindex: true });
    }
  });

  it.each<PageKind>(['search', 'home', 'landing', 'root', 'notFound'])(
    '%s without a flash: kept out of shared caches, revalidated every time, indexable',
    (kind) => {
      expect(pagePolicy({ kind, flashShown: false })).toEqual({
        cacheControl: 'private, max-age=0, must-revalidate',
        noindex: false,
      });
    },
  );

  it.each<PageKind>(['search', 'home'])('%s that showed flashed values is private, no-store, noindex', (kind) => {
    expect(pagePolicy({ kind, flashShown: true })).toEqual({ cacheControl: PRIVATE_CACHE_CONTROL, noindex: true });
  });

  it('no policy lets a shared cache store a page (every page varies by cookie)', () => {
    const kinds: PageKind[] = ['search', 'home', 'landing', 'success', 'applyList', 'form', 'root', 'notFound'];
    for (const kind of kinds) {
      for (const flashShown of [false, true]) {
        const { cacheControl } = pagePolicy({ kind, flashShown });
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
    setPagePolicy(h, pagePolicy({ kind: 'success', flashShown: false }));
    expect(h.get('cache-control')).toBe('private, no-store');
    expect(h.get('x-robots-tag')).toBe('noindex');
  });
});
