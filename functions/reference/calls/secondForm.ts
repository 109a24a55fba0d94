/** `GET /customFrom/queryFromUserExpoId` (docs/upstream.md): the second form's saved values by field key. */
import type { Context } from 'hono';
import { RefCode, ok, reply } from '../envelope';
import type { RefEnv } from '../expo';
import { SecondFormQuery, parseInput } from '../inputs';

/** Answers the saved values of one registration's second form in this expo. */
export async function queryFromUserExpoId(c: Context<RefEnv>): Promise<Response> {
  const input = parseInput(SecondFormQuery, c.req.query());
  if (!input.ok) return reply(c, RefCode.BAD_INPUT, input.msg);
  const { userId, urlsId, expoId } = input.value;
  if (expoId !== undefined && expoId !== c.var.expo.id)
    return reply(c, RefCode.BAD_INPUT, 'bad input: expoId does not match the expoId header');
  const row = await c.env.DB.prepare(
    `SELECT s.saved_values FROM second_forms s JOIN registrations r ON r.id = s.user_id
     WHERE s.user_id = ? AND s.urls_id = ? AND r.expo_id = ?`,
  )
    .bind(userId, urlsId, c.var.expo.id)
    .first<{ saved_values: string }>();
  if (!row) return reply(c, RefCode.NOT_FOUND, `no second form for user ${userId} and url ${urlsId} in this expo`);
  return ok(c, JSON.parse(row.saved_values) as unknown);
}
