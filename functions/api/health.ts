/**
 * The health upload (src/lib/actions/health.ts): `POST /api/health` and `POST /api/health/delete`
 * through the one adapter; `DELETE /api/health/item?expoId&euCode&id` (the island's delete, JSON);
 * `GET /api/health/list?expoId&euCode` (the uploads) and `GET /api/health/image?expoId&euCode&id`
 * (one upload's bytes, `private, no-store`). Only the owner of the credential reaches any of them.
 * (`GET /api/health` itself is the Worker's health check, functions/api/index.ts.)
 */
import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import { getCookie } from 'hono/cookie';
import type { AppEnv } from '../env';
import { upstreamFor } from '../upstream';
import { faultJson, upstreamFault } from './fault';
import { readInput, type Input } from './input';
import { wantsJson } from './negotiate';
import { action, actionContext, answer, answerJson, type Ctx } from './action';
import { FLASH_MAX_PATH } from '../../src/lib/page/flash';
import { imageTypeOf } from '../../src/lib/seat/health';
import { safeBackPath } from '../../src/lib/util/safe-redirect';
import { createT } from '../../src/i18n';
import { LANG_COOKIE, resolveLang } from '../../src/lib/core/languages';
import { refusalText } from '../../src/lib/actions/results';
import { healthDelete, healthUpload, OneUpload, Owner, ownsCode, type HealthPorts } from '../../src/lib/actions/health';
import type { HealthData } from '../../src/lib/actions/replies';

function healthPorts(c: Ctx): HealthPorts {
  return {
    up: upstreamFor(c.env),
    secret: c.env.SESSION_SECRET ?? '',
    // readInput kept the text fields; Hono caches the parsed body, so this reads no more bytes.
    async file() {
      try {
        const file = (await c.req.parseBody())['file'];
        return file instanceof Blob ? file : null;
      } catch {
        return null;
      }
    },
  };
}

/**
 * The 413 of `/api/health` (functions/api/index.ts body limits): the island gets JSON; a plain
 * form (a photo over 5 MB picked without JavaScript) goes back to its page with the spec's
 * upload-failed text, the body never read past the limit.
 */
export function healthTooLarge(c: Context, maxBytes: number): Response {
  const referer = c.req.header('referer');
  const back = referer ? safeBackPath(referer, new URL(c.req.url).origin) : null;
  const lang = resolveLang(getCookie(c, LANG_COOKIE));
  const t = createT(lang);
  // a page to come back to (a plain form post), unless the caller prefers JSON (the island)
  const json = wantsJson(c, 'html') || back === null || back.length > FLASH_MAX_PATH;
  const input: Input = { json, fields: {}, lang, t };
  return answer(c as Ctx, input, { back: back ?? '/', values: {} }, {
    kind: 'notice',
    notice: { tone: 'error', key: 'health.tooLarge', text: null },
    status: 413,
    code: 413,
    ...(json ? { headers: { 'x-max-bytes': String(maxBytes) } } : {}),
  });
}

/** The island's delete: the same action, its fields in the query, answered JSON. */
async function deleteItem(c: Ctx): Promise<Response> {
  const input = { ...(await readInput(c)), json: true };
  const ports = healthPorts(c);
  try {
    const o = await healthDelete.run(c.req.query(), ports, actionContext(c, input));
    return answer(c, input, { back: '/', values: {} }, o);
  } catch (e) {
    return faultJson(c, upstreamFault(e, input.t, '/api/health/delete'));
  }
}

/** The query of a GET, when it names a credential of the visitor's own; else the answer (400, 401). */
async function ownerQuery<T extends { expoId: number; euCode: string }>(c: Ctx, schema: z.ZodType<T>, t: Input['t']): Promise<T | Response> {
  const q = schema.safeParse(c.req.query());
  if (!q.success) return answerJson(c, t, { kind: 'broken', message: t('api.badPage') });
  if (!(await ownsCode(getCookie(c), c.env.SESSION_SECRET ?? '', q.data.expoId, q.data.euCode)))
    return answerJson(c, t, { kind: 'notice', notice: { tone: 'error', key: 'health.notOwner', text: null }, status: 401, code: 401 });
  return q.data;
}

/** The owner's uploads: their ids, kinds and times. */
async function listUploads(c: Ctx): Promise<Response> {
  const { t } = await readInput(c);
  const q = await ownerQuery(c, Owner, t);
  if (q instanceof Response) return q;
  try {
    const r = await upstreamFor(c.env).listHealth(q);
    if (!r.ok) return answerJson(c, t, { kind: 'notice', notice: { tone: 'error', key: null, text: refusalText(r.msg, t('error.relatedData')) }, code: r.code });
    const data: HealthData = { uploads: r.data.map(({ id, kind, createTime }) => ({ id, kind, createTime })) };
    return answerJson(c, t, { kind: 'notice', notice: null, data });
  } catch (e) {
    return faultJson(c, upstreamFault(e, t, '/api/health/list'));
  }
}

/** One upload's bytes, typed by what they are (not what the upstream claims). */
async function uploadImage(c: Ctx): Promise<Response> {
  const { t } = await readInput(c);
  const q = await ownerQuery(c, OneUpload, t);
  if (q instanceof Response) return q;
  try {
    const r = await upstreamFor(c.env).healthImage(q);
    if (!r.ok) return answerJson(c, t, { kind: 'notice', notice: { tone: 'error', key: null, text: refusalText(r.msg, t('error.noData')) }, status: 404, code: r.code });
    const bin = atob(r.data.base64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const type = imageTypeOf(bytes);
    if (!type) return answerJson(c, t, { kind: 'notice', notice: { tone: 'error', key: 'error.relatedData', text: null }, status: 502, code: 502 });
    return c.body(bytes, 200, {
      'content-type': type,
      'cache-control': 'private, no-store',
      'content-disposition': 'inline',
      'x-content-type-options': 'nosniff',
    });
  } catch (e) {
    return faultJson(c, upstreamFault(e, t, '/api/health/image'));
  }
}

export const health = new Hono<{ Bindings: AppEnv }>();
health.post('/health', action(healthUpload, { ports: healthPorts }));
health.post('/health/delete', action(healthDelete, { ports: healthPorts }));
health.delete('/health/item', deleteItem);
health.get('/health/list', listUploads);
health.get('/health/image', uploadImage);
