import { expect, it } from 'vitest';
import { resendWaitS } from '../../src/lib/resend';

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
