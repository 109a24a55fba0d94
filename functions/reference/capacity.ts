/**
 * One place of a capacity, taken exactly once (site booking, shuttle bus): one D1 batch (one
 * transaction) of `UPDATE … SET booked = booked + 1 WHERE … AND booked < capacity RETURNING id` and
 * `INSERT … SELECT … WHERE changes() = 1 RETURNING id`. A UNIQUE on the holder's rows refuses a
 * second place by failing the insert, which rolls the increment back; the table's
 * `booked <= capacity` CHECK is the last guard. So 40 requests for the last place take one.
 */
import type { Context } from 'hono';
import { RefCode, ok, reply } from './envelope';
import type { RefEnv } from './expo';

/** The reply codes and messages of one kind of place. */
export interface PlaceRefusals {
  full: { code: number; msg: string };
  held: { code: number; msg: string };
}

/** Runs the batch; answers `{ id }` of the new row, or the refusal (full, already held). */
export async function takeOnePlace(
  c: Context<RefEnv>,
  bump: D1PreparedStatement,
  insert: D1PreparedStatement,
  refusals: PlaceRefusals,
): Promise<Response> {
  let inserted: D1Result<{ id: number }> | undefined;
  try {
    const [, row] = await c.env.DB.batch<{ id: number }>([bump, insert]);
    inserted = row;
  } catch (err) {
    // A concurrent request of the same holder won the UNIQUE (or the CHECK held): the batch rolled back.
    if (/UNIQUE/i.test(String(err))) return reply(c, refusals.held.code, refusals.held.msg);
    if (/CHECK/i.test(String(err))) return reply(c, refusals.full.code, refusals.full.msg);
    throw err;
  }
  const id = inserted?.results[0]?.id;
  if (id === undefined) return reply(c, refusals.full.code, refusals.full.msg);
  return ok(c, { id });
}

/**
 * Gives a place back in one batch: `restore` (`booked - 1` of the place the holder's row names)
 * then `remove` (`DELETE … RETURNING` the holder's own row). `{}` → null; no such row of the
 * holder → 404 with `notFound`.
 */
export async function givePlaceBack(
  c: Context<RefEnv>,
  restore: D1PreparedStatement,
  remove: D1PreparedStatement,
  notFound: string,
): Promise<Response> {
  const [, removed] = await c.env.DB.batch<Record<string, unknown>>([restore, remove]);
  if (!removed?.results[0]) return reply(c, RefCode.NOT_FOUND, notFound);
  return ok(c, null);
}
