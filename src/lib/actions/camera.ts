/**
 * The business-card camera (spec §3 OCR result, §5 camera upload, §7 camera5): a photo (base64
 * JPEG from the CardCamera island, already resized to ≤ 750×750) → the upstream's camera5 → the
 * recognised card fields. Only for a proven contact of the form's expo (never a bypass lookup)
 * on an expo whose config turns the business card on (src/lib/form/camera.ts), only images: the
 * OCR is not an open service. For islands: without JavaScript there is no button.
 */
import { z } from 'zod';
import { displayText } from '../page/flash';
import { CONTACT_COOKIE, verifyContact } from '../lookup/contact-cookie';
import { cameraRefusal, type CameraRefusal } from '../form/camera';
import { looksLikeImage } from '../form/image';
import { cardFields } from '../form/prefill';
import { pickBackPath } from '../util/safe-redirect';
import { defineAction, type ActionOutcome } from './outcome';
import { formPageOf } from './register';
import type { CameraCalls } from './ports';

/** The camera's data: the recognised card fields (spec §3 OCR result), empty when nothing was recognised. */
export interface CameraReply {
  fields: Partial<Record<'name' | 'company' | 'companyTitle' | 'dept' | 'email' | 'phone' | 'address', string>>;
}

export interface CameraPorts {
  upstream: CameraCalls;
  /** SESSION_SECRET: verifies the contact cookie */
  secret: string;
}

/** The largest photo accepted, as base64 text (a 750×750 JPEG at 0.8 is far smaller). */
export const MAX_IMAGE = 1_500_000;

const Input = z.object({ route: z.string().default(''), path: z.string().default(''), image: z.string().default('') });

/** A refusal of the camera, answered with its own HTTP status (401 not verified, 403 off). */
function refused(r: CameraRefusal): ActionOutcome<CameraReply> {
  return { kind: 'notice', notice: { tone: 'error', key: r.key, text: null }, status: r.status, code: r.status };
}

/** A message with no data: the photo was not one, or the upstream refused it. */
function said(code: number, msg: string): ActionOutcome<CameraReply> {
  return { kind: 'notice', notice: { tone: 'error', key: null, text: msg }, code };
}

export const camera = defineAction({
  path: '/api/camera',
  // a business card resized to 750×750 JPEG, as base64 (MAX_IMAGE), plus the page fields
  bodyLimit: 1_600_000,
  input: Input,
  back: (_fields, ctx) => pickBackPath([ctx.referer], ctx.origin),
  faultKey: 'error.uploadFailed',
  async run(input, ports: CameraPorts, ctx): Promise<ActionOutcome<CameraReply>> {
    const page = formPageOf(input.route, input.path);
    if (!page) return { kind: 'broken', message: ctx.t('api.badPage') };
    const vc = await verifyContact(ctx.cookies[CONTACT_COOKIE], ports.secret, ctx.now);
    // The contact first, before any upstream call (the config is judged once it is read, below).
    const unproven = cameraRefusal(vc, page.params.expoId, { isOpenBusinessCard: 1 });
    if (unproven) return refused(unproven);
    const image = input.image.trim();
    if (image.length > MAX_IMAGE || !/^[A-Za-z0-9+/]+={0,2}$/.test(image) || !looksLikeImage(image)) return said(400, ctx.t('home.camera'));
    // The page's own config (cached at the edge): a refused or missing config turns the camera off.
    const { expoId, fId, ty } = page.params;
    const config = await ports.upstream.getCustomerId({ expoId, fId, ty });
    const off = cameraRefusal(vc, expoId, config.ok ? config.data.customerWx : null);
    if (off) return refused(off);
    const r = await ports.upstream.camera5({ expoId, image });
    if (!r.ok) return said(r.code, displayText(r.msg ?? '') || ctx.t('error.uploadFailed'));
    const found = cardFields(r.data as Record<string, unknown>);
    const tip = Object.keys(found).length === 0;
    return { kind: 'notice', notice: tip ? { tone: 'info', key: 'home.cameraTip', text: null } : null, data: { fields: found } };
  },
});
