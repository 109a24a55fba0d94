/**
 * The health upload's calls (docs/upstream.md "Health upload", spec §7 `/health/*`): upload,
 * list, delete, and (ours, docs/upstream.md "Health upload") one image's bytes, so the edge can
 * show an upload to its owner without sending the browser to the organiser's host.
 */
import type { UpstreamCore } from '../core';
import { HealthImage, HealthList, HealthPath, Ignored, Uploaded, isSuccessCode } from '../../../src/lib/contract';
import type { HealthCalls } from '../../../src/lib/contract';

export type { HealthItem } from '../../../src/lib/contract';

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
