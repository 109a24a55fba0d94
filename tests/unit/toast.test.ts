import { describe, expect, it } from 'vitest';
import { toastFor, toastTop, TOAST_GAP_PX } from '../../src/lib/page/toast';

describe('error toast rules (spec §8)', () => {
  it('offline: network-not-connected for 5 s', () => {
    expect(toastFor({ kind: 'offline' })).toEqual({ key: 'error.offline', durationMs: 5000 });
  });
  it('404 names the method url, 3 s', () => {
    expect(toastFor({ kind: 'http', status: 404, statusText: 'Not Found', url: '/api/x' })).toEqual({
      key: 'error.notFoundMethod',
      vars: { url: '/api/x' },
      durationMs: 3000,
    });
  });
  it('405 is a server error with its status text, 3 s', () => {
    expect(toastFor({ kind: 'http', status: 405, statusText: 'Method Not Allowed', url: '/' })).toMatchObject({
      key: 'error.server',
      vars: { status: 'Method Not Allowed' },
      durationMs: 3000,
    });
  });
  it('500 is a server error, 5 s', () => {
    expect(toastFor({ kind: 'http', status: 500, statusText: 'Internal Server Error', url: '/' })).toMatchObject({
      key: 'error.server',
      durationMs: 5000,
    });
  });
  it('403 is silent', () => {
    expect(toastFor({ kind: 'http', status: 403, statusText: 'Forbidden', url: '/' })).toBeNull();
  });
  it('a body code shows the server message, else "error"', () => {
    expect(toastFor({ kind: 'body', code: 600, msg: 'Too frequent' })).toEqual({ key: null, text: 'Too frequent', durationMs: 3000 });
    expect(toastFor({ kind: 'body', code: 500, msg: '  ' })).toEqual({ key: 'error.generic', durationMs: 3000 });
  });
});

describe('toastTop (issue 14 item 4): below the header, never over the language menu', () => {
  it.each([
    [48, 48 + TOAST_GAP_PX],
    [47.4, 48 + TOAST_GAP_PX],
    [96, 96 + TOAST_GAP_PX],
    [0, TOAST_GAP_PX],
    [-200, TOAST_GAP_PX],
    [null, TOAST_GAP_PX],
  ])('header bottom %s → top %i', (bottom, top) => {
    expect(toastTop(bottom)).toBe(top);
  });
});
