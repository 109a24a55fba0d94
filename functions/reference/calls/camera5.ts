/**
 * `POST /CustomerUserInfo/camera5` (spec §7 "Camera: camera5"; docs/upstream.md "Business-card reader"):
 * `{ image }` (base64 JPEG) → `{ success, uiName, uiCompany, uiCompanyTitle, uiDepa, uiEmail1,
 * uiPhone1, uiAddress }`. The reference recognises nothing by itself: without env OCR_URL it
 * answers `success: false`; with it, it posts `{ image }` to that endpoint and passes the ui*
 * fields of its JSON reply (top level or under `data`) through.
 */
import type { Context } from 'hono';
import { z } from 'zod';
import { RefCode, ok, reply } from '../envelope';
import type { RefEnv } from '../expo';
import { parseInput, readJsonBody } from '../inputs';

/** A business-card photo: base64, at most ~1.5 MB of text (the browser sends ≤ 750×750 JPEG). */
const Camera5Body = z.object({
  image: z
    .string()
    .trim()
    .min(16, 'is required')
    .max(2_000_000, 'is too large')
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64'),
});

const UI_KEYS = ['uiName', 'uiCompany', 'uiCompanyTitle', 'uiDepa', 'uiEmail1', 'uiPhone1', 'uiAddress'] as const;

/** How long the OCR endpoint may take. */
const OCR_TIMEOUT_MS = 10_000;

export async function camera5(c: Context<RefEnv>): Promise<Response> {
  const body = parseInput(Camera5Body, await readJsonBody(c.req.raw));
  if (!body.ok) return reply(c, RefCode.BAD_INPUT, body.msg);
  const url = c.env.OCR_URL?.trim();
  if (!url) return ok(c, { success: false });
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ image: body.value.image }),
      signal: AbortSignal.timeout(OCR_TIMEOUT_MS),
    });
    if (!res.ok) return ok(c, { success: false });
    const json = (await res.json()) as Record<string, unknown>;
    const src = (json['data'] && typeof json['data'] === 'object' ? json['data'] : json) as Record<string, unknown>;
    const out: Record<string, string | boolean> = {};
    for (const k of UI_KEYS) {
      const v = src[k];
      if (typeof v === 'string' && v.trim() !== '') out[k] = v.trim().slice(0, 300);
    }
    out['success'] = Object.keys(out).length > 0;
    return ok(c, out);
  } catch (err) {
    console.error('[reference upstream] OCR_URL failed', err);
    return ok(c, { success: false });
  }
}
