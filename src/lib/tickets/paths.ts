/**
 * The paths of the purchase screens (spec §2.3: `/ticket/{path}`, `/ticketForm`,
 * `/ticketSuccess`, `/orderList`, `/orderDetails`, each with `{fId}/{eid}/{ty}`), built in one
 * place so pages, the edge API and the guard agree. Pure.
 */
import { parsePathParams, routePath, type PathParams, type TicketScreen } from '../core/routes';

/** Every purchase path of one page's parameters (built by routePath, src/lib/core/routes.ts). */
export function ticketPaths(p: Pick<PathParams, 'fId' | 'expoId' | 'ty'>) {
  const params = { fId: p.fId, expoId: p.expoId, ty: p.ty };
  const at = (which: TicketScreen) => routePath({ screen: 'ticket', which, params });
  return {
    list: at('ticket'),
    form: (ticketId: number) => `${at('ticketForm')}?ticketId=${ticketId}`,
    success: (orderNo: string) => `${at('ticketSuccess')}?orderNo=${encodeURIComponent(orderNo)}`,
    orders: at('orderList'),
    /** the purchase entry (spec §2.3 `/order`): the buyer's orders and the tickets on sale */
    entry: at('order'),
    details: (orderNo: string) => `${at('orderDetails')}?orderNo=${encodeURIComponent(orderNo)}`,
    /** the lookup's code step; `next` brings the visitor back once verified */
    verify: (next: string) => `${routePath({ screen: 'search', variant: null, params })}?next=${encodeURIComponent(next)}`,
  };
}

/**
 * Whether `next` (after the lookup) is a purchase page of the same expo: the only places the
 * lookup may send a visitor on to (never another site, never another expo's page).
 */
export function isTicketNext(next: string, expoId: number): boolean {
  const m =
    /^\/(?:ticket|ticketForm|ticketSuccess|orderList|orderDetails|order)\/(\d{1,12}\/[A-Za-z0-9_-]{1,32}(?:\/[A-Za-z0-9_-]{0,32})?)(?:\?[A-Za-z0-9=&_%-]{0,200})?$/.exec(
      next,
    );
  return m?.[1] !== undefined && parsePathParams(m[1].split('/'))?.expoId === expoId;
}
