/**
 * The site booking (spec §1): book (`siteDateId`) or cancel (`id`) a visiting slot for the
 * registration of the credential page named by `back`. A real form post (303 back to the
 * credential page with a notice) or JSON.
 *
 * The registration is the one in `back`'s own path (a credential URL, src/lib/core/routes.ts), and
 * only the contact who proved it may act: its code must be among the verified contact cookie's
 * codes for that expo (`ownCodes`); anyone else gets 403 and the page's link to verify.
 */
import { z } from 'zod';
import { CONTACT_COOKIE, ownCodes, provenFor, verifyContact } from '../lookup/contact-cookie';
import { matchRoute } from '../core/routes';
import { safeBackPath } from '../util/safe-redirect';
import { defineAction, type ActionContext, type ActionOutcome } from './outcome';
import type { Upstream } from '../contract';
import { ANCHORS } from '../page/anchors';

/** The upstream's booking calls the action makes (their signatures: src/lib/contract/sites.ts). */
export type SiteUpstream = Pick<Upstream, 'addExpoUserSite' | 'deleteExpoUserSite'>;

export interface SitePorts {
  up: SiteUpstream;
  /** SESSION_SECRET: signs the verified-contact cookie */
  secret: string;
  /** the upstream's refusal codes of a booking (functions/upstream/site-paths.ts `SiteCode`) */
  codes: { full: number; alreadyBooked: number };
}

const ID = /^\d{1,12}$/;

type NoticeKey = 'site.booked' | 'site.cancelled' | 'site.full' | 'site.already' | 'site.verifyFirst' | 'site.bad';

/** An answer: a catalogue key, or the upstream's text (the flash cuts it, the island gets it whole); `code` and `status` for the island. */
function said(status: number, code: number, key: NoticeKey | null, text: string | null, data: unknown = null): ActionOutcome {
  return {
    kind: 'notice',
    // back at the booking section, where the notice shows (SiteBooking.astro)
    anchor: ANCHORS.site,
    notice: { tone: status === 200 && code === 200 ? 'info' : 'error', key, vars: {}, text: key ? null : text },
    status,
    code,
    data,
  };
}

/** The posted credential page, when it is one of ours on this site. */
function backOf(fields: Readonly<Record<string, string>>, origin: string): string {
  return safeBackPath(fields['back'], origin) ?? '';
}

export const site = defineAction({
  path: '/api/site',
  bodyLimit: 2 * 1024,
  input: z.record(z.string(), z.string()),
  back: (fields, ctx: ActionContext) => backOf(fields, ctx.origin),
  async run(fields, ports: SitePorts, ctx): Promise<ActionOutcome> {
    const { t } = ctx;
    // The credential page: same origin, and a credential route; else nothing is done.
    const back = backOf(fields, ctx.origin);
    const match = back ? matchRoute(new URL(back, ctx.origin).pathname) : null;
    if (!back || match?.screen !== 'credential') return { kind: 'broken', message: t('site.bad') };
    const { expoId, euCode } = match.params;
    const action = fields['action'];
    const dateId = fields['siteDateId'] ?? '';
    const bookingId = fields['id'] ?? '';
    if (!(action === 'book' && ID.test(dateId)) && !(action === 'cancel' && ID.test(bookingId))) return said(400, 400, 'site.bad', null);
    const vc = provenFor(await verifyContact(ctx.cookies[CONTACT_COOKIE], ports.secret), expoId);
    if (!ownCodes(vc).includes(euCode)) return said(403, 403, 'site.verifyFirst', null);
    if (action === 'book') {
      const r = await ports.up.addExpoUserSite({ expoId, euCode, siteDateId: Number(dateId) });
      if (r.ok) return said(200, 200, 'site.booked', null, r.data);
      if (r.code === ports.codes.full) return said(200, r.code, 'site.full', null);
      if (r.code === ports.codes.alreadyBooked) return said(200, r.code, 'site.already', null);
      return said(200, r.code, null, r.msg?.trim() || t('error.relatedData'));
    }
    const r = await ports.up.deleteExpoUserSite({ expoId, euCode, id: Number(bookingId) });
    if (r.ok) return said(200, 200, 'site.cancelled', null);
    return said(200, r.code, null, r.msg?.trim() || t('error.relatedData'));
  },
});
