/**
 * Who may use the business-card camera (spec §2.4 "a camera business-card button appears when
 * isOpenBusinessCard is set", §7 camera5): the OCR is the organiser's paid
 * service, not an open one. Pure: no Astro, React or Hono.
 */
import { provenFor, type VerifiedContact } from '../lookup/contact-cookie';

/** Why a camera post is refused, as a catalogue key and the HTTP status the API answers with. */
export type CameraRefusal = { status: 401; key: 'form.verifyFirst' } | { status: 403; key: 'form.cameraOff' };

/**
 * The refusal of a camera post, or null when it may go on: the contact must be proven for the
 * form's expo (a bypass lookup of spec §2.2 proved nothing), and the expo's
 * config must turn the business card on (`customerWx.isOpenBusinessCard` 1; missing or any other
 * value is off, as the page's button reads it).
 * @example cameraRefusal(null, 2002, { isOpenBusinessCard: 1 }) // { status: 401, key: 'form.verifyFirst' }
 */
export function cameraRefusal(
  vc: VerifiedContact | null,
  expoId: number,
  wx: { isOpenBusinessCard?: number | null | undefined } | null | undefined,
): CameraRefusal | null {
  if (!provenFor(vc, expoId)) return { status: 401, key: 'form.verifyFirst' };
  if (wx?.isOpenBusinessCard !== 1) return { status: 403, key: 'form.cameraOff' };
  return null;
}
