/**
 * `POST /CustomerUserInfo/addUserInfo` (docs/upstream.md): registers the form values of `data`
 * (encrypted JSON). 20001 with `{ id }` when the phone or ID number already has a
 * registration of the verified contact in this expo, unless the values say `update: true` (spec §5's update prompt),
 * which updates that record. An identical repeat within IDEMPOTENCY_WINDOW_MS answers the
 * first reply again (a double tap is not a duplicate).
 *
 * Only the contact the edge verified decides whose registration it is (`checkType` says which
 * of `phone`/`email`), and only registrations it owns (`owner_phone`/`owner_email`, migration
 * 0005: the contact proven when the row was written): the 20001 prompt and every update concern
 * those alone (and 9). A registration of anyone else with the
 * same phone or ID number is neither changed, described nor an obstacle: the visitor's own
 * registration is made as if it did not exist (docs/upstream.md).
 *
 * Beyond the wire contract (SEED.md): `checkType`; `userId` completes a second form (20003) of
 * the same contact; `euCode` names the registration a repair form completes; `update: true`
 * also finds the contact's own registration (the supplement form).
 */
import type { Context } from 'hono';
import { normalizeEmail, normalizePhone } from '../contact';
import { RefCode, ok, reply } from '../envelope';
import { expoLocalTime, type RefEnv } from '../expo';
import { newEuCode } from '../euCode';
import { AddUserInfoBody, FormValues, decryptValues, parseInput, readJsonBody } from '../inputs';
import { OWNER_COLUMN } from '../registrations';
import { hashCode } from '../verificationCode';
import { validDefine } from './define';

/** How long an identical addUserInfo repeat answers the first reply. */
export const IDEMPOTENCY_WINDOW_MS = 60_000;

/** addUserInfo's success data. */
export interface Added {
  euCode: string;
  id: number;
}

/**
 * A registration post as both registration calls read it (`addUserInfo`, `addExhiUserInfor`):
 * `{ expoId, urlsId, data }` of this expo, a customer url of it, the decrypted form values, and
 * the phone and e-mail they carry, normalized. A Response when any of it is bad.
 */
export interface RegistrationPost {
  urlsId: number;
  /** the url's attendee class (spec §3) */
  euClass: number;
  values: FormValues;
  /** the decrypted JSON as sent (the idempotency key is over it) */
  plain: string;
  phone: string | null;
  email: string | null;
}

export async function readRegistrationPost(c: Context<RefEnv>): Promise<RegistrationPost | Response> {
  const expo = c.var.expo;
  const body = parseInput(AddUserInfoBody, await readJsonBody(c.req.raw));
  if (!body.ok) return reply(c, RefCode.BAD_INPUT, body.msg);
  const { urlsId, data } = body.value;
  if (body.value.expoId !== undefined && body.value.expoId !== expo.id) {
    return reply(c, RefCode.BAD_INPUT, 'bad input: expoId in the body does not match the expoId header');
  }
  const url = await c.env.DB.prepare('SELECT eu_class FROM customer_urls WHERE id = ? AND expo_id = ?')
    .bind(urlsId, expo.id)
    .first<{ eu_class: number }>();
  if (!url) return reply(c, RefCode.NOT_FOUND, `customer url ${urlsId} does not exist for expo ${expo.id}`);

  const parsed = await decryptValues(data, expo.aes_key, FormValues);
  if (!parsed.ok) return reply(c, RefCode.BAD_INPUT, parsed.msg);
  const { value: v, plain } = parsed;
  let phone: string | null = null;
  if (v.phone) {
    phone = normalizePhone(v.phone.startsWith('+') || !v.areaCode ? v.phone : `${v.areaCode}${v.phone}`);
    if (phone === null) return reply(c, RefCode.BAD_INPUT, 'bad input: phone is not a valid phone number');
  }
  let email: string | null = null;
  if (v.email) {
    email = normalizeEmail(v.email);
    if (email === null) return reply(c, RefCode.BAD_INPUT, 'bad input: email is not a valid e-mail address');
  }
  return { urlsId, euClass: url.eu_class, values: v, plain, phone, email };
}

/** Registers (or, with `update: true`, updates) one registration. */
export async function addUserInfo(c: Context<RefEnv>): Promise<Response> {
  const expo = c.var.expo;
  const db = c.env.DB;
  const post = await readRegistrationPost(c);
  if (post instanceof Response) return post;
  const { urlsId, values: v, plain, phone, email } = post;
  const activityId = await resolveActivity(db, expo.id, urlsId, v.activityId);
  if (activityId === false) return reply(c, RefCode.BAD_INPUT, 'bad input: activityId is not an activity of this expo');

  const now = Date.now();
  const idemKey = await hashCode(plain, `${expo.id}|${urlsId}`);
  const seen = await db
    .prepare('SELECT reply FROM idempotency WHERE key = ? AND created_at > ?')
    .bind(idemKey, now - IDEMPOTENCY_WINDOW_MS)
    .first<{ reply: string }>();
  if (seen) return ok(c, JSON.parse(seen.reply) as unknown);

  const cardId = v.ucardid ? v.ucardid : null;
  const { update, userId, euCode: targetCode, checkType, euDefine: postedDefine, ...kept } = v;
  // spec §3 euDefine: kept only when it is one of this url's labels (getForm's table), else dropped.
  const define = (await validDefine(db, expo.id, urlsId, postedDefine))?.define ?? null;

  // Whose registration this is (item 1; docs/upstream.md "Who
  // owns a registration"): only the contact the edge verified counts, and only registrations it
  // proved it owns (owner_phone / owner_email). A phone, e-mail or ID number typed into the form
  // proves nothing: it is stored as data and never matched as an identity.
  const verified = verifiedContactOf(checkType, phone, email);
  if (!verified) return reply(c, RefCode.BAD_INPUT, 'bad input: the verified contact (checkType) is missing from data');
  const owner = OWNER_COLUMN[verified.column];

  // A second form (20003): completes the pending form of that registration, for its own contact.
  if (userId !== undefined) {
    const mine = await db
      .prepare(
        `SELECT r.id, r.eu_code FROM second_forms s JOIN registrations r ON r.id = s.user_id
         WHERE s.user_id = ?1 AND s.urls_id = ?2 AND r.expo_id = ?3 AND r.${owner} = ?4`,
      )
      .bind(userId, urlsId, expo.id, verified.value)
      .first<{ id: number; eu_code: string }>();
    if (!mine) return reply(c, RefCode.NOT_FOUND, `no second form of user ${userId} on url ${urlsId} for this contact`);
    await db
      .prepare('UPDATE second_forms SET saved_values = json_patch(saved_values, ?), completed = 1 WHERE user_id = ?')
      .bind(JSON.stringify(kept), mine.id)
      .run();
    return remember(c, db, idemKey, now, { euCode: mine.eu_code, id: mine.id });
  }

  // The registration a repair form completes: named by code, and this contact must own it.
  if (targetCode) {
    const named = await db
      .prepare(`SELECT id FROM registrations WHERE expo_id = ? AND eu_code = ? AND ${owner} = ?`)
      .bind(expo.id, targetCode, verified.value)
      .first<{ id: number }>();
    if (!named) return reply(c, RefCode.NOT_FOUND, `no registration ${targetCode} for this contact in this expo`);
  }
  // The contact's own registrations this one collides with (20001: the same phone or ID number),
  // and for an update (supplement form) its own registration. Registrations of anyone else are
  // not looked at: a phone or ID number someone else typed never blocks its
  // proven owner, and the answer cannot tell whether it exists (the same statements run, the
  // same reply comes back). Duplicates across owners are for the organiser to resolve (README).
  const { results: matches } = await db
    .prepare(
      `SELECT id, eu_code FROM registrations WHERE expo_id = ?1 AND ${owner} = ?6
       AND ((?2 IS NOT NULL AND eu_code = ?2) OR (?3 IS NOT NULL AND phone = ?3) OR (?4 IS NOT NULL AND ucardid = ?4) OR ?5 = 1)
       ORDER BY (?2 IS NOT NULL AND eu_code = ?2) DESC, ((?3 IS NOT NULL AND phone = ?3) OR (?4 IS NOT NULL AND ucardid = ?4)) DESC, id`,
    )
    .bind(expo.id, targetCode ?? null, phone, cardId, update === true ? 1 : 0, verified.value)
    .all<{ id: number; eu_code: string }>();
  const existing = matches[0] ?? null;
  if (!existing && !v.uname) return reply(c, RefCode.BAD_INPUT, 'bad input: uname: is required');

  const values = JSON.stringify(kept);
  const col = {
    uname: v.uname ?? null,
    ucompany: v.ucompany ?? null,
    title: v.ucompanyTitle ?? null,
    cardId,
    email,
    phone,
    activityId,
  };

  let added: Added;
  if (existing) {
    if (update !== true) {
      return reply(
        c,
        RefCode.ALREADY_REGISTERED,
        'this phone or ID number already has a registration; update it or keep it',
        { id: existing.id },
      );
    }
    // Update keeps what the new values leave out. Ownership: the verified
    // contact stays the owner of its channel; the other channel's owner stays only while the row
    // still carries that proven contact, so an update never leaves another contact owning the row.
    // (SQLite reads every right-hand column before the update.) The WHERE repeats the ownership
    // check, so a row that changed hands since the SELECT is not written.
    const done = await db
      .prepare(
        `UPDATE registrations SET uname = coalesce(?1, uname), ucompany = coalesce(?2, ucompany), ucompany_title = coalesce(?3, ucompany_title),
         ucardid = coalesce(?4, ucardid), email = coalesce(?5, email), phone = coalesce(?6, phone),
         owner_phone = CASE WHEN ?10 = 'phone' THEN ?11 WHEN owner_phone = coalesce(?6, phone) THEN owner_phone END,
         owner_email = CASE WHEN ?10 = 'email' THEN ?11 WHEN owner_email = coalesce(?5, email) COLLATE NOCASE THEN owner_email END,
         activity_id = coalesce(?7, activity_id), form_values = json_patch(form_values, ?8) WHERE id = ?9 AND ${owner} = ?11`,
      )
      .bind(
        col.uname,
        col.ucompany,
        col.title,
        col.cardId,
        col.email,
        col.phone,
        col.activityId,
        values,
        existing.id,
        verified.column,
        verified.value,
      )
      .run();
    if (done.meta.changes !== 1) return reply(c, RefCode.NOT_FOUND, 'no registration of this contact to update');
    added = { euCode: existing.eu_code, id: existing.id };
  } else {
    const euCode = newEuCode();
    const row = await db
      .prepare(
        `INSERT INTO registrations (expo_id, urls_id, eu_code, uname, eu_class, activity_id, createtime, ucompany, ucardid, ucompany_title, email, phone, form_values,
           owner_phone, owner_email, eu_define)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      )
      .bind(
        expo.id,
        urlsId,
        euCode,
        col.uname,
        post.euClass,
        col.activityId,
        expoLocalTime(now, expo.utc_offset_minutes),
        col.ucompany,
        col.cardId,
        col.title,
        col.email,
        col.phone,
        values,
        // The proven owner: the verified contact, on its channel only.
        verified.column === 'phone' ? verified.value : null,
        verified.column === 'email' ? verified.value : null,
        define,
      )
      .first<{ id: number }>();
    if (!row) return reply(c, RefCode.INTERNAL, 'the registration could not be stored; try again');
    added = { euCode, id: row.id };
  }
  return remember(c, db, idemKey, now, added);
}

/** The verified contact: the channel of `checkType`, else the e-mail when there is one, else the phone. */
export function verifiedContactOf(
  checkType: number | undefined,
  phone: string | null,
  email: string | null,
): { column: 'phone' | 'email'; value: string } | null {
  const column = checkType === 1 ? 'phone' : checkType === 2 ? 'email' : email ? 'email' : 'phone';
  const value = column === 'phone' ? phone : email;
  return value ? { column, value } : null;
}

/** Keeps the reply for identical repeats (old replies are dropped as new ones come, so the table stays as small as the window), then answers it. */
async function remember(
  c: Context<RefEnv>,
  db: D1Database,
  idemKey: string,
  now: number,
  added: Added,
): Promise<Response> {
  await db.batch([
    db.prepare('DELETE FROM idempotency WHERE created_at <= ?').bind(now - IDEMPOTENCY_WINDOW_MS),
    db
      .prepare('INSERT OR REPLACE INTO idempotency (key, reply, created_at) VALUES (?, ?, ?)')
      .bind(idemKey, JSON.stringify(added), now),
  ]);
  return ok(c, added);
}

/**
 * The activity a registration gets: the given one if it belongs to this expo (false when it
 * does not), else the url's own activity, else null.
 */
async function resolveActivity(
  db: D1Database,
  expoId: number,
  urlsId: number,
  given: number | undefined,
): Promise<number | null | false> {
  if (given !== undefined) {
    const hit = await db
      .prepare('SELECT id FROM activities WHERE id = ? AND expo_id = ?')
      .bind(given, expoId)
      .first<{ id: number }>();
    return hit ? hit.id : false;
  }
  const own = await db
    .prepare('SELECT id FROM activities WHERE expo_id = ? AND urls_id = ?')
    .bind(expoId, urlsId)
    .first<{ id: number }>();
  return own ? own.id : null;
}
