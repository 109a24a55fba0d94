/**
 * The health upload (spec §2.5, §7) on the credential page of expos whose
 * `customerWx.healthPledge` is 1, only for the owner of the credential: the registration code
 * must be one the visitor's own verified lookup found (the signed `vc` cookie's codes,
 * src/lib/lookup/contact-cookie.ts `ownCodes`), on the same expo.
 *
 * - `POST /api/health`: multipart `expoId`, `urlId`, `euCode`, `kind`, `file` (JPEG or PNG read
 *   whole, at most 5 MB, 8,000 px a side and 40 megapixels; stored without its metadata: issue
 *   19 item 4, src/lib/util/image-clean.ts), `back`. The island (resized JPEG) asks for JSON; a plain form
 *   comes back `303` with the message.
 * - `GET /api/health/list?expoId&euCode`: the uploads.
 * - `POST /api/health/delete` (form or JSON) and `DELETE /api/health/item?expoId&euCode&id`.
 * - `GET /api/health/image?expoId&euCode&id`: one upload's bytes, `private, no-store`.
 * (`GET /api/health` itself is the Worker's health check, functions/api/index.ts.)
 */
import { Hono, type Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import type { AppEnv } from '../env';
import { upstreamFor } from '../upstream';
import { faultJson, upstreamFault } from './fault';
import { readInput, type Input } from './input';
import { CONTACT_COOKIE, ownCodes, provenFor, verifyContact } from '../../src/lib/lookup/contact-cookie';
import { displayText, encodeFlash, FLASH_COOKIE, FLASH_MAX_AGE_S, FLASH_MAX_PATH, type FlashInput } from '../../src/lib/page/flash';
import { checkHealthUpload, HEALTH_MAX_BYTES, imageTypeOf } from '../../src/lib/seat/health';
import { needsPledge } from '../../src/lib/seat/pledge';
import { safeBackPath } from '../../src/lib/util/safe-redirect';
import { createT } from '../../src/i18n';
import { LANG_COOKIE, resolveLang } from '../../src/lib/page/languages';
import type { HealthReply } from '../../src/lib/actions/replies';

type Ctx = Context<{ Bindings: AppEnv }>;

const decimal = z.string().trim().regex(/^\d{1,12}$/, 'a positive decimal').transform(Number).pipe(z.number().int().positive());
const Owner = z.object({
  expoId: decimal,
  euCode: z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a registration code'),
});

/** Whether the visitor proved the contact that owns `euCode` on `expoId`. */
async function ownsCode(c: Ctx, expoId: number, euCode: string): Promise<boolean> {
  const vc = provenFor(await verifyContact(getCookie(c, CONTACT_COOKIE), c.env.SESSION_SECRET ?? ''), expoId);
  return vc !== null && ownCodes(vc).includes(euCode);
}

function backOf(c: Ctx, raw: string | undefined): string {
  const posted = safeBackPath(raw ?? '', new URL(c.req.url).origin);
  return posted !== null && posted.length <= FLASH_MAX_PATH ? posted : '/';
}

function flashBack(c: Ctx, back: string, notice: NonNullable<FlashInput['notice']> | null): Response {
  setCookie(c, FLASH_COOKIE, encodeFlash({ path: back, values: {}, notice }), {
    path: '/',
    maxAge: FLASH_MAX_AGE_S,
    httpOnly: true,
    sameSite: 'Lax',
    secure: new URL(c.req.url).protocol === 'https:',
  });
  return c.redirect(back, 303);
}

/** A refusal in the page's language: JSON with its status, or back to the page with the message. */
function answer(c: Ctx, input: Input, back: string, status: 200 | 400 | 401 | 404, code: number, key: Parameters<Input['t']>[0] | null, text: string | null = null): Response {
  const msg = text ?? (key ? input.t(key) : null);
  if (input.json) return c.json<HealthReply>({ code, msg, data: null }, status);
  return flashBack(c, back, msg === null ? null : { tone: code === 200 ? 'info' : 'error', key: text === null ? key : null, text });
}

/**
 * The 413 of `/api/health` (functions/api/index.ts body limits): the island gets JSON; a plain
 * form (a photo over 5 MB picked without JavaScript) goes back to its page with the spec's
 * upload-failed text, the body never read past the limit.
 */
export function healthTooLarge(c: Context, maxBytes: number): Response {
  const wantsJson = (c.req.header('accept') ?? '').includes('application/json');
  const referer = c.req.header('referer');
  const back = referer ? safeBackPath(referer, new URL(c.req.url).origin) : null;
  if (wantsJson || back === null || back.length > FLASH_MAX_PATH) {
    const t = createT(resolveLang(getCookie(c, LANG_COOKIE)));
    return c.json<HealthReply>({ code: 413, msg: t('health.tooLarge'), data: null }, 413, { 'x-max-bytes': String(maxBytes) });
  }
  return flashBack(c as Ctx, back, { tone: 'error', key: 'health.tooLarge', text: null });
}

export const health = new Hono<{ Bindings: AppEnv }>();

health.post('/health', async (c) => {
  const input = await readInput(c);
  const back = backOf(c, input.fields['back']);
  const owner = Owner.safeParse(input.fields);
  const urlId = decimal.safeParse(input.fields['urlId'] ?? '');
  if (!owner.success || !urlId.success) return answer(c, input, back, 400, 400, 'error.uploadFailed');
  const { expoId, euCode } = owner.data;
  if (!(await ownsCode(c, expoId, euCode))) return answer(c, input, back, 401, 401, 'health.notOwner');
  // The file: readInput kept the text fields; Hono caches the parsed body, so this reads no more bytes.
  let file: unknown = null;
  try {
    file = (await c.req.parseBody())['file'] ?? null;
  } catch {
    file = null;
  }
  const blob = file instanceof Blob ? file : null;
  if (blob && blob.size > HEALTH_MAX_BYTES) return answer(c, input, back, 400, 400, 'health.tooLarge');
  const bytes = blob ? new Uint8Array(await blob.arrayBuffer()) : null;
  const check = checkHealthUpload({ kind: input.fields['kind'], bytes });
  if (!check.ok) return answer(c, input, back, 400, 400, check.key);
  try {
    const up = upstreamFor(c.env);
    const config = await up.getCustomerId({ expoId, fId: urlId.data });
    if (!config.ok || !needsPledge(config.data.customerWx)) return answer(c, input, back, 404, 404, 'error.uploadFailed');
    const r = await up.uploadHealth({
      expoId,
      euCode,
      kind: check.kind,
      // The image as written again without EXIF/text/trailing bytes, never the bytes as posted.
      file: new Blob([check.bytes], { type: check.type }),
      fileName: check.type === 'image/png' ? 'upload.png' : 'upload.jpg',
    });
    if (!r.ok) return answer(c, input, back, 200, r.code, null, `${input.t('error.uploadFailed')}: ${displayText(r.msg ?? '', 200)}`);
    if (input.json) return c.json<HealthReply>({ code: 200, msg: input.t('upload.success'), data: { id: r.data.id } });
    return flashBack(c, back, { tone: 'info', key: 'upload.success', text: null });
  } catch (e) {
    const f = upstreamFault(e, input.t, '/api/health', 'error.uploadFailed');
    return input.json ? faultJson(c, f) : flashBack(c, back, f.notice);
  }
});

health.get('/health/list', async (c) => {
  const input = await readInput(c);
  const q = Owner.safeParse(c.req.query());
  if (!q.success) return c.json<HealthReply>({ code: 400, msg: input.t('api.badPage'), data: null }, 400);
  if (!(await ownsCode(c, q.data.expoId, q.data.euCode))) return c.json<HealthReply>({ code: 401, msg: input.t('health.notOwner'), data: null }, 401);
  try {
    const r = await upstreamFor(c.env).listHealth(q.data);
    if (!r.ok) return c.json<HealthReply>({ code: r.code, msg: displayText(r.msg ?? '') || input.t('error.relatedData'), data: null });
    return c.json<HealthReply>({ code: 200, msg: null, data: { uploads: r.data.map(({ id, kind, createTime }) => ({ id, kind, createTime })) } });
  } catch (e) {
    return faultJson(c, upstreamFault(e, input.t, '/api/health/list'));
  }
});

const One = Owner.extend({ id: decimal });

async function remove(c: Ctx, input: Input, fields: Record<string, string>, back: string): Promise<Response> {
  const q = One.safeParse(fields);
  if (!q.success) return answer(c, input, back, 400, 400, 'error.relatedData');
  if (!(await ownsCode(c, q.data.expoId, q.data.euCode))) return answer(c, input, back, 401, 401, 'health.notOwner');
  try {
    const r = await upstreamFor(c.env).deleteHealth(q.data);
    if (!r.ok) return answer(c, input, back, r.code === 404 ? 404 : 200, r.code, null, displayText(r.msg ?? '') || input.t('error.relatedData'));
    return answer(c, input, back, 200, 200, 'health.deleted');
  } catch (e) {
    const f = upstreamFault(e, input.t, '/api/health/delete');
    return input.json ? faultJson(c, f) : flashBack(c, back, f.notice);
  }
}

health.post('/health/delete', async (c) => {
  const input = await readInput(c);
  return remove(c, input, input.fields, backOf(c, input.fields['back']));
});

health.delete('/health/item', async (c) => {
  const input = await readInput(c);
  return remove(c, { ...input, json: true }, c.req.query(), '/');
});

health.get('/health/image', async (c) => {
  const input = await readInput(c);
  const q = One.safeParse(c.req.query());
  if (!q.success) return c.json<HealthReply>({ code: 400, msg: input.t('api.badPage'), data: null }, 400);
  if (!(await ownsCode(c, q.data.expoId, q.data.euCode))) return c.json<HealthReply>({ code: 401, msg: input.t('health.notOwner'), data: null }, 401);
  try {
    const r = await upstreamFor(c.env).healthImage(q.data);
    if (!r.ok) return c.json<HealthReply>({ code: r.code, msg: displayText(r.msg ?? '') || input.t('error.noData'), data: null }, 404);
    const bin = atob(r.data.base64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    // The type the bytes have, not the one the upstream claims.
    const type = imageTypeOf(bytes);
    if (!type) return c.json<HealthReply>({ code: 502, msg: input.t('error.relatedData'), data: null }, 502);
    return c.body(bytes, 200, {
      'content-type': type,
      'cache-control': 'private, no-store',
      'content-disposition': 'inline',
      'x-content-type-options': 'nosniff',
    });
  } catch (e) {
    return faultJson(c, upstreamFault(e, input.t, '/api/health/image'));
  }
});
