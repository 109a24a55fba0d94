/**
 * `POST /exhiCustomerUser/addExhiUserInfor` (spec §7, payload not shown; our reading in
 * docs/upstream.md "Exhibitor registration"): an exhibitor's registration through an exhibitor
 * customer url (`eu_class` 2). `{ expoId, urlsId, data }`, `data` the encrypted JSON of the
 * form values: `ucompany` (the company) and `uname` (the contact person) required, `boothNo`
 * optional, the proven contact (`checkType` with `email` or `phone`), any other key of the form
 * definition kept as is. Answers `{ euCode, id }`: the exhibitor's class 2 credential (spec §3).
 *
 * One exhibitor registration per proven contact and company in an expo (migration 0008): a
 * repeat, or many sent at once, updates and answers the same one, in one transaction. Another
 * contact naming the same company gets a registration of its own, never this one
 * (docs/upstream.md "Who owns a registration").
 */
import type { Context } from 'hono';
import { z } from 'zod';
import { RefCode, ok, reply } from '../envelope';
import { expoLocalTime, type RefEnv } from '../expo';
import { newEuCode } from '../euCode';
import { parseInput } from '../inputs';
import { readRegistrationPost, verifiedContactOf } from './addUserInfo';

/** The exhibitor class (spec §3: 2 exhibitor). */
const EXHIBITOR_CLASS = 2;

/** What an exhibitor's values need beyond a registration's. */
const ExhibitorValues = z.object({
  ucompany: z.string().trim().min(1, 'is required').max(200),
  uname: z.string().trim().min(1, 'is required').max(100),
  boothNo: z.string().trim().max(40).optional(),
});

/** The company as compared: trimmed, lower case, runs of spaces as one. */
function companyKey(company: string): string {
  return company.trim().toLowerCase().replace(/\s+/g, ' ');
}

export async function addExhiUserInfor(c: Context<RefEnv>): Promise<Response> {
  const expo = c.var.expo;
  const db = c.env.DB;
  const post = await readRegistrationPost(c);
  if (post instanceof Response) return post;
  const { urlsId, values: v, phone, email } = post;
  // Only an exhibitor url registers exhibitors: a visitor url never hands out a class 2 credential.
  if (post.euClass !== EXHIBITOR_CLASS)
    return reply(c, RefCode.NOT_FOUND, `customer url ${urlsId} takes no exhibitor registrations`);
  const ex = parseInput(ExhibitorValues, v);
  if (!ex.ok) return reply(c, RefCode.BAD_INPUT, ex.msg);
  if (v.userId !== undefined || v.euCode !== undefined || v.update !== undefined) {
    return reply(c, RefCode.BAD_INPUT, 'bad input: an exhibitor registration takes no userId, euCode or update');
  }

  const verified = verifiedContactOf(v.checkType, phone, email);
  if (!verified) return reply(c, RefCode.BAD_INPUT, 'bad input: the verified contact (checkType) is missing from data');

  const { checkType: _checkType, ...kept } = v;
  const owner = `${verified.column}:${verified.column === 'email' ? verified.value.toLowerCase() : verified.value}`;
  const key = companyKey(ex.value.ucompany);
  const booth = ex.value.boothNo || null;
  const now = Date.now();
  const euCode = newEuCode();
  const mine = 'SELECT registration_id FROM exhibitors WHERE expo_id = ?1 AND owner = ?2 AND company_key = ?3';
  // One transaction (a D1 batch): update the contact's registration for this company if there is
  // one, else add it; then read whichever it is. Concurrent posts serialise on the unique index.
  const [, , , , found] = await db.batch([
    db
      .prepare(
        `UPDATE registrations SET uname = ?4, ucompany = ?5, ucompany_title = coalesce(?6, ucompany_title), eu_define = coalesce(?7, eu_define),
         email = coalesce(?8, email), phone = coalesce(?9, phone), form_values = json_patch(form_values, ?10)
         WHERE id = (${mine})`,
      )
      .bind(
        expo.id,
        owner,
        key,
        ex.value.uname,
        ex.value.ucompany,
        v.ucompanyTitle ?? null,
        booth,
        email,
        phone,
        JSON.stringify(kept),
      ),
    db
      .prepare(
        `UPDATE exhibitors SET company = ?4, booth_no = coalesce(?5, booth_no), contact_person = ?6 WHERE expo_id = ?1 AND owner = ?2 AND company_key = ?3`,
      )
      .bind(expo.id, owner, key, ex.value.ucompany, booth, ex.value.uname),
    db
      .prepare(
        `INSERT INTO registrations (expo_id, urls_id, eu_code, uname, eu_class, eu_define, createtime, ucompany, ucompany_title, email, phone, form_values,
           owner_phone, owner_email)
         SELECT ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17
         WHERE NOT EXISTS (${mine})`,
      )
      .bind(
        expo.id,
        owner,
        key,
        expo.id,
        urlsId,
        euCode,
        ex.value.uname,
        EXHIBITOR_CLASS,
        booth,
        expoLocalTime(now, expo.utc_offset_minutes),
        ex.value.ucompany,
        v.ucompanyTitle ?? null,
        email,
        phone,
        JSON.stringify(kept),
        verified.column === 'phone' ? verified.value : null,
        verified.column === 'email' ? verified.value : null,
      ),
    db
      .prepare(
        `INSERT INTO exhibitors (registration_id, expo_id, urls_id, owner, company, company_key, booth_no, contact_person, created_at)
         SELECT id, expo_id, urls_id, ?2, ucompany, ?3, ?4, uname, ?5 FROM registrations WHERE eu_code = ?1
         ON CONFLICT DO NOTHING`,
      )
      .bind(euCode, owner, key, booth, now),
    db
      .prepare(
        `SELECT r.id, r.eu_code FROM exhibitors e JOIN registrations r ON r.id = e.registration_id WHERE e.expo_id = ?1 AND e.owner = ?2 AND e.company_key = ?3`,
      )
      .bind(expo.id, owner, key),
  ]);
  const row = (found?.results as { id: number; eu_code: string }[] | undefined)?.[0];
  if (!row) return reply(c, RefCode.INTERNAL, 'the exhibitor registration could not be stored; try again');
  return ok(c, { euCode: row.eu_code, id: row.id });
}
