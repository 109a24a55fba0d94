/**
 * The abuse limits as actions see them (README "Security" > "Abuse limits"): the checks are
 * ports (functions/limits counts in the `LIMITS` Durable Object), and a refusal is an
 * {@link ActionOutcome} like any other, answered by the one adapter.
 */
import type { LimitMessageKey, SendContact } from '../security/limits';
import type { ActionOutcome, CookieWrite } from './outcome';

/** A refused request: the status, the wait (null when unknown) and the message. */
export interface LimitRefusal {
  status: 429 | 503;
  retryAfterS: number | null;
  key: LimitMessageKey;
  vars: { n: number };
}

/** A refusal by a rule of the contact's own (its reason `contact`: the contact's budget, not the address's or the destination's). */
export function refusedForContact(r: LimitRefusal): boolean {
  return r.key === 'limit.contactSeconds' || r.key === 'limit.contactMinutes';
}

/** A hit a count made, `[key, id]`, to give back later (src/lib/security/limits.ts LimitRule `unverified`). */
export type CountedHit = readonly [key: string, id: number];

/** The answer to a code send's count: go on, refused, or a challenge first. */
export type SendCheck =
  /** `unverified`: the shared-budget hits to give back when this send's code is verified or nothing was sent */
  | { kind: 'ok'; unverified: CountedHit[] }
  | { kind: 'refused'; refusal: LimitRefusal }
  /** a shared budget is full: the sender must pass a challenge; `waitS`: a wait ticket's seconds left; `ticket`: a new ticket's cookie */
  | { kind: 'challenge'; waitS: number; ticket?: CookieWrite };

/** What a code send is counted by (the client address is the port's). */
export interface SendCount {
  expoId: number;
  contact: SendContact;
  /** the nonce of this browser's binding to the contact, when it has one */
  ownNonce: string | null;
  /** the Turnstile token, when the page showed the widget */
  token: string;
  /** the caller is an island (JSON): with Turnstile configured, it passes Turnstile, never a wait ticket */
  json: boolean;
}

/** What a lookup is counted by (the client address is the port's). */
export interface LookupCount {
  expoId: number;
  contact: SendContact;
  /** the lookup checks a code (false: spec §2.2's code-less bypass) */
  checksCode: boolean;
  /** the nonce of this browser's binding of the contact's code (its wrong codes count against the contact in this browser); null: not bound */
  browser: string | null;
}

/** The lookup limits' answer: a refusal, or what to call once the upstream accepted the code. */
export interface LookupLimits {
  refused: LimitRefusal | null;
  /** Gives back the wrong-code slots the lookup took up front, and the shared-budget hits of the sends its code came from. */
  codeAccepted: (sent: readonly CountedHit[]) => Promise<void>;
}

/**
 * A refused request, as the spec answers a refused send (§4, §8: code 600, the message shown,
 * the button enabled again): JSON `{code: 600, msg, data: null}` with HTTP 429 (503 when the
 * counter is unreachable) and `Retry-After`; the island reads the body whatever the status. A
 * form post goes back to the page with every typed value and the message.
 */
export function limitOutcome(refusal: LimitRefusal): ActionOutcome<never> {
  return {
    kind: 'notice',
    notice: { tone: 'error', key: refusal.key, vars: refusal.vars, text: null },
    status: refusal.status,
    headers: refusal.retryAfterS === null ? {} : { 'retry-after': String(refusal.retryAfterS) },
    code: 600,
  };
}
