/**
 * The health upload's calls (docs/upstream.md "Health upload", spec §7 `/health/*`): upload,
 * list, delete, and (ours, README "Beyond docs/upstream.md") one image's bytes, so the edge can
 * show an upload to its owner without sending the browser to the organiser's host.
 */
import { z } from 'zod';
import type { UpstreamCore } from '../core';
import { isSuccessCode } from '../contract';
import type { UpstreamResult } from '../result';
import { parseHealthKind, type HealthKind } from '../../../src/lib/seat/health';
import { looseInt, looseList, looseText } from './loose';

/** Paths relative to `{UPSTREAM_URL}/custom`. */
export const HealthPath = {
  upload: '/health/uploadEpidemicPreventionInfo',
  list: '/health/list',
  delete: '/health/imageDelete',
  /** ours: `expoId`, `euCode`, `id` → `{ contentType, base64 }` */
  image: '/health/image',
} as const;

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
    const kind = parseHealthKind(r.kind);
    return r.id !== null && r.id > 0 && kind !== null ? { id: r.id, kind, url: r.url, createTime: r.createTime } : null;
  });
export const HealthList = looseList(Item, 200).transform((rows) => rows.filter((r): r is HealthItem => r !== null));

export const Uploaded = z.object({ id: looseInt.pipe(z.number().int().positive()), url: looseText(2048) });

const Ignored = z.unknown().transform(() => null);

/** An image's bytes (base64 in the envelope), its type re-checked by the edge before serving. */
export const HealthImage = z.object({
  contentType: z.enum(['image/jpeg', 'image/png']),
  base64: z.string().max(8_000_000).regex(/^[A-Za-z0-9+/]*={0,2}$/),
});

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

/** Builds the health calls on the shared core. */
export function healthCalls(core: UpstreamCore): HealthCalls {
  const { call, read, ok, refused } = core;
  return {
    async uploadHealth({ expoId, euCode, kind, file, fileName }) {
      const form = new FormData();
      form.set('expoId', String(expoId));
      form.set('euCode', euCode);
      form.set('kind', String(kind));
      form.set('file', file, fileName);
      const env = await call(HealthPath.upload, expoId, { method: 'POST', form });
      return isSuccessCode(env.code) ? ok(env, read(HealthPath.upload, Uploaded, env.data)) : refused(env);
    },
    async listHealth({ expoId, euCode }) {
      const env = await call(HealthPath.list, expoId, { method: 'GET', query: { expoId: String(expoId), euCode } });
      return isSuccessCode(env.code) ? ok(env, read(HealthPath.list, HealthList, env.data)) : refused(env);
    },
    async deleteHealth({ expoId, euCode, id }) {
      const env = await call(HealthPath.delete, expoId, { method: 'DELETE', query: { expoId: String(expoId), euCode, id: String(id) } });
      return isSuccessCode(env.code) ? ok(env, read(HealthPath.delete, Ignored, env.data)) : refused(env);
    },
    async healthImage({ expoId, euCode, id }) {
      const env = await call(HealthPath.image, expoId, { method: 'GET', query: { expoId: String(expoId), euCode, id: String(id) } });
      return isSuccessCode(env.code) ? ok(env, read(HealthPath.image, HealthImage, env.data)) : refused(env);
    },
  };
}
