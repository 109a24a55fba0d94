import { expect, it } from 'vitest';
import { fromBase64url, jsonFromBase64url, jsonToBase64url, toBase64url } from '../../src/lib/util/base64url';
import { utf8OrNull } from '../../src/lib/util/bytes';

it('round-trips bytes without padding and rejects what is not base64url', () => {
  const bytes = new Uint8Array([0, 1, 250, 251, 252, 253, 254, 255]);
  const text = toBase64url(bytes);
  expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
  expect(fromBase64url(text)).toEqual(bytes);
  expect(fromBase64url('a+b/')).toBeNull();
  expect(fromBase64url('A')).toBeNull();
});

it('carries JSON as base64url of its UTF-8 text; undefined for anything else', () => {
  const value = { a: '中文 ✓', n: [1, null] };
  const text = jsonToBase64url(value);
  expect(text).toBe(toBase64url(new TextEncoder().encode(JSON.stringify(value))));
  expect(jsonFromBase64url(text)).toEqual(value);
  expect(jsonFromBase64url('')).toBeUndefined();
  expect(jsonFromBase64url('a+b/')).toBeUndefined();
  expect(jsonFromBase64url(toBase64url(new TextEncoder().encode('{nope')))).toBeUndefined();
  expect(jsonFromBase64url(toBase64url(new Uint8Array([0x22, 0xff, 0x22])))).toBeUndefined();
});

it('reads strict UTF-8: null rather than a replacement character', () => {
  expect(utf8OrNull(new TextEncoder().encode('ok ✓'))).toBe('ok ✓');
  expect(utf8OrNull(new Uint8Array([0xff]))).toBeNull();
  expect(utf8OrNull(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))).toBe('a');
  // one decoder serves every call: a sequence cut short leaves nothing behind for the next
  expect(utf8OrNull(new Uint8Array([0xe2, 0x9c]))).toBeNull();
  expect(utf8OrNull(new Uint8Array([0x93, 0x62]))).toBeNull();
  expect(utf8OrNull(new Uint8Array([0x62]))).toBe('b');
});
