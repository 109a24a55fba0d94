/**
 * What every purchase screen loads first: the verified contact of the page's expo,
 * the upstream, the expo's market (currency, clock) and the page config, from `Astro.locals.page`.
 */
import type { Upstream } from '../../../functions/upstream';
import type { FormConfig } from '../../../functions/upstream/contract';
import type { VerifiedBuyer } from '../../../functions/upstream/calls/tickets';
import { provenFor, type VerifiedContact } from '../../lib/lookup/contact-cookie';
import { marketOf, type ExpoMarket } from '../../lib/tickets/money';
import type { PathParams } from '../../lib/page/routes';
import { ticketPaths } from '../../lib/tickets/paths';
import type { Order } from '../../lib/tickets/tickets';

export interface TicketPage {
  up: Upstream;
  vc: VerifiedContact | null;
  buyer: VerifiedBuyer | null;
  market: ExpoMarket;
  paths: ReturnType<typeof ticketPaths>;
  /** the form config of the page's url, or null when the upstream did not give one */
  config: FormConfig | null;
}

/** The common part of a purchase screen, from what the page loader (src/middleware.ts) loaded once. */
export function loadTicketPage(
  loaded: { upstream: Upstream; contact: VerifiedContact | null; config: FormConfig | null },
  params: PathParams,
): TicketPage {
  const vc = provenFor(loaded.contact, params.expoId);
  return {
    up: loaded.upstream,
    vc,
    buyer: vc ? { checkType: vc.checkType, contact: vc.contact } : null,
    market: marketOf(params.expoId),
    paths: ticketPaths(params),
    config: loaded.config,
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
