/**
 * The health upload's actions (spec §2.5, §7) on the credential page of expos whose
 * `customerWx.healthPledge` is 1, only for the owner of the credential: the registration code
 * must be one the visitor's own verified lookup found (the signed `vc` cookie's codes,
 * src/lib/lookup/contact-cookie.ts `ownCodes`), on the same expo.
 *
 * - `healthUpload`: `expoId`, `urlId`, `euCode`, `kind`, `file` (JPEG or PNG read whole, at most
 *   5 MB, 8,000 px a side and 40 megapixels; stored without its metadata, src/lib/util/image-clean.ts),
 *   `back`. The island (a resized JPEG) asks for JSON; a plain form comes back `303` with the message.
 * - `healthDelete`: one upload of the owner's.
 *
 * A refusal is answered in the page's language with its own status (400, 401, 404), JSON or back
 * to the page; nothing typed is kept (a file input cannot be refilled).
 */
import { z } from 'zod';
import { CONTACT_COOKIE, ownCodes, provenFor, verifyContact } from '../lookup/contact-cookie';
import { displayText, FLASH_MAX_PATH } from '../page/flash';
import { checkHealthUpload, HEALTH_MAX_BYTES } from '../seat/health';
import { needsPledge } from '../seat/pledge';
import { safeBackPath } from '../util/safe-redirect';
import { defineAction, type ActionContext, type ActionOutcome } from './outcome';
import { refusalText } from './results';
import type { Upstream } from '../contract';
import type { HealthData } from './replies';
import { ANCHORS } from '../page/anchors';

/** The upstream's health calls the actions make (their signatures: src/lib/contract/health.ts). */
export type HealthUpstream = Pick<Upstream, 'getCustomerId' | 'uploadHealth' | 'deleteHealth'>;

export interface HealthPorts {
  up: HealthUpstream;
  /** SESSION_SECRET: signs the verified-contact cookie */
  secret: string;
  /** the posted file, when there is one (the body is read once, within the route's limit) */
  file(): Promise<Blob | null>;
}

const decimal = z.string().trim().regex(/^\d{1,12}$/).transform(Number).pipe(z.number().int().positive());
/** A credential of an expo: whose uploads are asked for. */
export const Owner = z.object({ expoId: decimal, euCode: z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/) });
/** One upload of a credential. */
export const OneUpload = Owner.extend({ id: decimal });

/** Whether the visitor proved the contact that owns `euCode` on `expoId`. */
export async function ownsCode(cookies: Readonly<Record<string, string>>, secret: string, expoId: number, euCode: string): Promise<boolean> {
  const vc = provenFor(await verifyContact(cookies[CONTACT_COOKIE], secret), expoId);
  return vc !== null && ownCodes(vc).includes(euCode);
}

/** The credential page the form came from (same origin), else home. */
export function healthBack(fields: Readonly<Record<string, string>>, ctx: Pick<ActionContext, 'origin'>): string {
  const posted = safeBackPath(fields['back'] ?? '', ctx.origin);
  return posted !== null && posted.length <= FLASH_MAX_PATH ? posted : '/';
}

type Outcome = ActionOutcome<HealthData>;

/**
 * An answer in the page's language: JSON `{ code, msg, data }` with its status, or back to the
 * page with the message (a catalogue key, or `text` as is).
 */
export function said(status: number, code: number, key: string | null, text: string | null = null, data: HealthData | null = null): Outcome {
  return {
    kind: 'notice',
    notice: key === null && text === null ? null : { tone: code === 200 ? 'info' : 'error', key: text === null ? key : null, text },
    status,
    code,
    data,
    // back at the upload, where the notice shows; with JavaScript the island reloads there and the
    // page shows the same notice (the flash goes with the JSON answer too)
    anchor: ANCHORS.health,
    flashWithJson: code === 200,
  };
}

/** Every posted field as it came: the actions judge them (a refusal, never a broken request). */
const Fields = z.record(z.string(), z.string());

export const healthUpload = defineAction({
  path: '/api/health',
  bodyLimit: HEALTH_MAX_BYTES + 64 * 1024,
  input: Fields,
  back: healthBack,
  faultKey: 'error.uploadFailed',
  async run(fields, ports: HealthPorts, ctx): Promise<Outcome> {
    const { t } = ctx;
    const owner = Owner.safeParse(fields);
    const urlId = decimal.safeParse(fields['urlId'] ?? '');
    if (!owner.success || !urlId.success) return said(400, 400, 'error.uploadFailed');
    const { expoId, euCode } = owner.data;
    if (!(await ownsCode(ctx.cookies, ports.secret, expoId, euCode))) return said(401, 401, 'health.notOwner');
    const blob = await ports.file();
    if (blob && blob.size > HEALTH_MAX_BYTES) return said(400, 400, 'health.tooLarge');
    const check = checkHealthUpload({ kind: fields['kind'], bytes: blob ? new Uint8Array(await blob.arrayBuffer()) : null });
    if (!check.ok) return said(400, 400, check.key);
    const config = await ports.up.getCustomerId({ expoId, fId: urlId.data });
    if (!config.ok || !needsPledge(config.data.customerWx)) return said(404, 404, 'error.uploadFailed');
    const r = await ports.up.uploadHealth({
      expoId,
      euCode,
      kind: check.kind,
      // The image as written again without EXIF/text/trailing bytes, never the bytes as posted.
      file: new Blob([check.bytes], { type: check.type }),
      fileName: check.type === 'image/png' ? 'upload.png' : 'upload.jpg',
    });
    if (!r.ok) return said(200, r.code, null, `${t('error.uploadFailed')}: ${displayText(r.msg ?? '', 200)}`);
    return said(200, 200, 'upload.success', null, { id: r.data.id });
  },
});

export const healthDelete = defineAction({
  path: '/api/health/delete',
  bodyLimit: 16 * 1024,
  input: Fields,
  back: healthBack,
  async run(fields, ports: Omit<HealthPorts, 'file'>, ctx): Promise<Outcome> {
    const { t } = ctx;
    const q = OneUpload.safeParse(fields);
    if (!q.success) return said(400, 400, 'error.relatedData');
    if (!(await ownsCode(ctx.cookies, ports.secret, q.data.expoId, q.data.euCode))) return said(401, 401, 'health.notOwner');
    const r = await ports.up.deleteHealth(q.data);
    if (!r.ok) return said(r.code === 404 ? 404 : 200, r.code, null, refusalText(r.msg, t('error.relatedData')));
    return said(200, 200, 'health.deleted');
  },
});
