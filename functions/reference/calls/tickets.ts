/**
 * The ticket calls of docs/upstream.md "Tickets and orders" on D1: the list, what is left, the
 * discount price and what a contact holds. Every handler reads its input through a schema,
 * answers the envelope, and trusts the edge for the contact it sends (docs/upstream.md "Seats,
 * tickets, orders": the edge sends only a contact it verified).
 */
import { z } from 'zod';
import { encryptJson } from '../../../src/lib/contract/aes';
import { TicketCode } from '../../../src/lib/contract';
import { mailboxKey } from '../contact';
import { RefCode, ok, reply } from '../envelope';
import { parseExpoId } from '../expo';
import { DecimalId, decryptParam, parseInput } from '../inputs';
import { heldByContact, surplusOf, toTicket, usesLeft, type TicketRow } from '../orders';

import { queriedContact, DiscountCode as Code, Encrypted, paidCounts, sameExpo, ticketRow, type Ctx } from './order-inputs';

/** `GET /customFrom/selectUrlsTicketList`: `expoId`, `urlsId` encrypted; data encrypted `{ ticketList }`. */
export async function selectUrlsTicketList(c: Ctx): Promise<Response> {
  const expo = c.var.expo;
  const q = parseInput(z.object({ expoId: Encrypted, urlsId: Encrypted }), c.req.query());
  if (!q.ok) return reply(c, RefCode.BAD_INPUT, q.msg);
  const expoId = parseExpoId(await decryptParam(q.value.expoId, expo.aes_key));
  const urlsId = parseExpoId(await decryptParam(q.value.urlsId, expo.aes_key));
  if (expoId !== expo.id) return reply(c, RefCode.BAD_INPUT, 'bad input: expoId does not decrypt to the expoId header');
  if (urlsId === null) return reply(c, RefCode.BAD_INPUT, "bad input: urlsId does not decrypt with this expo's key");
  const { results } = await c.env.DB.prepare('SELECT * FROM tickets WHERE expo_id = ? AND urls_id = ? ORDER BY id')
    .bind(expo.id, urlsId)
    .all<TicketRow>();
  const paid = await paidCounts(c.env.DB, expo.id);
  const ticketList = results.map((r) => toTicket(r, paid.get(r.id) ?? 0));
  return ok(c, await encryptJson({ ticketList }, expo.aes_key));
}

/** `GET /customFrom/checkSurplusTicket`: `{ surplus }`, -1 unlimited. */
export async function checkSurplusTicket(c: Ctx): Promise<Response> {
  const q = parseInput(z.object({ expoId: DecimalId.optional(), ticketId: DecimalId }), c.req.query());
  if (!q.ok) return reply(c, RefCode.BAD_INPUT, q.msg);
  const bad = sameExpo(c, q.value.expoId);
  if (bad) return bad;
  const ticket = await ticketRow(c.env.DB, c.var.expo.id, q.value.ticketId);
  if (!ticket) return reply(c, RefCode.NOT_FOUND, 'no such ticket in this expo');
  return ok(c, { surplus: await surplusOf(c.env.DB, ticket, Date.now()) });
}

/** `GET /customFrom/selectDiscountTicketByCode`: `{ discountCode, price }`; 20101 when used up. */
export async function selectDiscountTicketByCode(c: Ctx): Promise<Response> {
  const q = parseInput(
    z.object({ expoId: DecimalId.optional(), ticketId: DecimalId, discountCode: Code }),
    c.req.query(),
  );
  if (!q.ok) return reply(c, RefCode.BAD_INPUT, q.msg);
  const bad = sameExpo(c, q.value.expoId);
  if (bad) return bad;
  const code = await usesLeft(c.env.DB, c.var.expo.id, q.value.ticketId, q.value.discountCode, Date.now());
  if (!code) return reply(c, RefCode.NOT_FOUND, 'no such discount code for this ticket');
  if (code.left === 0) return reply(c, TicketCode.DISCOUNT_USED_UP, 'not available enough times');
  return ok(c, { discountCode: q.value.discountCode, price: code.price });
}

/** `GET /customFrom/findUserBuyOrderNumByPhoneExpoId`: `{ count }` tickets held or reserved. */
export async function findUserBuyOrderNumByPhoneExpoId(c: Ctx): Promise<Response> {
  const contact = queriedContact(c);
  if (typeof contact !== 'string') return contact;
  return ok(c, { count: await heldByContact(c.env.DB, c.var.expo.id, mailboxKey(contact) ?? contact, Date.now()) });
}

