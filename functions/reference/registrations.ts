/**
 * Registration rows and the records the wire carries (docs/upstream.md "Records"). Contacts
 * (phone, e-mail) and form values stay in the database: the wire shows only record fields.
 */
import type { Credential, Registration } from '../../src/lib/contract';

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
  /** the e-mail typed into the form: data, not an identity */
  email: string | null;
  /** the phone typed into the form (full E.164): data, not an identity */
  phone: string | null;
  /** the phone that proved it owns this registration (migration 0005), or null */
  owner_phone: string | null;
  /** the e-mail that proved it owns this registration, or null */
  owner_email: string | null;
  use_status: number;
  used_count: number;
  max_count: number;
  audit_status: number;
  form_values: string;
  /** NULL: a whole-show pass; else a JSON array of the expo-local days it is valid on (migration 0013) */
  valid_days: string | null;
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

/** The days a pass is valid on (migration 0013); null for a whole-show pass (or an unreadable column). */
export function validDays(row: Pick<RegistrationRow, 'valid_days'>): string[] | null {
  if (row.valid_days === null) return null;
  try {
    const v = JSON.parse(row.valid_days) as unknown;
    return Array.isArray(v) ? v.filter((d): d is string => typeof d === 'string') : null;
  } catch {
    return null;
  }
}

/**
 * The wire record plus usage (queryCustomerCode). A pass valid on listed days counts `maxCount`
 * per day: its whole-pass `maxCount` is that times its days (0 stays unlimited), `usedCount` its
 * admissions over every day (docs/upstream.md "Check-in (the gate)").
 */
export function toCredential(row: RegistrationRow, lastEntry: Credential['lastEntry'] = null): Credential {
  const days = validDays(row);
  return {
    ...toRecord(row),
    useStatus: row.use_status,
    usedCount: row.used_count,
    maxCount: days === null ? row.max_count : row.max_count * days.length,
    auditStatus: row.audit_status,
    lastEntry,
  };
}

/** Which contact a lookup matches (phone: full E.164; e-mail: case-insensitive). */
export type ContactKind = 'phone' | 'email';

/**
 * The owner column of each channel (migration 0005; docs/upstream.md "Who owns a registration").
 * Every call that finds "this contact's registrations" matches these, never the typed `phone` /
 * `email` columns: a contact typed into someone else's form is data, not an identity.
 */
export const OWNER_COLUMN: Readonly<Record<ContactKind, 'owner_phone' | 'owner_email'>> = {
  phone: 'owner_phone',
  email: 'owner_email',
};

const BY_CONTACT: Record<ContactKind, string> = {
  phone: 'SELECT * FROM registrations WHERE expo_id = ? AND owner_phone = ? ORDER BY createtime, id',
  email: 'SELECT * FROM registrations WHERE expo_id = ? AND owner_email = ? COLLATE NOCASE ORDER BY createtime, id',
};

/** Every registration of an expo that this proven contact owns, oldest first. */
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
