import { describe, expect, it } from 'vitest';
import { backStep, inMiniProgram, miniProgramContext, readBackState } from '../../src/lib/page/mini-program';

const WECHAT = 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36 MicroMessenger/8.0.47';
const MINI = `${WECHAT} miniProgram/wx1234567890`;

describe('spec §2.5 "Browser back inside a mini-program goes back 2 steps"', () => {
  it('the script loads inside the messaging app; it acts only in a mini-program', () => {
    expect(miniProgramContext(MINI)).toBe(true);
    expect(miniProgramContext(WECHAT)).toBe(true);
    expect(miniProgramContext('Mozilla/5.0 Safari/604.1')).toBe(false);
    expect(inMiniProgram(MINI, undefined)).toBe(true);
    expect(inMiniProgram(WECHAT, 'miniprogram')).toBe(true);
    expect(inMiniProgram(WECHAT, 'browser')).toBe(false);
    expect(inMiniProgram(WECHAT, undefined)).toBe(false);
  });

  it('a new entry takes the next position', () => {
    expect(backStep(null, null)).toEqual({ position: 1, next: { at: 1, skipping: false }, goBack: false });
    expect(backStep({ at: 2, skipping: false }, null)).toEqual({ position: 3, next: { at: 3, skipping: false }, goBack: false });
  });

  it('one back press (an earlier entry shown) goes back one more entry, and stops there', () => {
    const first = backStep({ at: 3, skipping: false }, 2);
    expect(first).toEqual({ position: 2, next: { at: 2, skipping: true }, goBack: true });
    expect(backStep(first.next, 1)).toEqual({ position: 1, next: { at: 1, skipping: false }, goBack: false });
  });

  it('never skips past the first page of the visit, nor on forward or a reload', () => {
    expect(backStep({ at: 2, skipping: false }, 1).goBack).toBe(false);
    expect(backStep({ at: 2, skipping: false }, 3).goBack).toBe(false);
    expect(backStep({ at: 2, skipping: false }, 2).goBack).toBe(false);
  });

  it('reads only a well-formed kept state', () => {
    expect(readBackState('{"at":2,"skipping":true}')).toEqual({ at: 2, skipping: true });
    expect(readBackState('{"at":-1}')).toBeNull();
    expect(readBackState('nope')).toBeNull();
    expect(readBackState(null)).toBeNull();
  });
});
