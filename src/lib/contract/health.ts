/**
 * The health upload (docs/upstream.md "Health upload"): paths relative to `{UPSTREAM_URL}/custom`,
 * the upload rules both sides apply, and the shapes of the replies.
 */
import { z } from 'zod';
import { looseInt, looseList, looseText } from './loose';
import type { UpstreamResult } from './result';

export const HealthPath = {
  upload: '/health/uploadEpidemicPreventionInfo',
  /** beyond the original contract */
  list: '/health/list',
  delete: '/health/imageDelete',
  /** beyond the original contract: `expoId`, `euCode`, `id` → `{ contentType, base64 }` */
  image: '/health/image',
} as const;

/** What an upload is: 1 health code, 2 travel record, 3 test result. */
export const HEALTH_KINDS = [1, 2, 3] as const;
export type HealthKind = (typeof HEALTH_KINDS)[number];

/** A kind as sent (number or decimal string), or null. */
export function healthKindOf(raw: unknown): HealthKind | null {
  const s = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  return s === '1' || s === '2' || s === '3' ? (Number(s) as HealthKind) : null;
}

/** An upload as the list reads it. */
export interface HealthItem {
  id: number;
  kind: HealthKind;
  url: string;
  createTime: string;
}

const Item = z
  .object({ id: looseInt, kind: z.unknown(), url: looseText(2048), createTime: looseText(40) })
  .transform((r) => {
    const kind = healthKindOf(r.kind);
    return r.id !== null && r.id > 0 && kind !== null ? { id: r.id, kind, url: r.url, createTime: r.createTime } : null;
  });
export const HealthList = looseList(Item, 200).transform((rows) => rows.filter((r): r is HealthItem => r !== null));

export const Uploaded = z.object({ id: looseInt.pipe(z.number().int().positive()), url: looseText(2048) });

/** An image's bytes (base64 in the envelope), its type re-checked by the edge before serving. */
export const HealthImage = z.object({
  contentType: z.enum(['image/jpeg', 'image/png']),
  base64: z.string().max(8_000_000).regex(/^[A-Za-z0-9+/]*={0,2}$/),
});

// The calls of this area as the client answers them: the one declaration the client implements and src/lib picks its ports from.
/** The health calls. */
export interface HealthCalls {
  /** `POST /health/uploadEpidemicPreventionInfo` (multipart). */
  uploadHealth(p: { expoId: number; euCode: string; kind: HealthKind; file: Blob; fileName: string }): Promise<UpstreamResult<{ id: number; url: string }>>;
  /** `GET /health/list` (ours). */
  listHealth(p: { expoId: number; euCode: string }): Promise<UpstreamResult<HealthItem[]>>;
  /** `DELETE /health/imageDelete`. */
  deleteHealth(p: { expoId: number; euCode: string; id: number }): Promise<UpstreamResult<null>>;
  /** `GET /health/image` (ours): one upload's bytes. */
  healthImage(p: { expoId: number; euCode: string; id: number }): Promise<UpstreamResult<z.output<typeof HealthImage>>>;
}
