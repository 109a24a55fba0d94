/**
 * The product's own words for what the organiser's API talks about (docs/upstream.md "Records",
 * spec §3, §8): registrations, attendee classes, reply codes. Plain types and constants, so
 * the rules in src/lib need nothing outside src/lib; the wire schemas in
 * src/lib/contract read replies into these shapes (and are checked against them).
 */

/** Reply codes with a meaning of their own (spec §8, docs/upstream.md). */
export const Code = {
  OK: 200,
  OK_WITH_MESSAGE: 201,
  OK_WITH_MESSAGE_2: 202,
  /** send-code refused (too frequent, blocked): `msg` says why */
  SEND_REFUSED: 600,
  /** addUserInfo: the phone or ID number already has a registration */
  ALREADY_REGISTERED: 20001,
  /** lookup: this contact has a second form to complete (Jakarta, Bangkok) */
  SECOND_FORM: 20003,
} as const;

/** Whether a reply code counts as success (spec §8: 200, 201, 202). */
export function isSuccessCode(code: number): boolean {
  return code === Code.OK || code === Code.OK_WITH_MESSAGE || code === Code.OK_WITH_MESSAGE_2;
}

/** Attendee classes (spec §3). */
export const EU_CLASSES = [0, 2, 3, 4, 5, 6, 7, 8, 9] as const;
export type EuClass = (typeof EU_CLASSES)[number];

/** A registration record (docs/upstream.md "Records"): any field may be missing in a real reply (null). */
export interface Registration {
  id: number | null;
  euCode: string | null;
  uname: string | null;
  euClass: number | null;
  euDefine: string | null;
  ticketName: string | null;
  activityId: number | null;
  /** "YYYY-MM-DD HH:mm:ss", expo-local time */
  createtime: string | null;
  ucompany: string | null;
  ucardid: string | null;
  ucompanyTitle: string | null;
}

/** A registration with its usage (queryCustomerCode). */
export interface Credential extends Registration {
  /** 0 unused, 1 used */
  useStatus: number | null;
  usedCount: number | null;
  /** 0 = unlimited */
  maxCount: number | null;
  /** 0 approved, 1 awaiting review */
  auditStatus: number | null;
  /** the latest admission at a gate (`at` "YYYY-MM-DD HH:mm:ss", expo-local), or none */
  lastEntry?: { at: string; gate: string } | null;
}

/** Code 20003's data: the registration whose second form is to be completed, and its url (spec §4). */
export interface SecondFormRef {
  userId: number;
  urlsId: number;
}

/** A whole number, or a string of one, as loose replies send them; null otherwise. */
function wholeNumber(v: unknown): number | null {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v.trim());
  return null;
}

/**
 * Reads 20003's data (sent in clear, numbers possibly as strings); null when it is not one.
 * @example readSecondFormRef({ userId: '7', urlsId: 9 }) // { userId: 7, urlsId: 9 }
 */
export function readSecondFormRef(data: unknown): SecondFormRef | null {
  if (typeof data !== 'object' || data === null) return null;
  const o = data as Record<string, unknown>;
  const userId = wholeNumber(o['userId']);
  const urlsId = wholeNumber(o['urlsId']);
  return userId === null || urlsId === null ? null : { userId, urlsId };
}
