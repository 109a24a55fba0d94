import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isHttpUrl, isSafeRedirectPath, pickBackPath, safeBackPath } from '../../src/lib/util/safe-redirect';

const ORIGIN = 'https://expo.example';

describe('safeBackPath', () => {
  it.each([
    ['/IEAESearch/1/MTMwOA/visitor?f=x', '/IEAESearch/1/MTMwOA/visitor?f=x'],
    ['https://expo.example/a?b=1', '/a?b=1'],
    ['a/b', '/a/b'],
  ])('keeps same-origin %s', (input, out) => {
    expect(safeBackPath(input, ORIGIN)).toBe(out);
  });
  it.each(['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', '', null, undefined])(
    'refuses %s',
    (input) => {
      expect(safeBackPath(input, ORIGIN)).toBeNull();
    },
  );
  it.each(['/.//evil.com', '/./\\evil.com', 'https://expo.example//evil.com', 'https://expo.example/.//evil.com/x?a', '/a/..//evil.com', '\\/evil.com', '/\t/evil.com'])(
    'refuses %s, which resolves to another host (issue 9 hole 11)',
    (input) => {
      expect(safeBackPath(input, ORIGIN)).toBeNull();
    },
  );
  it('never returns a path that a browser reads as another host (10,000 generated candidates)', () => {
    const piece = fc.constantFrom('/', '\\', '.', '..', '//', '/\\', '%2f', '%5c', '\t', '\n', 'evil.com', 'a', '?x=//y', '#', ' ', '@', ':');
    const candidate = fc.oneof(
      fc.array(piece, { maxLength: 12 }).map((p) => p.join('')),
      fc.array(piece, { maxLength: 12 }).map((p) => `https://expo.example${p.join('')}`),
      fc.string({ unit: 'binary', maxLength: 40 }),
    );
    fc.assert(
      fc.property(candidate, (c) => {
        const out = safeBackPath(c, ORIGIN);
        if (out === null) return;
        expect(isSafeRedirectPath(out)).toBe(true);
        // …and the browser's own reading of it stays on this site.
        expect(new URL(out, ORIGIN).origin).toBe(ORIGIN);
      }),
      { numRuns: 10_000 },
    );
    // 10,000 runs take about 2 s alone and 6 s on a busy 2-core machine: past vitest's default 5 s.
  }, 30_000);
  it('picks the first safe candidate, else the fallback', () => {
    expect(pickBackPath(['https://evil.example/', '/ok'], ORIGIN)).toBe('/ok');
    expect(pickBackPath([null, '//x'], ORIGIN)).toBe('/');
  });
});

describe('isSafeRedirectPath', () => {
  it.each([
    ['/a', true],
    ['/', true],
    ['//a', false],
    ['/\\a', false],
    ['a', false],
    ['', false],
    ['/a\nb', false],
  ])('%j → %s', (path, ok) => {
    expect(isSafeRedirectPath(path)).toBe(ok);
  });
});

describe('isHttpUrl (spec §2.5 jump links)', () => {
  it.each([
    ['https://a.example', true],
    ['HTTP://a.example', true],
    ['javascript:alert(1)', false],
    ['www.example.com', false],
    ['', false],
  ])('%s → %s', (link, ok) => {
    expect(isHttpUrl(link)).toBe(ok);
  });
});
