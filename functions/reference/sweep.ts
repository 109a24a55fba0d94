/**
 * The Cron Trigger's sweep (wrangler.toml `[triggers]`): unpaid orders past their
 * hold are written down as timed out (status 4). Correctness never waits for it: every read
 * and every count already treats such an order as timed out (orders.ts); the sweep keeps the
 * stored state honest for anyone reading the table directly.
 */
import type { AppEnv } from '../env';

/** Marks every unpaid order whose hold ended by `now` as timed out; returns how many. */
export async function sweepExpiredOrders(db: D1Database, now: number): Promise<number> {
  const res = await db.prepare('UPDATE orders SET status = 4 WHERE status = 0 AND expire_ms <= ?').bind(now).run();
  return res.meta.changes;
}

/** The Worker's `scheduled` handler: only the embedded reference keeps orders. */
export function scheduledSweep(_controller: ScheduledController, env: AppEnv, ctx: ExecutionContext): void {
  if ((env.UPSTREAM_URL ?? '').trim() !== '') return;
  ctx.waitUntil(
    sweepExpiredOrders(env.DB, Date.now()).then(
      (n) => void (n > 0 && console.log(`[reference upstream] ${n} unpaid orders timed out`)),
    ),
  );
}
