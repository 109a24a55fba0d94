/**
 * The health upload on the reference (docs/upstream.md "Health upload"; spec §7 `/health/*`):
 * `POST /health/uploadEpidemicPreventionInfo` (multipart), `GET /health/list` (ours),
 * `DELETE /health/imageDelete`, and `GET /health/image` (ours: one upload's bytes as
 * `{ contentType, base64 }`, only to the registration it belongs to).
 *
 * Files are checked by their bytes (JPEG or PNG magic, at most 5 MB), stored in D1 in chunks
 * (a row holds at most 2 MB), and capped per registration and kind in the same statement that
 * reserves the row, so 40 posts at once keep exactly the cap.
 */
import type { Context } from 'hono';
import { z } from 'zod';
import { RefCode, ok, reply } from '../envelope';
import { expoLocalTime, type RefEnv } from '../expo';
import { DecimalId, parseInput } from '../inputs';
import { healthKindOf } from '../../../src/lib/contract';
import { HEALTH_MAX_BYTES, HEALTH_MAX_PER_KIND, imageType } from '../rules';

/** Below D1's 2 MB per row. */
const CHUNK = 1_000_000;
/** A multipart body a little over the largest file (fields and boundaries). */
const MAX_BODY = HEALTH_MAX_BYTES + 64 * 1024;

const EuCode = z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a registration code');
const Owner = z.object({ expoId: DecimalId.optional(), euCode: EuCode });
const OneUpload = Owner.extend({ id: DecimalId });

async function registered(c: Context<RefEnv>, euCode: string): Promise<boolean> {
  const row = await c.env.DB.prepare('SELECT 1 AS x FROM registrations WHERE expo_id = ? AND eu_code = ?')
    .bind(c.var.expo.id, euCode)
    .first();
  return row !== null;
}

/** The url of an upload on this reference (ours: `GET /custom/health/image`). */
function imageUrl(c: Context<RefEnv>, euCode: string, id: number): string {
  const origin = new URL(c.req.url).origin;
  const q = new URLSearchParams({ expoId: String(c.var.expo.id), euCode, id: String(id) });
  return `${origin}/custom/health/image?${q.toString()}`;
}

type Checked = { ok: true; kind: number; type: 'image/jpeg' | 'image/png'; bytes: Uint8Array } | { ok: false; key: string };

/** docs/upstream.md "Health upload": a kind of 1 to 3 and a JPEG or PNG of at most 5 MB, judged by its bytes. */
function checkUpload(kind: unknown, bytes: Uint8Array | null): Checked {
  const k = healthKindOf(kind);
  if (k === null) return { ok: false, key: 'kind must be 1, 2 or 3' };
  if (!bytes || bytes.length === 0) return { ok: false, key: 'file is required' };
  if (bytes.length > HEALTH_MAX_BYTES) return { ok: false, key: 'the file is larger than 5 MB' };
  const type = imageType(bytes);
  return type ? { ok: true, kind: k, type, bytes } : { ok: false, key: 'the file is not a JPEG or PNG image' };
}

/** Multipart `expoId`, `euCode`, `kind`, `file` → `{ id, url }`. */
export async function uploadHealth(c: Context<RefEnv>): Promise<Response> {
  const length = Number(c.req.header('content-length') ?? '0');
  if (length > MAX_BODY) return reply(c, RefCode.BAD_INPUT, 'bad input: the file is larger than 5 MB');
  let form: FormData;
  try {
    form = await c.req.raw.formData();
  } catch {
    return reply(c, RefCode.BAD_INPUT, 'bad input: the body is not multipart/form-data');
  }
  const fields = parseInput(Owner, { expoId: form.get('expoId') ?? undefined, euCode: form.get('euCode') ?? '' });
  if (!fields.ok) return reply(c, RefCode.BAD_INPUT, fields.msg);
  if (fields.value.expoId !== undefined && fields.value.expoId !== c.var.expo.id)
    return reply(c, RefCode.BAD_INPUT, 'bad input: expoId differs from the expoId header');
  const file = form.get('file');
  const bytes = typeof file === 'object' && file !== null ? new Uint8Array(await file.arrayBuffer()) : null;
  const check = checkUpload(form.get('kind'), bytes);
  if (!check.ok) return reply(c, RefCode.BAD_INPUT, `bad input: ${check.key}`);
  const data = check.bytes;
  const { euCode } = fields.value;
  if (!(await registered(c, euCode))) return reply(c, RefCode.NOT_FOUND, 'no registration with this code in this expo');

  const db = c.env.DB;
  const chunks = Math.ceil(data.length / CHUNK);
  // Reserve the row and check the cap in one statement: concurrent uploads cannot pass it together.
  const reserved = await db
    .prepare(
      `INSERT INTO health_uploads (expo_id, eu_code, kind, content_type, size, chunks, create_time)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7
       WHERE (SELECT COUNT(*) FROM health_uploads WHERE expo_id = ?1 AND eu_code = ?2 AND kind = ?3) < ?8
       RETURNING id`,
    )
    .bind(c.var.expo.id, euCode, check.kind, check.type, data.length, chunks, expoLocalTime(Date.now(), c.var.expo.utc_offset_minutes), HEALTH_MAX_PER_KIND)
    .first<{ id: number }>();
  if (!reserved) return reply(c, RefCode.BAD_INPUT, `at most ${HEALTH_MAX_PER_KIND} uploads of this kind; delete one first`);
  try {
    const writes = [];
    for (let i = 0; i < chunks; i++) {
      writes.push(db.prepare('INSERT INTO health_chunks (upload_id, seq, bytes) VALUES (?, ?, ?)').bind(reserved.id, i, data.slice(i * CHUNK, (i + 1) * CHUNK)));
    }
    writes.push(db.prepare('UPDATE health_uploads SET complete = 1 WHERE id = ?').bind(reserved.id));
    await db.batch(writes);
  } catch (e) {
    await db.batch([
      db.prepare('DELETE FROM health_chunks WHERE upload_id = ?').bind(reserved.id),
      db.prepare('DELETE FROM health_uploads WHERE id = ?').bind(reserved.id),
    ]);
    throw e;
  }
  return ok(c, { id: reserved.id, url: imageUrl(c, euCode, reserved.id) });
}

/** `expoId`, `euCode` → `[{ id, kind, url, createTime }]`, newest first. */
export async function listHealth(c: Context<RefEnv>): Promise<Response> {
  const q = parseInput(Owner, c.req.query());
  if (!q.ok) return reply(c, RefCode.BAD_INPUT, q.msg);
  const rows = await c.env.DB.prepare(
    'SELECT id, kind, create_time AS createTime FROM health_uploads WHERE expo_id = ? AND eu_code = ? AND complete = 1 ORDER BY id DESC LIMIT 100',
  )
    .bind(c.var.expo.id, q.value.euCode)
    .all<{ id: number; kind: number; createTime: string }>();
  return ok(c, rows.results.map((r) => ({ ...r, url: imageUrl(c, q.value.euCode, r.id) })));
}

/** `expoId`, `euCode`, `id` → null; an upload of another registration is not found. */
export async function deleteHealth(c: Context<RefEnv>): Promise<Response> {
  const q = parseInput(OneUpload, c.req.query());
  if (!q.ok) return reply(c, RefCode.BAD_INPUT, q.msg);
  const db = c.env.DB;
  const own = await db
    .prepare('DELETE FROM health_uploads WHERE id = ? AND expo_id = ? AND eu_code = ? RETURNING id')
    .bind(q.value.id, c.var.expo.id, q.value.euCode)
    .first<{ id: number }>();
  if (!own) return reply(c, RefCode.NOT_FOUND, 'no such upload for this registration');
  await db.prepare('DELETE FROM health_chunks WHERE upload_id = ?').bind(own.id).run();
  return ok(c, null);
}

/** Base64 of bytes, in slices (no Node Buffer needed). */
function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** `expoId`, `euCode`, `id` → `{ contentType, base64 }`, only for the registration the upload belongs to. */
export async function healthImage(c: Context<RefEnv>): Promise<Response> {
  const q = parseInput(OneUpload, c.req.query());
  if (!q.ok) return reply(c, RefCode.BAD_INPUT, q.msg);
  const db = c.env.DB;
  const up = await db
    .prepare('SELECT id, content_type AS contentType, size FROM health_uploads WHERE id = ? AND expo_id = ? AND eu_code = ? AND complete = 1')
    .bind(q.value.id, c.var.expo.id, q.value.euCode)
    .first<{ id: number; contentType: string; size: number }>();
  if (!up) return reply(c, RefCode.NOT_FOUND, 'no such upload for this registration');
  const parts = await db.prepare('SELECT bytes FROM health_chunks WHERE upload_id = ? ORDER BY seq').bind(up.id).all<{ bytes: ArrayBuffer | number[] }>();
  const out = new Uint8Array(up.size);
  let at = 0;
  for (const p of parts.results) {
    const b = p.bytes instanceof ArrayBuffer ? new Uint8Array(p.bytes) : Uint8Array.from(p.bytes);
    out.set(b.subarray(0, Math.max(0, up.size - at)), at);
    at += b.length;
  }
  return ok(c, { contentType: up.contentType, base64: toBase64(out) });
}
