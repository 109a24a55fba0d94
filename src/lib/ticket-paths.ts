/**
 * The paths of the purchase screens (spec §2.3: `/ticket/{path}`, `/ticketForm`,
 * `/ticketSuccess`, `/orderList`, `/orderDetails`, each with `{fId}/{eid}/{ty}`), built in one
 * place so pages, the edge API and the guard agree. Pure.
 */
import { encodeId } from './ids';
import { parsePathParams, type PathParams } from './routes';


/** `/{fId}/{eid}/{ty}` of a page (the `eid` re-encoded when it came decoded). */
export function basePath(p: Pick<PathParams, 'fId' | 'expoId' | 'ty'> & { eid?: string }): string {
  const eid = p.eid && p.eid !== '' ? p.eid : encodeId(p.expoId);
  return `/${p.fId}/${encodeURIComponent(eid)}/${encodeURIComponent(p.ty)}`;
}

/** Every purchase path of one page's parameters. */
export function ticketPaths(p: Pick<PathParams, 'fId' | 'expoId' | 'ty'> & { eid?: string }) {
  const base = basePath(p);
  return {
    list: `/ticket${base}`,
    form: (ticketId: number) => `/ticketForm${base}?ticketId=${ticketId}`,
    success: (orderNo: string) => `/ticketSuccess${base}?orderNo=${encodeURIComponent(orderNo)}`,
    orders: `/orderList${base}`,
    details: (orderNo: string) => `/orderDetails${base}?orderNo=${encodeURIComponent(orderNo)}`,
    /** the lookup's code step; `next` brings the visitor back once verified */
    verify: (next: string) => `/search${base}?next=${encodeURIComponent(next)}`,
  };
}

/**
 * Whether `next` (after the lookup) is a purchase page of the same expo: the only places the
 * lookup may send a visitor on to (never another site, never another expo's page).
 */
export function isTicketNext(next: string, expoId: number): boolean {
  const m =
    /^\/(?:ticket|ticketForm|ticketSuccess|orderList|orderDetails)\/(\d{1,12}\/[A-Za-z0-9_-]{1,32}\/[A-Za-z0-9_-]{0,32})(?:\?[A-Za-z0-9=&_%-]{0,200})?$/.exec(
      next,
    );
  return m?.[1] !== undefined && parsePathParams(m[1].split('/'))?.expoId === expoId;
}
