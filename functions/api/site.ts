import { Hono, type Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { CONTACT_COOKIE, ownCodes, provenFor, verifyContact } from '../../src/lib/lookup/contact-cookie';
import { displayText, encodeFlash, FLASH_COOKIE, FLASH_MAX_AGE_S, type FlashInput } from '../../src/lib/page/flash';
import { matchRoute, type SuccessParams } from '../../src/lib/page/routes';
import { safeBackPath } from '../../src/lib/util/safe-redirect';
import type { AppEnv } from '../env';
import { upstreamFor } from '../upstream';
import { SiteCode } from '../upstream/contract';
import { faultJson, upstreamFault } from './fault';
import { readInput } from './input';

/**
 * POST /api/site (spec §1 site booking): book (`siteDateId`) or cancel (`id`) a
 * visiting slot for the registration of the credential page named by `back`. A real form post
 * (303 back to the credential page with a flash notice) or JSON.
 *
 * The registration is the one in `back`'s own path (a credential URL, src/lib/page/routes.ts), and
 * only the contact who proved it may act: its code must be among the verified contact cookie's
 * codes for that expo (`ownCodes`); anyone else gets 403 and the page's link to verify.
 */
export const site = new Hono<{ Bindings: AppEnv }>();

type Ctx = Context<{ Bindings: AppEnv }>;
const ID = /^\d{1,12}$/;

type NoticeKey = 'site.booked' | 'site.cancelled' | 'site.full' | 'site.already' | 'site.verifyFirst' | 'site.bad';

function answer(c: Ctx, json: boolean, back: string | null, status: 200 | 400 | 403, code: number, key: NoticeKey | null, text: string, data: unknown = null): Response {
  if (json || back === null) return c.json({ code, msg: text, data }, status);
  const notice: FlashInput['notice'] = { tone: status === 200 && code === 200 ? 'info' : 'error', key, vars: {}, text: key ? null : displayText(text) };
  setCookie(c, FLASH_COOKIE, encodeFlash({ path: back, notice }), {
    path: '/',
    maxAge: FLASH_MAX_AGE_S,
    httpOnly: true,
    sameSite: 'Lax',
    secure: new URL(c.req.url).protocol === 'https:',
  });
  return c.redirect(back, 303);
}

site.post('/site', async (c) => {
  const input = await readInput(c);
  const { t, json, fields } = input;
  const origin = new URL(c.req.url).origin;
  // The credential page: same origin, and a credential route; else nothing is done.
  const back = safeBackPath(fields['back'], origin);
  const match = back ? matchRoute(new URL(back, origin).pathname) : null;
  if (!back || match?.screen !== 'success') return c.json({ code: 400, msg: t('site.bad'), data: null }, 400);
  const params: SuccessParams = match.params;
  const action = fields['action'];
  const dateId = fields['siteDateId'] ?? '';
  const bookingId = fields['id'] ?? '';
  if (!(action === 'book' && ID.test(dateId)) && !(action === 'cancel' && ID.test(bookingId))) {
    return answer(c, json, back, 400, 400, 'site.bad', t('site.bad'));
  }
  const vc = provenFor(await verifyContact(getCookie(c, CONTACT_COOKIE), c.env.SESSION_SECRET ?? ''), params.expoId);
  if (!ownCodes(vc).includes(params.euCode)) return answer(c, json, back, 403, 403, 'site.verifyFirst', t('site.verifyFirst'));
  const up = upstreamFor(c.env);
  try {
    if (action === 'book') {
      const r = await up.addExpoUserSite({ expoId: params.expoId, euCode: params.euCode, siteDateId: Number(dateId) });
      if (r.ok) return answer(c, json, back, 200, 200, 'site.booked', t('site.booked'), r.data);
      if (r.code === SiteCode.FULL) return answer(c, json, back, 200, r.code, 'site.full', t('site.full'));
      if (r.code === SiteCode.ALREADY_BOOKED) return answer(c, json, back, 200, r.code, 'site.already', t('site.already'));
      return answer(c, json, back, 200, r.code, null, r.msg?.trim() || t('error.relatedData'));
    }
    const r = await up.deleteExpoUserSite({ expoId: params.expoId, euCode: params.euCode, id: Number(bookingId) });
    if (r.ok) return answer(c, json, back, 200, 200, 'site.cancelled', t('site.cancelled'));
    return answer(c, json, back, 200, r.code, null, r.msg?.trim() || t('error.relatedData'));
  } catch (e) {
    const fault = upstreamFault(e, t, '/api/site');
    if (json) return faultJson(c, fault);
    return answer(c, false, back, 200, fault.status, null, fault.notice?.text ?? t('error.relatedData'));
  }
});
