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

// ---- The lookup islands' shared state (src/islands/LookupForm.tsx, SendCodeButton.tsx,
// SelectPopup.tsx): each island is a view of these stores, so the form and the send-code button
// share the mode, the typed values and the field error without props threading. Never set on the
// server (module state is shared between requests there): islands render their props until they
// have hydrated, then read the stores.

/** The values typed into the lookup form (the form island keeps them here as they are typed). */
export interface LookupTyped {
  areaCode: string;
  phone: string;
  email: string;
  code: string;
}

/** The chosen contact mode: 1 phone, 2 e-mail (spec §2.1). */
export const $checkType = atom<1 | 2>(2);
/** What the visitor typed; the send-code button reads it too. */
export const $lookupValues = atom<LookupTyped>({ areaCode: '', phone: '', email: '', code: '' });
/** The page's calling codes (the form island sets them on hydration): a phone typed as `+66 8…` is split by them. */
export const $areaCodes = atom<readonly string[]>([]);
/** True once the form island has hydrated and filled the stores above (a send-code click before that posts the form). */
export const $lookupReady = atom(false);
/**
 * The field error on screen, or null. `seq` grows with each message shown in the browser: the
 * form island moves focus to the field when it changes (spec §5); the server's error (seq 0) moves none.
 */
export const $fieldError = atom<{ field: 'areaCode' | 'phone' | 'email' | 'code'; message: string; seq: number } | null>(null);
/** A code was sent before (the idle send-code button then says "reget"). */
export const $codeSent = atom(false);
/** A send-code request is in flight. */
export const $sending = atom(false);
/** Where focus goes next (the code field after a code went out); the form island takes it. */
export const $focusRequest = atom<{ id: string; seq: number } | null>(null);

let seq = 0;
/** Shows `message` under `field` and moves focus to it (spec §5). */
export function showFieldError(field: 'areaCode' | 'phone' | 'email' | 'code', message: string): void {
  $fieldError.set({ field, message, seq: ++seq });
}
/** Asks the form island to focus the element `id` once drawn. */
export function requestFocus(id: string): void {
  $focusRequest.set({ id, seq: ++seq });
}

/** One row of the selection popup (several registrations match, spec §2.1). */
export interface SelectRowView {
  href: string;
  name: string;
  label: string;
}
/** The selection popup's rows; null while it is closed. */
export const $selectRows = atom<readonly SelectRowView[] | null>(null);
