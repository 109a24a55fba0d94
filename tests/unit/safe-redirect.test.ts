import { describe, expect, it } from 'vitest';
import { isHttpUrl, pickBackPath, safeBackPath } from '../../src/lib/safe-redirect';

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
  it('picks the first safe candidate, else the fallback', () => {
    expect(pickBackPath(['https://evil.example/', '/ok'], ORIGIN)).toBe('/ok');
    expect(pickBackPath([null, '//x'], ORIGIN)).toBe('/');
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
