/**
 * spec §2.5 "Browser back inside a mini-program goes back 2 steps": in the messaging app's
 * mini-program web-view, one back press leaves two history entries. Pure: the script
 * (src/scripts/mini-back.ts) keeps each entry's position in `history.state` and the visit's
 * last position in session storage, and asks `backStep` what to do when a page is shown.
 */
import { inMessagingApp } from './user-agent';

/**
 * Whether a page may be inside a mini-program, from the user agent alone: the web-view's user
 * agent says `miniProgram`, and inside the messaging app the JS-SDK may still say so at run
 * time (`window.__wxjs_environment`). Only then does the page load the back script.
 * @example miniProgramContext('Mozilla/5.0 … MicroMessenger/8.0.40 miniProgram') // true
 */
export function miniProgramContext(userAgent: string): boolean {
  return /miniProgram/i.test(userAgent) || inMessagingApp(userAgent);
}

/**
 * Whether the page is in a mini-program's web-view (run time): `window.__wxjs_environment ===
 * 'miniprogram'`, or `miniProgram` in the user agent.
 * @example inMiniProgram('Mozilla/5.0 MicroMessenger/8.0', 'miniprogram') // true
 */
export function inMiniProgram(userAgent: string, wxjsEnvironment: unknown): boolean {
  return wxjsEnvironment === 'miniprogram' || /miniProgram/i.test(userAgent);
}

/** What the back script keeps for a visit (session storage). */
export interface BackState {
  /** the position of the entry shown last */
  at: number;
  /** a back press is half done: the next entry shown is where it ends */
  skipping: boolean;
}

/** What to do on showing a page. */
export interface BackStep {
  /** the position to write into this entry's `history.state` (a new entry gets the next one) */
  position: number;
  /** the state to keep */
  next: BackState;
  /** go back one more entry now */
  goBack: boolean;
}

/**
 * What a shown page does (spec §2.5). `position` is this entry's own (from `history.state`),
 * null for an entry shown the first time; `stored` the visit's state (null: none yet).
 * - a new entry: the next position, nothing else;
 * - an entry before the last one (a back press), not already skipping: go back once more;
 * - the entry a skip lands on: stay, the skip is over;
 * - an entry after the last one (forward): stay.
 * @example backStep({ at: 3, skipping: false }, 2) // { position: 2, next: { at: 2, skipping: true }, goBack: true }
 */
export function backStep(stored: BackState | null, position: number | null): BackStep {
  const at = stored?.at ?? 0;
  if (position === null) return { position: at + 1, next: { at: at + 1, skipping: false }, goBack: false };
  if (stored?.skipping) return { position, next: { at: position, skipping: false }, goBack: false };
  if (position < at && position > 1) return { position, next: { at: position, skipping: true }, goBack: true };
  return { position, next: { at: position, skipping: false }, goBack: false };
}

/** Reads the kept state; anything unreadable is none. */
export function readBackState(raw: string | null): BackState | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<BackState>;
    return typeof v.at === 'number' && Number.isInteger(v.at) && v.at >= 0 ? { at: v.at, skipping: v.skipping === true } : null;
  } catch {
    return null;
  }
}
