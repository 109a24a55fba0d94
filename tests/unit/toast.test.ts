import { describe, expect, it } from 'vitest';
import { toastFor } from '../../src/lib/toast';

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
