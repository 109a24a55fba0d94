/**
 * What every purchase screen loads first (issue 11): the verified contact of the page's expo,
 * the upstream, the expo's market (currency, clock) and the page config. Kept in one place so
 * the request-scoped page loader (src/middleware.ts, `Astro.locals.page`) can replace it.
 */
import type { AppEnv } from '../../../functions/env';
import { upstreamFor, type Upstream } from '../../../functions/upstream';
import type { VerifiedBuyer } from '../../../functions/upstream/calls/tickets';
import { CONTACT_COOKIE, provenFor, verifyContact, type VerifiedContact } from '../../lib/contact-cookie';
import { marketOf, type ExpoMarket } from '../../lib/money';
import type { PathParams } from '../../lib/routes';
import { ticketPaths } from '../../lib/ticket-paths';
import type { Order } from '../../lib/tickets';

export interface TicketPage {
  up: Upstream;
  vc: VerifiedContact | null;
  buyer: VerifiedBuyer | null;
  market: ExpoMarket;
  paths: ReturnType<typeof ticketPaths>;
  /** the form config of the page's url, or null when the upstream did not give one */
  config: Awaited<ReturnType<Upstream['getCustomerId']>> | null;
}

/** Loads the common part of a purchase screen. */
export async function loadTicketPage(
  env: AppEnv,
  params: PathParams,
  cookies: { get(name: string): { value: string } | undefined },
): Promise<TicketPage> {
  const up = upstreamFor(env);
  const vc = provenFor(
    await verifyContact(cookies.get(CONTACT_COOKIE)?.value, env.SESSION_SECRET ?? '').catch(() => null),
    params.expoId,
  );
  const config = await up.getCustomerId({ expoId: params.expoId, fId: params.fId, ty: params.ty }).catch(() => null);
  return {
    up,
    vc,
    buyer: vc ? { checkType: vc.checkType, contact: vc.contact } : null,
    market: marketOf(params.expoId),
    paths: ticketPaths(params),
    config,
  };
}

/** The contact's own order of that number (never one read by number alone), or null. */
export async function ownOrder(page: TicketPage, expoId: number, orderNo: string): Promise<Order | null> {
  if (!page.buyer || !/^[A-Za-z0-9_-]{6,64}$/.test(orderNo)) return null;
  const list = await page.up.findOrderListByPhone({ expoId, buyer: page.buyer }).catch(() => null);
  return list?.ok ? (list.data.find((o) => o.orderNo === orderNo) ?? null) : null;
}

/** The contact's orders, newest first (null when the upstream failed). */
export async function ownOrders(page: TicketPage, expoId: number): Promise<Order[] | null> {
  if (!page.buyer) return [];
  const list = await page.up.findOrderListByPhone({ expoId, buyer: page.buyer }).catch(() => null);
  return list?.ok ? list.data : null;
}
