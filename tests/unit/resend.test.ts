import { describe, expect, it } from 'vitest';
import { decodeSentTo, encodeSentTo, resendWaitS } from '../../src/lib/lookup/resend';

const now = 1_800_000_000_000;
const at = (secondsAgo: number) => String(now / 1000 - secondsAgo);

it.each([
  [undefined, 0],
  ['junk', 0],
  [at(0), 60],
  [at(45), 15],
  [at(59), 1],
  [at(60), 0],
  [at(-30), 0],
])('cookie %s → wait %i s (spec §4 60-second countdown)', (cookie, wait) => {
  expect(resendWaitS(cookie, now)).toBe(wait);
});

describe('sentTo cookie (issue 14 item 3)', () => {
  const s = { expoId: 1312, checkType: 1 as const, areaCode: '+66', phone: '812345678', email: '' };

  it('round-trips the contact for the same expo only', () => {
    const v = encodeSentTo(s);
    expect(v).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(v).not.toContain('812345678');
    expect(decodeSentTo(v, 1312)).toEqual(s);
    expect(decodeSentTo(v, 1308)).toBeNull();
  });

  it('unicode e-mails survive; over-long values are cut', () => {
    const e = { ...s, checkType: 2 as const, areaCode: '', phone: '', email: `ผู้ใช้${'a'.repeat(400)}@demo.test` };
    expect(decodeSentTo(encodeSentTo(e), 1312)?.email).toBe(e.email.slice(0, 320));
  });

  it.each([undefined, '', 'junk!', 'W10', Buffer.from('[1312,3,"","",""]').toString('base64url'), Buffer.from('{"a":1}').toString('base64url'), 'a'.repeat(3000)])(
    'a malformed value %s reads as nothing',
    (v) => {
      expect(decodeSentTo(v, 1312)).toBeNull();
    },
  );
});
