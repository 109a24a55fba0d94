/**
 * What the ticket, order and refund calls of the reference share: their inputs (discount codes,
 * order numbers, pay types, a contact query) and a few reads.
 */
import type { Context } from 'hono';
import { z } from 'zod';
import { normalizeEmail, normalizePhone } from '../contact';
import { RefCode, reply } from '../envelope';
import { type RefEnv } from '../expo';
import { DecimalId, parseInput } from '../inputs';
import { type TicketRow } from '../orders';


export type Ctx = Context<RefEnv>;

export const DiscountCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be a discount code');
export const OrderNo = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{6,64}$/, 'must be an order number');
export const PayType = z.union([z.literal(1), z.literal(2), z.enum(['1', '2']).transform(Number)]);
export const Encrypted = z.string().trim().min(1, 'is required').max(65_536, 'is too long');

export const ContactQuery = z
  .object({
    expoId: DecimalId.optional(),
    phone: z.string().trim().max(32).optional(),
    email: z.string().trim().max(254).optional(),
  })
  .refine((q) => Boolean(q.phone) !== Boolean(q.email), {
    message: 'give exactly one of phone or email',
    path: ['phone'],
  });

/** The contact of a query (phone full E.164 or e-mail), normalised as stored; null when malformed. */
export function contactOf(q: { phone?: string | undefined; email?: string | undefined }): string | null {
  return q.phone ? normalizePhone(q.phone) : normalizeEmail(q.email ?? '');
}

/** A body or query whose `expoId`, when given, must be the header's. */
export function sameExpo(c: Ctx, given: number | undefined): Response | null {
  return given !== undefined && given !== c.var.expo.id
    ? reply(c, RefCode.BAD_INPUT, 'bad input: expoId does not match the expoId header')
    : null;
}

export async function ticketRow(db: D1Database, expoId: number, id: number): Promise<TicketRow | null> {
  return db.prepare('SELECT * FROM tickets WHERE expo_id = ? AND id = ?').bind(expoId, id).first<TicketRow>();
}

/** Paid tickets per ticket id (the wire's soldCount adds them to the seed's). */
export async function paidCounts(db: D1Database, expoId: number): Promise<Map<number, number>> {
  const { results } = await db
    .prepare(
      'SELECT ticket_id, sum(quantity) AS n FROM orders WHERE expo_id = ? AND status IN (1, 2, 5) GROUP BY ticket_id',
    )
    .bind(expoId)
    .all<{ ticket_id: number; n: number }>();
  return new Map(results.map((r) => [r.ticket_id, r.n]));
}

export const OrderQuery = z.object({ expoId: DecimalId.optional(), orderNo: OrderNo });
export const OrderBody = OrderQuery;

/** The contact of a query (`phone` or `email`, the header's expo), normalised as stored; or the refusal. */
export function queriedContact(c: Ctx): string | Response {
  const q = parseInput(ContactQuery, c.req.query());
  if (!q.ok) return reply(c, RefCode.BAD_INPUT, q.msg);
  const bad = sameExpo(c, q.value.expoId);
  if (bad) return bad;
  return contactOf(q.value) ?? reply(c, RefCode.BAD_INPUT, 'bad input: not a valid phone (E.164) or e-mail');
}
