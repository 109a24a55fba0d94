import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CHECK_TYPE_KEY,
  checkTypeOf,
  isModifiedClick,
  modeOf,
  storeCheckType,
  storedCheckType,
  write,
  type SessionStore,
} from '../../src/islands/session';
import { $resendIn, RESEND_SECONDS, secondsLeft, sendCodeLabel, startResendCountdown } from '../../src/stores/lookup';

/** An in-memory session storage. */
function storeHolding(init: Record<string, string> = {}): SessionStore & { data: Map<string, string> } {
  const data = new Map(Object.entries(init));
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

/** A storage that throws on every call (disabled storage in some in-app browsers). */
const throwing: SessionStore = {
  getItem: () => {
    throw new Error('SecurityError');
  },
  setItem: () => {
    throw new Error('QuotaExceededError');
  },
  removeItem: () => {
    throw new Error('SecurityError');
  },
};

describe('check type and mode (spec §2.1, §9)', () => {
  it('1 is phone, 2 is e-mail, both ways', () => {
    expect(checkTypeOf('phone')).toBe(1);
    expect(checkTypeOf('email')).toBe(2);
    expect(modeOf(1)).toBe('phone');
    expect(modeOf(2)).toBe('email');
  });
});

describe('stored check type (spec §2.1: default 2 unless a stored choice exists)', () => {
  it('reads a stored 1 or 2 when the page offers that mode', () => {
    expect(storedCheckType(storeHolding({ checkType: '1' }), ['phone', 'email'])).toBe(1);
    expect(storedCheckType(storeHolding({ checkType: '2' }), ['email', 'phone'])).toBe(2);
  });
  it('ignores a stored mode the page does not offer (an e-mail-only variant)', () => {
    expect(storedCheckType(storeHolding({ checkType: '1' }), ['email'])).toBeNull();
  });
  it('ignores nothing stored, junk, or a storage that throws', () => {
    expect(storedCheckType(storeHolding(), ['phone', 'email'])).toBeNull();
    expect(storedCheckType(storeHolding({ checkType: '3' }), ['phone', 'email'])).toBeNull();
    expect(storedCheckType(storeHolding({ checkType: ' 1' }), ['phone', 'email'])).toBeNull();
    expect(storedCheckType(throwing, ['phone', 'email'])).toBeNull();
    expect(storedCheckType(null, ['phone', 'email'])).toBeNull();
  });
  it('stores the chosen mode under checkType', () => {
    const s = storeHolding();
    storeCheckType(s, 1);
    expect(s.data.get(CHECK_TYPE_KEY)).toBe('1');
    storeCheckType(s, 2);
    expect(s.data.get('checkType')).toBe('2');
  });
});

describe('session entries of a lookup reply (spec §4)', () => {
  it('removes, then sets: zero records by phone keep phone and areatext, drop email', () => {
    const s = storeHolding({ email: 'a@b.com', checkType: '1' });
    write(s, { phone: '+66 812345678', areatext: '+66 Thailand' }, ['email']);
    expect(Object.fromEntries(s.data)).toEqual({ checkType: '1', phone: '+66 812345678', areatext: '+66 Thailand' });
  });
  it('a key both removed and set ends up set', () => {
    const s = storeHolding({ phone: 'old' });
    write(s, { phone: 'new' }, ['phone']);
    expect(s.data.get('phone')).toBe('new');
  });
  it('never throws: no storage or a failing one', () => {
    expect(() => write(null, { a: '1' }, ['b'])).not.toThrow();
    expect(() => write(throwing, { a: '1' }, ['b'])).not.toThrow();
    expect(() => storeCheckType(throwing, 1)).not.toThrow();
  });
});

describe('modified clicks are left to the browser', () => {
  const plain = { button: 0, metaKey: false, ctrlKey: false, shiftKey: false, altKey: false };
  it('a plain left click is handled in place', () => expect(isModifiedClick(plain)).toBe(false));
  it.each([{ button: 1 }, { metaKey: true }, { ctrlKey: true }, { shiftKey: true }, { altKey: true }])(
    '%o is not',
    (m) => expect(isModifiedClick({ ...plain, ...m })).toBe(true),
  );
});

describe('send-code countdown (spec §4, §9)', () => {
  afterEach(() => {
    startResendCountdown(0);
    vi.useRealTimers();
  });
  it('counts whole seconds up to a deadline, never below 0', () => {
    expect(secondsLeft(60_000, 0)).toBe(60);
    expect(secondsLeft(60_000, 1)).toBe(60);
    expect(secondsLeft(60_000, 59_001)).toBe(1);
    expect(secondsLeft(60_000, 60_000)).toBe(0);
    expect(secondsLeft(60_000, 99_000)).toBe(0);
  });
  it('is 60 seconds', () => expect(RESEND_SECONDS).toBe(60));
  it('ticks once a second while listened to, down to 0, and stops ticking when nobody listens', () => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
    const seen: number[] = [];
    const unlisten = $resendIn.subscribe((n) => seen.push(n));
    startResendCountdown(3);
    vi.advanceTimersByTime(5000);
    expect(seen).toEqual([0, 3, 2, 1, 0]);
    unlisten();
    vi.advanceTimersByTime(2000); // nanostores unmounts a store 1 s after its last listener
    expect(vi.getTimerCount()).toBe(0);
  });
  it('restarts from the prop after a reload (resendIn from the server)', () => {
    startResendCountdown(42, 0);
    expect($resendIn.get()).toBe(42);
  });
});

describe('send-code label (spec §4)', () => {
  const strings = {
    'search.sendCode': 'Get code',
    'search.sending': 'Getting verification code, please wait',
    'search.countdown': 'Getting now ({{n}})',
    'search.reget': 'Get again',
  };
  it('send code before any send', () =>
    expect(sendCodeLabel({ sending: false, left: 0, sent: false }, strings)).toBe('Get code'));
  it('the sending text while in flight', () =>
    expect(sendCodeLabel({ sending: true, left: 0, sent: false }, strings)).toBe(
      'Getting verification code, please wait',
    ));
  it('"getting now (n)" while counting down', () =>
    expect(sendCodeLabel({ sending: false, left: 42, sent: true }, strings)).toBe('Getting now (42)'));
  it('reget once the countdown is over', () =>
    expect(sendCodeLabel({ sending: false, left: 0, sent: true }, strings)).toBe('Get again'));
});
