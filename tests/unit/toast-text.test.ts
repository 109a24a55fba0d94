import { describe, expect, it } from 'vitest';
import { toastText } from '../../src/stores/toast';

/** The words of a toast: one rule for the React toast (ToastHost.tsx) and the plain one (scripts/toast-host.ts). */
describe('toastText', () => {
  const strings = { 'error.server': 'Server error: {{status}}', 'error.generic': 'Something went wrong' };
  it('a catalogue key: its text, with its values', () => {
    expect(toastText({ key: 'error.server', vars: { status: 'Bad Gateway' }, durationMs: 5000 }, strings)).toBe('Server error: Bad Gateway');
  });
  it('a key the page did not pass: the generic error', () => {
    expect(toastText({ key: 'error.timeout', durationMs: 3000 }, strings)).toBe('Something went wrong');
  });
  it('no generic text either: a plain word, never an empty toast', () => {
    expect(toastText({ key: 'error.timeout', durationMs: 3000 }, {})).toBe('error');
  });
  it('the server\'s own message (no key): shown as is, not interpolated', () => {
    expect(toastText({ key: null, text: 'Closed {{today}}', durationMs: 3000 }, strings)).toBe('Closed {{today}}');
  });
});
