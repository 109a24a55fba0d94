/**
 * A customer url's custom registration labels in the reference upstream (spec §3 euDefine, §7
 * "getForm: define, eId, fId"; docs/upstream.md "Messaging app"; migration 0012). `GET
 * /wx/getForm` answers `{ define, name }` when `define` is one of url `fId`'s labels in the
 * header's expo, else 404; `validDefine` is the same check addUserInfo makes before it stores
 * a posted `euDefine`.
 */
import type { Context } from 'hono';
import { RefCode, ok, reply } from '../envelope';
import type { RefEnv } from '../expo';
import { DEFINE_MAX_CHARS } from '../rules';

/** A label as asked: trimmed, 1 to 19 characters; else null (no url has it). */
function asked(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const v = raw.trim();
  return v !== '' && [...v].length < DEFINE_MAX_CHARS ? v : null;
}

/** The label and its name when `define` is one of the url's; null when it is not. */
export async function validDefine(db: D1Database, expoId: number, urlsId: number, raw: unknown): Promise<{ define: string; name: string } | null> {
  const define = asked(raw);
  if (define === null) return null;
  return db
    .prepare('SELECT define, name FROM form_defines WHERE expo_id = ? AND urls_id = ? AND define = ?')
    .bind(expoId, urlsId, define)
    .first<{ define: string; name: string }>();
}

/** `GET /wx/getForm?define=&eId=&fId=`: `{ define, name }`, or 404 when the url has no such label. */
export async function getForm(c: Context<RefEnv>): Promise<Response> {
  const expo = c.var.expo;
  const eId = (c.req.query('eId') ?? '').trim();
  const fId = (c.req.query('fId') ?? '').trim();
  if (!/^\d{1,12}$/.test(fId) || (eId !== '' && eId !== String(expo.id))) {
    return reply(c, RefCode.BAD_INPUT, 'bad input: fId must be a customer url id and eId the expoId header\'s expo');
  }
  const found = await validDefine(c.env.DB, expo.id, Number(fId), c.req.query('define'));
  if (!found) return reply(c, RefCode.NOT_FOUND, 'this label is not one of that customer url\'s');
  return ok(c, found);
}
