/**
 * How much of a ticket one contact may hold without paying (issue 29; docs/upstream.md "Open
 * orders", our reading). Pure rules: the numbers in, the answer out. createOrderNew checks the
 * same rules inside its one conditional INSERT (the SQL below is written from the same
 * constants), so parallel orders cannot pass them together; tests/edge/reference.holds.worker.test.ts
 * proves the SQL and these functions agree.
 *
 * **The share.** An unpaid order holds tickets nobody else can buy, for up to 30 minutes (spec
 * §9), and holding costs nothing. So of a ticket with limited stock, one contact's (mailbox's)
 * unpaid orders may hold at most a third of the pool, the tickets not held by anyone else (what
 * is left, plus what this contact already holds unpaid), rounded down, and at least 1 while any
 * is left. Why a third: one contact can never take what is left while more than one ticket is
 * left (a third of 2 is 0, so 1), the last 8 Day Passes of 1216 allow 2, and 5 contacts get at
 * most 20 + 20 + 20 + 13 + 9 = 82 of 100 VIP tickets (20 an order, 1 open order per ticket);
 * holding all of them takes 13. The very last ticket can be held (someone must hold it to pay
 * for it), and the cooldown below keeps that holder from renewing it. A paid order is not
 * limited by this (paying is the real purchase): paid tickets are out of the pool, and the
 * per-contact limit (`limitPerContact`) still applies on top. Unlimited stock has no share.
 *
 * **The cooldown.** Cancelling frees the tickets for others at once, but the same contact may
 * not order that ticket again for 15 minutes after its unpaid order stopped holding (cancelled,
 * or its hold ran out unpaid): cancelling and ordering again never renews a hold, and between
 * two holds of one contact the tickets are free for everyone else for at least 15 minutes.
 * A fixed wait rather than "the rest of the old hold": a buyer who cancels to change the
 * quantity waits 15 minutes at most, never 38. Only tickets with limited stock.
 */
import { HOLD_COOLDOWN_MINUTES, HOLD_SHARE_DIVISOR } from './rules';

export const HOLD_COOLDOWN_MS = HOLD_COOLDOWN_MINUTES * 60_000;

/** The counts of one ticket and one contact at one instant. */
export interface HoldCounts {
  /** tickets in all, sold ones included; 0 = unlimited */
  stock: number;
  /** tickets not free: sold before (the seed's `sold_count`) plus every order that holds them (paid, pending review, refund applied, unpaid in its hold), this contact's own included */
  taken: number;
  /** of `taken`, this contact's unpaid orders still in their hold */
  mine: number;
}

/**
 * How many of the tickets not held by others one contact may hold unpaid: a third of `pool`,
 * at least 1 while any is left, 0 of nothing.
 * @example holdShare(8) // 2
 * @example holdShare(2) // 1: never all of what is left while more than one is left
 * @example holdShare(1) // 1: the last one, so that it can be bought
 */
export function holdShare(pool: number): number {
  const p = Math.max(0, Math.floor(pool));
  return p <= 1 ? p : Math.max(1, Math.floor(p / HOLD_SHARE_DIVISOR));
}

/**
 * The same rule in SQLite on an SQL expression (evaluated more than once: keep it cheap). The
 * division is made on an INTEGER (D1 may bind a JavaScript number as REAL), so it rounds down.
 */
export function holdShareSql(pool: string): string {
  const p = `CAST((${pool}) AS INTEGER)`;
  return `(CASE WHEN ${p} <= 1 THEN max(${p}, 0) ELSE max(1, ${p} / ${HOLD_SHARE_DIVISOR}) END)`;
}

/**
 * How many tickets of this kind one contact may hold unpaid now, its own unpaid holds
 * included: Infinity when the stock is unlimited.
 * @example mayHold({ stock: 20, taken: 12, mine: 0 }) // 2 (the last 8 Day Passes)
 */
export function mayHold(c: HoldCounts): number {
  if (c.stock === 0) return Infinity;
  return holdShare(c.stock - c.taken + c.mine);
}

/**
 * How many more tickets the contact may order now without paying: within its share and what is
 * left. Infinity when the stock is unlimited.
 * @example mayOrderNow({ stock: 20, taken: 12, mine: 0 }) // 2
 * @example mayOrderNow({ stock: 20, taken: 14, mine: 2 }) // 0: it holds its share
 */
export function mayOrderNow(c: HoldCounts): number {
  if (c.stock === 0) return Infinity;
  return Math.max(0, Math.min(mayHold(c) - c.mine, c.stock - c.taken));
}

/**
 * When the contact may order the ticket again, given when its latest unpaid order of it stopped
 * holding (null: none did); null when it may now.
 */
export function cooldownEnds(releasedMs: number | null, now: number): number | null {
  if (releasedMs === null) return null;
  const ends = releasedMs + HOLD_COOLDOWN_MS;
  return ends > now ? ends : null;
}

/** Whole minutes until `ends`, at least 1 (what the refusal says). */
export function minutesUntil(ends: number, now: number): number {
  return Math.max(1, Math.ceil((ends - now) / 60_000));
}

/**
 * An unpaid order of the contact that stopped holding within the cooldown (alias `o`, parameters
 * `?now` and `?cut` = now − {@link HOLD_COOLDOWN_MS}): cancelled (status 3, `released_ms`), or
 * its hold ran out (status 0 past `expire_ms`, or 4 as the sweep writes it down).
 */
export const COOLING = `((o.status = 3 AND o.released_ms > ?cut) OR (o.status IN (0, 4) AND o.expire_ms <= ?now AND o.expire_ms > ?cut))`;

/** When such an order stopped holding (alias `o`). */
export const RELEASED_AT = `(CASE WHEN o.status = 3 THEN o.released_ms ELSE o.expire_ms END)`;
