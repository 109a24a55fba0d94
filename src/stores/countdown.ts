/**
 * Whole seconds left until `deadline` (ms since the epoch), never negative, rounded up: a
 * countdown shows 1 until the very end. Counting against a deadline rather than decrementing
 * keeps it right when a background tab's timers are throttled.
 * @example secondsLeft(10_500, 10_000) // 1
 */
export function secondsLeft(deadline: number, now: number): number {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

/** The seconds left, as a store a component subscribes to (`useEffect(() => c.$left.listen(setLeft), [c])`). */
export interface SecondsStore {
  get(): number;
  /** calls `cb` with each new value; returns the unsubscribe */
  listen(cb: (left: number) => void): () => void;
}

/** A countdown to a deadline: the seconds left, and a way to start it again. */
export interface Countdown {
  /** whole seconds left; ticks while a component listens */
  $left: SecondsStore;
  /** (re)starts the countdown at `seconds` from `now` */
  start(seconds: number, now?: number): void;
}

/**
 * A countdown store, started at `seconds` from `now`. Its timer runs only while someone listens
 * (STYLE.md §12: it starts with the first listener and stops with the last). Islands make one per
 * instance (`useState(() => countdown(n))`), so the server renders `seconds` and the browser
 * counts from when it hydrated. No store library, so the chunk every page loads stays as it is.
 * @param tickMs how often the seconds are read again while a component listens
 * @example const hold = countdown(1800); hold.$left.get() // 1800
 */
export function countdown(seconds: number, tickMs = 1000, now = Date.now()): Countdown {
  let deadline = 0;
  let left = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  const listeners = new Set<(left: number) => void>();
  const set = (n: number) => {
    if (n === left) return;
    left = n;
    for (const cb of listeners) cb(n);
  };
  // A deadline already past (seconds ≤ 0) reads as 0.
  const start = (s: number, at = Date.now()) => {
    deadline = at + s * 1000;
    set(secondsLeft(deadline, at));
  };
  const $left: SecondsStore = {
    get: () => left,
    listen(cb) {
      listeners.add(cb);
      timer ??= setInterval(() => set(secondsLeft(deadline, Date.now())), tickMs);
      return () => {
        listeners.delete(cb);
        if (listeners.size > 0) return;
        clearInterval(timer);
        timer = undefined;
      };
    },
  };
  start(seconds, now);
  return { $left, start };
}
