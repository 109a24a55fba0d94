/**
 * Registration rows and the records the wire carries (UPSTREAM.md "Records"). Contacts
 * (phone, e-mail) and form values stay in the database: the wire shows only record fields.
 */
import type { Credential, Registration } from '../upstream/contract';

/** A row of `registrations`. */
export interface RegistrationRow {
  id: number;
  expo_id: number;
  urls_id: number | null;
  eu_code: string;
  uname: string | null;
  eu_class: number;
  eu_define: string | null;
  ticket_name: string | null;
  activity_id: number | null;
  createtime: string;
  ucompany: string | null;
  ucardid: string | null;
  ucompany_title: string | null;
  email: string | null;
  phone: string | null;
  use_status: number;
  used_count: number;
  max_count: number;
  audit_status: number;
  form_values: string;
}

/** The wire record of a row. */
export function toRecord(row: RegistrationRow): Registration {
  return {
    id: row.id,
    euCode: row.eu_code,
    uname: row.uname,
    euClass: row.eu_class,
    euDefine: row.eu_define,
    ticketName: row.ticket_name,
    activityId: row.activity_id,
    createtime: row.createtime,
    ucompany: row.ucompany,
    ucardid: row.ucardid,
    ucompanyTitle: row.ucompany_title,
  };
}

/** The wire record plus usage (queryCustomerCode). */
export function toCredential(row: RegistrationRow): Credential {
  return {
    ...toRecord(row),
    useStatus: row.use_status,
    usedCount: row.used_count,
    maxCount: row.max_count,
    auditStatus: row.audit_status,
  };
}

/** Which contact column a lookup matches (phone: full E.164; e-mail: case-insensitive). */
export type ContactKind = 'phone' | 'email';

const BY_CONTACT: Record<ContactKind, string> = {
  phone: 'SELECT * FROM registrations WHERE expo_id = ? AND phone = ? ORDER BY createtime, id',
  email: 'SELECT * FROM registrations WHERE expo_id = ? AND email = ? COLLATE NOCASE ORDER BY createtime, id',
};

/** Every registration of an expo for one contact, oldest first. */
export async function findByContact(
  db: D1Database,
  expoId: number,
  kind: ContactKind,
  contact: string,
): Promise<RegistrationRow[]> {
  const res = await db.prepare(BY_CONTACT[kind]).bind(expoId, contact).all<RegistrationRow>();
  return res.results;
}

/** The first second form still to complete among some registrations (code 20003), if any. */
export async function pendingSecondForm(
  db: D1Database,
  userIds: readonly number[],
): Promise<{ userId: number; urlsId: number } | null> {
  if (userIds.length === 0) return null;
  const marks = userIds.map(() => '?').join(',');
  const row = await db
    .prepare(
      `SELECT user_id, urls_id FROM second_forms WHERE completed = 0 AND user_id IN (${marks}) ORDER BY user_id LIMIT 1`,
    )
    .bind(...userIds)
    .first<{ user_id: number; urls_id: number }>();
  return row ? { userId: row.user_id, urlsId: row.urls_id } : null;
}
