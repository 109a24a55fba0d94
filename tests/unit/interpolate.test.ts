import { expect, it } from 'vitest';
import { interpolate } from '../../src/lib/util/interpolate';

it('fills placeholders and leaves unknown ones', () => {
  expect(interpolate('getting now ({{n}})', { n: 42 })).toBe('getting now (42)');
  expect(interpolate('{{ a }}-{{b}}', { a: 'x' })).toBe('x-{{b}}');
  expect(interpolate('plain')).toBe('plain');
});
