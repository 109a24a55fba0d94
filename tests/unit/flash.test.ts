import { describe, expect, it } from 'vitest';
import { decodeFlash, displayText, encodeFlash, FLASH_MAX_BYTES, FLASH_MAX_TEXT } from '../../src/lib/page/flash';

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

  it('carries every failing field of a form at once (issue 14), each with its own message', () => {
    const errors = [
      { field: 'uname', key: 'form.supplement', text: null },
      { field: 'phone', key: 'form.phoneIncorrect', text: null },
      { field: 'visitDate', key: 'form.dateFormat', text: null },
    ];
    const v = encodeFlash({ path, values: { phone: '12' }, error: errors[0], errors });
    expect(decodeFlash(v, path)?.errors).toEqual(errors);
    // A post naming hundreds of fields still makes a cookie under the limit.
    const many = Array.from({ length: 500 }, (_, i) => ({ field: `f${i}`.repeat(20), key: 'form.supplement', text: 'x'.repeat(400) }));
    const big = encodeFlash({ path, errors: many });
    expect(big.length).toBeLessThanOrEqual(FLASH_MAX_BYTES);
  });

  it('belongs to one page', () => {
    expect(decodeFlash(encodeFlash({ path }), '/other')).toBeNull();
  });

  it('cuts over-long values instead of losing them all', () => {
    const long = 'x'.repeat(1000);
    expect(decodeFlash(encodeFlash({ path, values: { email: long } }), path)?.values['email']).toHaveLength(320);
  });

  it('never throws, and stays under the cookie limit, whatever it is given (issue 9 hole 4)', () => {
    const longPath = `/search/1/MjAwMQ/visitor?f=${'p'.repeat(900)}`;
    const message = 'too frequent '.repeat(500);
    const v = encodeFlash({
      path: longPath,
      values: Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`field${i}`, `值${i}`.repeat(100)])),
      notice: { tone: 'error', key: null, text: message, vars: { n: 'x'.repeat(5000) } },
      error: { field: 'f'.repeat(200), key: null, text: message },
    });
    expect(v.length).toBeLessThanOrEqual(FLASH_MAX_BYTES);
    const back = decodeFlash(v, longPath);
    expect(back?.notice?.text?.length).toBeLessThanOrEqual(FLASH_MAX_TEXT);
    expect(back?.notice?.text?.endsWith('…')).toBe(true);
    // A form's own few short fields survive a post padded with hundreds of long ones.
    const padded = encodeFlash({
      path,
      values: {
        uname: '张三',
        email: 'a@b.test',
        ...Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`junk${i}`, 'j'.repeat(300)])),
      },
    });
    expect(padded.length).toBeLessThanOrEqual(FLASH_MAX_BYTES);
    expect(decodeFlash(padded, path)?.values).toMatchObject({ uname: '张三', email: 'a@b.test' });
  });

  it('displayText cuts at a readable length without splitting a character', () => {
    expect(displayText('a  b\n c')).toBe('a b c');
    expect(displayText('x'.repeat(10), 5)).toBe('xxxx…');
    expect(displayText('😀'.repeat(10), 6)).toBe('😀😀…');
  });

  it.each(['', 'not base64!', btoa('{"path":1}'), btoa('not json')])('ignores junk %s', (v) => {
    expect(decodeFlash(v, path)).toBeNull();
  });
});
