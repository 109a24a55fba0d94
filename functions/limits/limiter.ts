/**
 * The abuse-limit counter (issue 9, README "Security" > "Abuse limits"): one Durable Object
 * that every isolate of the Worker asks, so a count is the same wherever a request lands.
 *
 * Each count is a sliding-window log in the object's SQLite storage: one row per counted hit,
 * `(key, at)`. A request sends all its rules in one call; the object checks them all and
 * records the hit under every key only when every rule passes, in one synchronous run of
 * SQL, so concurrent requests can never pass a limit together (a Durable Object runs one
 * call's synchronous code at a time). Rows are kept only while some window can still see
 * them. The rules themselves (keys, limits, windows) come from src/lib/limits.ts.
 */
import { DurableObject } from 'cloudflare:workers';
import type { LimitRule } from '../../src/lib/limits';

/** The answer to {@link Limiter.hit}. */
export type HitResult =
  /** every rule passed and the hit is counted; `ids` by key, to give a hit back with {@link Limiter.release} */
  | { ok: true; ids: Record<string, number> }
  /** a rule refused (the longest wait of all refusing rules); nothing was counted */
  | { ok: false; key: string; retryAfterMs: number };

/** Most rules one call may carry, and the longest key: a request has a handful of short keys. */
const MAX_RULES = 16;
const MAX_KEY = 400;

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
    `);
  }

  /**
   * Checks every rule at time `now` (epoch ms; the caller's clock, so tests can move it) and,
   * when all pass, counts one hit under each distinct key.
   */
  hit(rules: LimitRule[], now: number): HitResult {
    if (rules.length > MAX_RULES || rules.some((r) => r.key.length > MAX_KEY || !(r.limit > 0) || !(r.windowMs > 0))) {
      throw new RangeError(
        `Limiter.hit: at most ${MAX_RULES} rules with keys up to ${MAX_KEY} characters and positive limits`,
      );
    }
    this.sql.exec('DELETE FROM hits WHERE expires <= ?', now);
    let refused: { key: string; retryAfterMs: number } | null = null;
    for (const rule of rules) {
      // The limit-th newest hit inside the window: when it exists the rule is full, and it
      // frees a place when that hit leaves the window.
      const row = this.sql
        .exec<{ at: number }>(
          'SELECT at FROM hits WHERE key = ? AND at > ? ORDER BY at DESC LIMIT 1 OFFSET ?',
          rule.key,
          now - rule.windowMs,
          rule.limit - 1,
        )
        .toArray()[0];
      if (row) {
        const retryAfterMs = Math.max(1, row.at + rule.windowMs - now);
        if (!refused || retryAfterMs > refused.retryAfterMs) refused = { key: rule.key, retryAfterMs };
      }
    }
    if (refused) return { ok: false, ...refused };
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
    return { ok: true, ids };
  }

  /** Gives hits back (e.g. the wrong-code slot of a lookup whose code was accepted). */
  release(ids: number[]): void {
    for (const id of ids.slice(0, MAX_RULES)) this.sql.exec('DELETE FROM hits WHERE id = ?', id);
  }
}
