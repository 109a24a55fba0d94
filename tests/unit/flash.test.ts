import { describe, expect, it } from 'vitest';
import { decodeFlash, encodeFlash } from '../../src/lib/flash';

describe('flash (no-JS post → 303 → page)', () => {
  const path = '/IEAESearch/10542/MTMwOA/visitor?f=a';

  it('round-trips values, error and notice, unicode included', () => {
    const v = encodeFlash({
      path,
      values: { email: 'ผู้ใช้@demo.test', code: '12' },
      error: { field: 'code', key: 'search.codeDigits', text: null },
      notice: { tone: 'info', key: 'search.codeSentTo', vars: { contact: 'a@b.co' }, text: null },
    });
    expect(decodeFlash(v, path)).toEqual({
      path,
      values: { email: 'ผู้ใช้@demo.test', code: '12' },
      error: { field: 'code', key: 'search.codeDigits', text: null },
      notice: { tone: 'info', key: 'search.codeSentTo', vars: { contact: 'a@b.co' }, text: null },
    });
  });

  it('belongs to one page', () => {
    expect(decodeFlash(encodeFlash({ path }), '/other')).toBeNull();
  });

  it('cuts over-long values instead of losing them all', () => {
    const long = 'x'.repeat(1000);
    expect(decodeFlash(encodeFlash({ path, values: { email: long } }), path)?.values['email']).toHaveLength(320);
  });

  it.each(['', 'not base64!', btoa('{"path":1}'), btoa('not json')])('ignores junk %s', (v) => {
    expect(decodeFlash(v, path)).toBeNull();
  });
});
