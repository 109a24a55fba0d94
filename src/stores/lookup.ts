import { atom, onMount } from 'nanostores';
import { interpolate } from '../lib/util/interpolate';

/** The send-code countdown (spec §4, §9: 60 s). */
export const RESEND_SECONDS = 60;

/**
 * Whole seconds left until `deadline` (ms since the epoch), never negative. Counting against a
 * deadline rather than decrementing keeps the countdown right when a background tab's timers
 * are throttled.
 * @example secondsLeft(10_500, 10_000) // 1
 */
export function secondsLeft(deadline: number, now: number): number {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

let deadline = 0;

/**
 * Seconds until the send-code button may be used again (spec §4). Ticks once a second while a
 * component listens (STYLE.md 12: the timer lives in the store's onMount, with its cleanup).
 * Never set on the server: the server renders the label from `resendIn`; the form's script starts it.
 */
export const $resendIn = atom(0);

onMount($resendIn, () => {
  const id = setInterval(() => $resendIn.set(secondsLeft(deadline, Date.now())), 1000);
  return () => clearInterval(id);
});

/** Starts (or restarts) the countdown at `seconds`. */
export function startResendCountdown(seconds: number, now: number = Date.now()): void {
  deadline = now + Math.max(0, seconds) * 1000;
  $resendIn.set(secondsLeft(deadline, now));
}

/** What the send-code button is doing, for its label. */
export interface SendCodeState {
  sending: boolean;
  /** seconds left in the countdown (0 when none runs) */
  left: number;
  /** a code was sent before (then the idle button says "reget") */
  sent: boolean;
}

/**
 * The send-code button's label (spec §4): "getting now (n)" while counting down, "reget" once a
 * code was sent, else "send code"; a request in flight shows the sending text.
 * @example sendCodeLabel({ sending: false, left: 42, sent: true }, strings) // 'Resend in 42 s'
 */
export function sendCodeLabel(
  state: SendCodeState,
  strings: Readonly<Record<'search.sendCode' | 'search.sending' | 'search.countdown' | 'search.reget', string>>,
): string {
  if (state.sending) return strings['search.sending'];
  if (state.left > 0) return interpolate(strings['search.countdown'], { n: state.left });
  return state.sent ? strings['search.reget'] : strings['search.sendCode'];
}
