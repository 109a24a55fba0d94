/**
 * The shuttle bus (spec §2.3 `/bus`, `/busInfo`; docs/upstream.md "Shuttle bus"): reserve a seat
 * (`departureId` with the boarding `stopId`) or cancel one (`id`) for the registration of the bus
 * page named by `back`. A real form post (303 with a notice: a reservation goes on to `/busInfo`,
 * a cancel to `/bus`) or JSON.
 *
 * The registration is the one in `back`'s own path (a bus link, src/lib/core/routes.ts), and only
 * the contact who proved it may act: its code must be among the verified contact cookie's codes
 * for that expo (`ownCodes`), the rule of the site booking; anyone else gets 403.
 */
import { z } from 'zod';
import { CONTACT_COOKIE, ownCodes, provenFor, verifyContact } from '../lookup/contact-cookie';
import { matchRoute, routePath } from '../core/routes';
import { safeBackPath } from '../util/safe-redirect';
import { defineAction, type ActionContext, type ActionOutcome } from './outcome';
import type { Upstream } from '../contract';

/** The upstream's bus calls the action makes (their signatures: src/lib/contract/bus.ts). */
export type BusUpstream = Pick<Upstream, 'addBusUser' | 'cancelBusUser'>;

export interface BusPorts {
  up: BusUpstream;
  /** SESSION_SECRET: signs the verified-contact cookie */
  secret: string;
  /** the upstream's refusal codes of a reservation (src/lib/contract/bus.ts `BusCode`) */
  codes: { full: number; alreadyReserved: number };
}

const ID = /^\d{1,12}$/;

type NoticeKey = 'bus.reserved' | 'bus.cancelled' | 'bus.full' | 'bus.already' | 'bus.verifyFirst' | 'bus.bad';

/** An answer: a catalogue key, or the upstream's text (the flash cuts it, the island gets it whole), on a page (`to`, else back); `code` and `status` for the island. */
function said(status: number, code: number, key: NoticeKey | null, text: string | null, opts: { data?: unknown; to?: string } = {}): ActionOutcome {
  return {
    kind: 'notice',
    notice: { tone: status === 200 && code === 200 ? 'info' : 'error', key, vars: {}, text: key ? null : text },
    ...(opts.to ? { to: opts.to } : {}),
    status,
    code,
    data: opts.data ?? null,
  };
}

/** The posted bus page, when it is one of ours on this site. */
function backOf(fields: Readonly<Record<string, string>>, origin: string): string {
  return safeBackPath(fields['back'], origin) ?? '';
}

export const bus = defineAction({
  path: '/api/bus',
  bodyLimit: 2 * 1024,
  input: z.record(z.string(), z.string()),
  back: (fields, ctx: ActionContext) => backOf(fields, ctx.origin),
  async run(fields, ports: BusPorts, ctx): Promise<ActionOutcome> {
    const { t } = ctx;
    // The bus page: same origin, and a whole bus link; else nothing is done.
    const back = backOf(fields, ctx.origin);
    const match = back ? matchRoute(new URL(back, ctx.origin).pathname) : null;
    const params = match?.screen === 'bus' ? match.link.params : null;
    if (!params) return { kind: 'broken', message: t('bus.bad') };
    const { expoId, euCode } = params;
    const action = fields['action'];
    const departureId = fields['departureId'] ?? '';
    const stopId = fields['stopId'] ?? '';
    const id = fields['id'] ?? '';
    const reserve = action === 'reserve' && ID.test(departureId) && ID.test(stopId);
    if (!reserve && !(action === 'cancel' && ID.test(id))) return said(400, 400, 'bus.bad', null);
    const vc = provenFor(await verifyContact(ctx.cookies[CONTACT_COOKIE], ports.secret), expoId);
    if (!ownCodes(vc).includes(euCode)) return said(403, 403, 'bus.verifyFirst', null);
    if (reserve) {
      const r = await ports.up.addBusUser({ expoId, euCode, departureId: Number(departureId), stopId: Number(stopId) });
      if (r.ok) return said(200, 200, 'bus.reserved', null, { data: r.data, to: routePath({ screen: 'bus', which: 'busInfo', params }) });
      if (r.code === ports.codes.full) return said(200, r.code, 'bus.full', null);
      if (r.code === ports.codes.alreadyReserved) return said(200, r.code, 'bus.already', null);
      return said(200, r.code, null, r.msg?.trim() || t('error.relatedData'));
    }
    const r = await ports.up.cancelBusUser({ expoId, euCode, id: Number(id) });
    if (r.ok) return said(200, 200, 'bus.cancelled', null, { to: routePath({ screen: 'bus', which: 'bus', params }) });
    return said(200, r.code, null, r.msg?.trim() || t('error.relatedData'));
  },
});
