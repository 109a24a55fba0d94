/**
 * The health upload (spec §2.5 pledge, §7 `/health/*`; docs/upstream.md "Health upload"): on the
 * credential page of expos whose `customerWx.healthPledge` is 1, the owner of the credential
 * uploads a health code, travel record or test result (JPEG or PNG, at most 5 MB), lists and
 * deletes them. The rules, pure: no Astro, React or Hono.
 */
import { cleanImage, type ImageRefusal } from '../util/image-clean';
import type { PhotoTarget } from '../form/image';

/** An upload as the list shows it (docs/upstream.md `GET /health/list`). */
export interface HealthUpload {
  id: number;
  kind: HealthKind;
  createTime: string;
}

/** 1 health code, 2 travel record, 3 test result. */
export const HEALTH_KINDS = [1, 2, 3] as const;
export type HealthKind = (typeof HEALTH_KINDS)[number];

/** docs/upstream.md: at most 5 MB. */
export const HEALTH_MAX_BYTES = 5 * 1024 * 1024;
/** Browser resize (like the business-card camera, spec §5): within 1200×1200, JPEG 0.85 (a health code must stay readable). */
export const HEALTH_MAX_PX = 1200;
export const HEALTH_JPEG_QUALITY = 0.85;
/** The health upload's resize (src/islands/photo.ts). */
export const HEALTH_PHOTO: PhotoTarget = { max: HEALTH_MAX_PX, quality: HEALTH_JPEG_QUALITY };
/** Most uploads one registration keeps per kind (the reference refuses more). */
export const HEALTH_MAX_PER_KIND = 3;

/** The catalogue key of each kind. */
export const HEALTH_KIND_KEYS = { 1: 'health.kind1', 2: 'health.kind2', 3: 'health.kind3' } as const;

/** Reads a kind from a form value; null when it is not 1, 2 or 3. */
export function parseHealthKind(raw: unknown): HealthKind | null {
  const s = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  return s === '1' || s === '2' || s === '3' ? (Number(s) as HealthKind) : null;
}

/** What the bytes are, by their magic numbers: a declared type is never trusted. */
export function imageTypeOf(bytes: Uint8Array): 'image/jpeg' | 'image/png' | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'image/png';
  return null;
}

/**
 * What the health island uploads (issue 30): the photo as the browser resized it; when the
 * browser could not decode it (a format it does not know), the picked file itself while the
 * server could take it (at most {@link HEALTH_MAX_BYTES}: the server cleans it), else nothing,
 * and `health.tooLarge` said at once instead of after sending megabytes over a phone's network.
 * @example healthUploadOf(null, { size: 11_500_000 }) // { ok: false, key: 'health.tooLarge' }
 */
export function healthUploadOf<F extends { size: number }>(
  resized: F | null,
  picked: F,
): { ok: true; file: F; resized: boolean } | { ok: false; key: 'health.tooLarge' } {
  if (resized && resized.size > 0) return { ok: true, file: resized, resized: true };
  if (picked.size <= HEALTH_MAX_BYTES) return { ok: true, file: picked, resized: false };
  return { ok: false, key: 'health.tooLarge' };
}

/** Why an upload is refused, as a catalogue key (spec §8 "upload failed states"). */
export type HealthRefusal = 'health.kindRequired' | 'health.fileRequired' | 'health.tooLarge' | 'health.notImage' | ImageRefusal;

/**
 * Judges an upload before it goes anywhere, and gives back the bytes to store: the image read
 * whole and written again without metadata (src/lib/util/image-clean.ts), within
 * 8,000 px a side and 40 megapixels.
 * @example checkHealthUpload({ kind: '1', bytes: jpegBytes }) // { ok: true, kind: 1, type: 'image/jpeg', bytes: (no EXIF) }
 */
export function checkHealthUpload(input: {
  kind: unknown;
  bytes: Uint8Array | null;
}): { ok: true; kind: HealthKind; type: 'image/jpeg' | 'image/png'; bytes: Uint8Array<ArrayBuffer> } | { ok: false; key: HealthRefusal } {
  const kind = parseHealthKind(input.kind);
  if (kind === null) return { ok: false, key: 'health.kindRequired' };
  if (!input.bytes || input.bytes.length === 0) return { ok: false, key: 'health.fileRequired' };
  if (input.bytes.length > HEALTH_MAX_BYTES) return { ok: false, key: 'health.tooLarge' };
  const type = imageTypeOf(input.bytes);
  if (!type) return { ok: false, key: 'health.notImage' };
  const clean = cleanImage(input.bytes);
  if (!clean.ok) return clean;
  return { ok: true, kind, type: clean.type, bytes: clean.bytes };
}
