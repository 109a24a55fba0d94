import { expect, it } from 'vitest';
import { fromBase64url, toBase64url } from '../../src/lib/util/base64url';

it('round-trips bytes without padding and rejects what is not base64url', () => {
  const bytes = new Uint8Array([0, 1, 250, 251, 252, 253, 254, 255]);
  const text = toBase64url(bytes);
  expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
  expect(fromBase64url(text)).toEqual(bytes);
  expect(fromBase64url('a+b/')).toBeNull();
  expect(fromBase64url('A')).toBeNull();
});
