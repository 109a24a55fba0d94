/**
 * `POST /api/camera` (spec §3 OCR result, §5 camera upload, §7 camera5): a business-card photo
 * (base64 JPEG from the CardCamera island, already resized to ≤ 750×750) → the upstream's
 * camera5 → the recognised card fields. Only for a proven contact of the form's expo (never a
 * bypass lookup) on an expo whose config turns the business card on (`isOpenBusinessCard`, read
 * through the edge's config cache), only images: issue 19 item 4, src/lib/form/camera.ts. The OCR is
 * not an open service. JSON only: without JavaScript there is no button.
 */
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AppEnv } from '../env';
import { upstreamFor } from '../upstream';
import { faultJson, upstreamFault } from './fault';
import { badRequest } from './bad-request';
import { readInput } from './input';
import { displayText } from '../../src/lib/page/flash';
import { CONTACT_COOKIE, verifyContact } from '../../src/lib/lookup/contact-cookie';
import { cameraRefusal } from '../../src/lib/form/camera';
import { resolveFormPage } from '../../src/lib/form/page';
import { looksLikeImage } from '../../src/lib/form/image';
import { cardFields } from '../../src/lib/form/prefill';
import { matchRoute } from '../../src/lib/page/routes';
import type { CameraReply } from '../../src/islands/form-types';

interface Reply {
  code: number;
  msg: string | null;
  data: CameraReply | null;
}

/** The largest photo accepted, as base64 text (a 750×750 JPEG at 0.8 is far smaller). */
const MAX_IMAGE = 1_500_000;

export const camera = new Hono<{ Bindings: AppEnv }>();

camera.post('/camera', async (c) => {
  const input = await readInput(c);
  const { fields, t } = input;
  const route = fields['route'] ?? '';
  const path = fields['path'] ?? '';
  const match = /^[A-Za-z][A-Za-z0-9]{0,40}$/.test(route) && path.length < 200 ? matchRoute(`/${route}/${path}`) : null;
  const page = match?.screen === 'form' ? resolveFormPage(match.route, match.rest, match.variant) : null;
  if (!page) return badRequest(c, input, t('api.badPage'), t('app.back'));
  const vc = await verifyContact(getCookie(c, CONTACT_COOKIE), c.env.SESSION_SECRET ?? '');
  // The contact first, before any upstream call (the config is judged once it is read, below).
  const unproven = cameraRefusal(vc, page.params.expoId, { isOpenBusinessCard: 1 });
  if (unproven) return c.json<Reply>({ code: unproven.status, msg: t(unproven.key), data: null }, unproven.status);
  const image = (fields['image'] ?? '').trim();
  if (image.length > MAX_IMAGE || !/^[A-Za-z0-9+/]+={0,2}$/.test(image) || !looksLikeImage(image)) {
    return c.json<Reply>({ code: 400, msg: t('home.camera'), data: null });
  }
  try {
    const up = upstreamFor(c.env);
    // The page's own config (cached at the edge): a refused or missing config turns the camera off.
    const { expoId, fId, ty } = page.params;
    const config = await up.getCustomerId({ expoId, fId, ty });
    const off = cameraRefusal(vc, expoId, config.ok ? config.data.customerWx : null);
    if (off) return c.json<Reply>({ code: off.status, msg: t(off.key), data: null }, off.status);
    const r = await up.camera5({ expoId, image });
    if (!r.ok) return c.json<Reply>({ code: r.code, msg: displayText(r.msg ?? '') || t('error.uploadFailed'), data: null });
    const found = cardFields(r.data as Record<string, unknown>);
    return c.json<Reply>({
      code: 200,
      msg: Object.keys(found).length ? null : t('home.cameraTip'),
      data: { fields: found },
    });
  } catch (e) {
    // spec §8 (./fault.ts): the organiser's 403/404/405/5xx passed through, else 504 or 502.
    return faultJson(c, upstreamFault(e, t, '/api/camera', 'error.uploadFailed'));
  }
});
