/**
 * The abuse-limit counter (README "Security" > "Abuse limits"): a Durable Object that every
 * isolate of the Worker asks, so a count is the same wherever a request lands. There are many
 * of them (issue 24): each key lives in the object its name picks
 * (src/lib/security/limits-shard.ts limiterName), and ./index.ts sends each object the rules
 * of a request that live there; this class neither knows nor checks which keys are its own.
 *
 * Each count is a sliding-window log in the object's SQLite storage: one row per counted hit,
 * `(key, at)`. A request sends all its rules in one call; the object checks them all and
 * records the hit under every key only when every rule passes, in one synchronous run of
 * SQL, so concurrent requests can never pass a limit together (a Durable Object runs one
 * call's synchronous code at a time). A request whose rules live in several objects is
 * checked object by object (./index.ts hitLimits). Rows are kept only while some window can still see
 * them. The rules themselves (keys, limits, windows) come from src/lib/security/limits.ts.
 */
import { DurableObject } from 'cloudflare:workers';
import type { LimitReason, LimitRule } from '../../src/lib/security/limits';
import type { ShardRefusal } from '../../src/lib/security/limits-shard';

/** The answer to {@link Limiter.hit}. */
export type HitResult =
  /**
   * every rule passed and the hit is counted; `ids` by key, to give a hit back with
   * {@link Limiter.release}; `alerts`: the alerting rules this hit brought to half their
   * limit, each once per window
   */
  | { ok: true; ids: Record<string, number>; alerts: LimitRule[] }
  /**
   * a rule refused (the longest wait of all refusing rules); nothing was counted. `friction`:
   * only shared budgets are full (below their ceilings), so a sender who passes a challenge may
   * go on; `ceiling`: a challenged sender met a shared budget's ceiling
   */
  | {
      ok: false;
      key: string;
      retryAfterMs: number;
      friction: boolean;
      reason: LimitReason;
      ceiling?: boolean;
      /**
       * alerting rules that reached half their limit in an object asked before the refusing one
       * (./index.ts hitLimits): the budget did reach half, and its once-per-window alert is spent
       */
      alerts?: LimitRule[];
    };

/** A rule's refusal: which key, how long until it frees a place, whether a challenge would do. */
export type Refusal = ShardRefusal;

/** Most rules one call may carry, and the longest key: a request has a handful of short keys. */
const MAX_RULES = 16;
const MAX_KEY = 400;

/** Refuses a call no request of ours could make (a bug, or a caller that is not ./index.ts). */
function checkShape(rules: LimitRule[]): void {
  if (rules.length > MAX_RULES || rules.some((r) => r.key.length > MAX_KEY || !(r.limit > 0) || !(r.windowMs > 0) || (r.ceiling !== undefined && !(r.ceiling >= r.limit)))) {
    throw new RangeError(`Limiter: at most ${MAX_RULES} rules with keys up to ${MAX_KEY} characters and positive limits`);
  }
}

export class Limiter extends DurableObject {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`
      CREATE TABLE IF NOT EXISTS hits (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        key TEXT NOT NULL,
        at INTEGER NOT NULL,
        expires INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS hits_key_at ON hits (key, at);
      CREATE INDEX IF NOT EXISTS hits_expires ON hits (expires);
      CREATE TABLE IF NOT EXISTS alerted (key TEXT PRIMARY KEY, expires INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS tickets (key TEXT PRIMARY KEY, nonce TEXT NOT NULL, expires INTEGER NOT NULL);
    `);
  }

  /**
   * Checks every rule at time `now` (epoch ms; the caller's clock, so tests can move it) and,
   * when all pass, counts one hit under each distinct key. `challenged`: the sender passed a
   * challenge, so a shared budget holds it at its ceiling, not its limit.
   */
  hit(rules: LimitRule[], now: number, opts: { challenged?: boolean } = {}): HitResult {
    checkShape(rules);
    this.sql.exec('DELETE FROM hits WHERE expires <= ?', now);
    this.sql.exec('DELETE FROM alerted WHERE expires <= ?', now);
    const refusal = this.refusalOf(rules, now, opts.challenged === true);
    if (refusal) return { ok: false, ...refusal };
    const keep = new Map<string, number>();
    for (const rule of rules) keep.set(rule.key, Math.max(keep.get(rule.key) ?? 0, rule.windowMs));
    const ids: Record<string, number> = {};
    for (const [key, windowMs] of keep) {
      const row = this.sql
        .exec<{ id: number }>(
          'INSERT INTO hits (key, at, expires) VALUES (?, ?, ?) RETURNING id',
          key,
          now,
          now + windowMs,
        )
        .one();
      ids[key] = row.id;
    }
    const alerts: LimitRule[] = [];
    for (const rule of rules) {
      if (!rule.alert) continue;
      const n = this.sql
        .exec<{ n: number }>('SELECT count(*) AS n FROM hits WHERE key = ? AND at > ?', rule.key, now - rule.windowMs)
        .one().n;
      if (n * 2 < rule.limit) continue;
      // Once per window: the row lives as long as the window.
      const fresh = this.sql
        .exec('INSERT INTO alerted (key, expires) VALUES (?, ?) ON CONFLICT (key) DO NOTHING RETURNING key', rule.key, now + rule.windowMs)
        .toArray();
      if (fresh.length > 0) alerts.push(rule);
    }
    return { ok: true, ids, alerts };
  }

  /**
   * What {@link hit} would answer, without counting: the refusal, or null when every rule has
   * room. ./index.ts asks it of the objects after one that asked for a challenge, so that a
   * hard refusal elsewhere still wins over the challenge (a challenge would not help past it).
   */
  check(rules: LimitRule[], now: number, opts: { challenged?: boolean } = {}): Refusal | null {
    checkShape(rules);
    return this.refusalOf(rules, now, opts.challenged === true);
  }

  /**
   * The refusal of a request's rules at `now`: the longest wait of the rules that refuse, a
   * hard one first; null when all have room. A shared budget (a rule with a `ceiling`) asks an
   * unchallenged sender for a challenge when it reaches its `limit` (friction); a challenged
   * sender is held at its `ceiling`, a hard refusal (`ceiling: true`: the operator is told).
   */
  private refusalOf(rules: LimitRule[], now: number, challenged: boolean): Refusal | null {
    let refused: Refusal | null = null;
    let friction: Refusal | null = null;
    for (const rule of rules) {
      const shared = rule.ceiling !== undefined;
      const limit = shared && challenged ? (rule.ceiling ?? rule.limit) : rule.limit;
      // The limit-th newest hit inside the window: when it exists the rule is full, and it
      // frees a place when that hit leaves the window.
      const row = this.sql
        .exec<{ at: number }>(
          'SELECT at FROM hits WHERE key = ? AND at > ? ORDER BY at DESC LIMIT 1 OFFSET ?',
          rule.key,
          now - rule.windowMs,
          limit - 1,
        )
        .toArray()[0];
      if (!row) continue;
      const r: Refusal = { key: rule.key, retryAfterMs: Math.max(1, row.at + rule.windowMs - now), friction: shared && !challenged, reason: rule.reason };
      if (shared && challenged) r.ceiling = true;
      if (r.friction) {
        if (!friction || r.retryAfterMs > friction.retryAfterMs) friction = r;
      } else if (!refused || r.retryAfterMs > refused.retryAfterMs) refused = r;
    }
    // A hard refusal first: a challenge would not help the sender past it.
    return refused ?? friction;
  }

  /**
   * Whether this is the first time in the window that a shared budget's ceiling refused a
   * sender: the operator hears of a ceiling once per window (./index.ts logs it).
   */
  firstCeiling(key: string, windowMs: number, now: number): boolean {
    if (key.length > MAX_KEY) throw new RangeError('Limiter.firstCeiling: key too long');
    this.sql.exec('DELETE FROM alerted WHERE expires <= ?', now);
    return this.sql.exec('INSERT INTO alerted (key, expires) VALUES (?, ?) ON CONFLICT (key) DO NOTHING RETURNING key', `ceiling:${key}`, now + windowMs).toArray().length > 0;
  }

  /**
   * How many events were counted under `key` in the window (the wait tickets an address or a
   * contact has taken: a new ticket's wait grows with them); `add` counts one more first.
   */
  tally(key: string, windowMs: number, now: number, add: boolean): number {
    if (key.length > MAX_KEY || !(windowMs > 0)) throw new RangeError('Limiter.tally: key too long or no window');
    this.sql.exec('DELETE FROM hits WHERE expires <= ?', now);
    if (add) this.sql.exec('INSERT INTO hits (key, at, expires) VALUES (?, ?, ?)', key, now, now + windowMs);
    return this.sql.exec<{ n: number }>('SELECT count(*) AS n FROM hits WHERE key = ? AND at > ?', key, now - windowMs).one().n;
  }

  /**
   * Records the one live wait ticket of a client address: a new ticket
   * replaces the address's previous one, so an address holds at most one at a time.
   */
  issueTicket(key: string, nonce: string, expires: number): void {
    if (key.length > MAX_KEY || nonce.length > MAX_KEY) throw new RangeError('Limiter.issueTicket: key or nonce too long');
    this.sql.exec(
      'INSERT INTO tickets (key, nonce, expires) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET nonce = excluded.nonce, expires = excluded.expires',
      key,
      nonce,
      expires,
    );
  }

  /** Redeems a ticket once: true when it is the address's live ticket (it is then spent). */
  redeemTicket(key: string, nonce: string, now: number): boolean {
    this.sql.exec('DELETE FROM tickets WHERE expires <= ?', now);
    return this.sql.exec('DELETE FROM tickets WHERE key = ? AND nonce = ? RETURNING key', key, nonce).toArray().length > 0;
  }

  /** Gives hits back (e.g. the wrong-code slot of a lookup whose code was accepted). */
  release(ids: number[]): void {
    for (const id of ids.slice(0, MAX_RULES)) this.sql.exec('DELETE FROM hits WHERE id = ?', id);
  }
}
