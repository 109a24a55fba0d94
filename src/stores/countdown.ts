import { atom, onMount, type ReadableAtom } from 'nanostores';

/**
 * Whole seconds left until `deadline` (ms since the epoch), never negative, rounded up: a
 * countdown shows 1 until the very end. Counting against a deadline rather than decrementing
 * keeps it right when a background tab's timers are throttled.
 * @example secondsLeft(10_500, 10_000) // 1
 */
export function secondsLeft(deadline: number, now: number): number {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

/** A countdown to a deadline: the seconds left, and a way to start it again. */
export interface Countdown {
  /** whole seconds left; ticks while a component listens */
  $left: ReadableAtom<number>;
  /** (re)starts the countdown at `seconds` from `now` */
  start(seconds: number, now?: number): void;
}

/**
 * A countdown store (STYLE.md §12: the timer lives in the store's onMount, with its cleanup),
 * started at `seconds` from `now`. Islands make one per instance (`useState(() => countdown(n))`),
 * so the server renders `seconds` and the browser counts from when it hydrated.
 * @param tickMs how often the seconds are read again while a component listens
 * @example const hold = countdown(1800); hold.$left.get() // 1800
 */
export function countdown(seconds: number, options: { tickMs?: number; now?: number } = {}): Countdown {
  let deadline = 0;
  const $left = atom(0);
  const start = (s: number, now: number = Date.now()) => {
    deadline = now + Math.max(0, s) * 1000;
    $left.set(secondsLeft(deadline, now));
  };
  onMount($left, () => {
    const id = setInterval(() => $left.set(secondsLeft(deadline, Date.now())), options.tickMs ?? 1000);
    return () => clearInterval(id);
  });
  start(seconds, options.now);
  return { $left, start };
}
