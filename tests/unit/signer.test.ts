import { describe, expect, it } from 'vitest';
import { mac, macMatches, MIN_SECRET_LENGTH, openJson, openToken, signJson, signToken } from '../../src/lib/util/signer';
import { toBase64url } from '../../src/lib/util/base64url';

const secret = 'test-session-secret-0123456789abcdef';
const other = 'another-secret-0123456789abcdef';

/** The cookie format every signed value had before the signer: HMAC-SHA-256 over (key prefix + secret, text prefix + body). */
async function reference(body: string, keyText: string, text: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', enc.encode(keyText), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return `${body}.${toBase64url(new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(text))))}`;
}

describe('mac and macMatches', () => {
  it('a MAC verifies for the same text, secret and purpose only', async () => {
    const sig = await mac(secret, 'hello', { text: 'p:' });
    expect(sig).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await macMatches(secret, 'hello', sig, { text: 'p:' })).toBe(true);
    expect(await macMatches(secret, 'hellp', sig, { text: 'p:' })).toBe(false);
    expect(await macMatches(other, 'hello', sig, { text: 'p:' })).toBe(false);
    expect(await macMatches(secret, 'hello', sig, { text: 'q:' })).toBe(false);
    expect(await macMatches(secret, 'hello', sig)).toBe(false);
    expect(await macMatches(secret, 'hello', sig, { text: 'p:', key: 'k|' })).toBe(false);
  });

  it('a truncated, empty or non-base64url signature does not verify', async () => {
    const sig = await mac(secret, 'hello');
    expect(await macMatches(secret, 'hello', sig.slice(0, -1))).toBe(false);
    expect(await macMatches(secret, 'hello', sig.slice(0, 20))).toBe(false);
    expect(await macMatches(secret, 'hello', '')).toBe(false);
    expect(await macMatches(secret, 'hello', `${sig.slice(0, -2)}+/`)).toBe(false);
  });

  it('refuses a secret shorter than the minimum', async () => {
    await expect(mac('x'.repeat(MIN_SECRET_LENGTH - 1), 'hello')).rejects.toThrow(/SESSION_SECRET must be at least 16/);
    await expect(mac('x'.repeat(MIN_SECRET_LENGTH), 'hello')).resolves.toMatch(/^[A-Za-z0-9_-]+$/);
  });
});

describe('signToken and openToken', () => {
  it('writes body.sig byte for byte as before (text and key prefixes)', async () => {
    expect(await signToken('abc', secret)).toBe(await reference('abc', secret, 'abc'));
    expect(await signToken('abc', secret, { text: 'bind.' })).toBe(await reference('abc', secret, 'bind.abc'));
    expect(await signToken('abc', secret, { key: 'idem|' })).toBe(await reference('abc', `idem|${secret}`, 'abc'));
  });

  it('opens its own token and nothing tampered, truncated, re-keyed or malformed', async () => {
    const token = await signToken('abc', secret, { text: 'x.' });
    expect(await openToken(token, secret, { text: 'x.' })).toBe('abc');
    expect(await openToken(token.replace('abc', 'abd'), secret, { text: 'x.' })).toBeNull();
    expect(await openToken(token.slice(0, -3), secret, { text: 'x.' })).toBeNull();
    expect(await openToken(token, other, { text: 'x.' })).toBeNull();
    expect(await openToken(token, secret, { text: 'y.' })).toBeNull();
    expect(await openToken(`${token}.more`, secret, { text: 'x.' })).toBeNull();
    expect(await openToken('abc', secret)).toBeNull();
    expect(await openToken(`.${token.split('.')[1]}`, secret)).toBeNull();
    expect(await openToken('', secret)).toBeNull();
    expect(await openToken(null, secret)).toBeNull();
    expect(await openToken(undefined, secret)).toBeNull();
  });

  it('refuses a value longer than maxLength before any crypto', async () => {
    const token = await signToken('a'.repeat(100), secret);
    expect(await openToken(token, secret, { maxLength: token.length })).toBe('a'.repeat(100));
    expect(await openToken(token, secret, { maxLength: token.length - 1 })).toBeNull();
  });
});

describe('signJson and openJson', () => {
  it('round-trips an object payload; the caller checks its fields and expiry', async () => {
    const token = await signJson({ k: 'key', x: 123 }, secret);
    expect(token.split('.')[0]).toBe(toBase64url(new TextEncoder().encode('{"k":"key","x":123}')));
    expect(await openJson(token, secret)).toEqual({ k: 'key', x: 123 });
  });

  it('null for a forged payload, a body that is not JSON, or JSON that is not an object', async () => {
    const token = await signJson({ a: 1 }, secret);
    const forged = `${toBase64url(new TextEncoder().encode('{"a":2}'))}.${token.split('.')[1]}`;
    expect(await openJson(forged, secret)).toBeNull();
    expect(await openJson(await signToken(toBase64url(new TextEncoder().encode('{not json')), secret), secret)).toBeNull();
    expect(await openJson(await signToken(toBase64url(new TextEncoder().encode('[1,2]')), secret), secret)).toBeNull();
    expect(await openJson(await signToken(toBase64url(new TextEncoder().encode('7')), secret), secret)).toBeNull();
    expect(await openJson(await signToken('not*base64', secret), secret)).toBeNull();
  });
});
