/**
 * The seat lookup (docs/upstream.md "Seat lookup"): paths relative to the auth host's
 * `{UPSTREAM_AUTH_URL}/auth`, and the shapes of its replies, read defensively: a misshapen row is
 * dropped, a missing field is empty, never a crash.
 */
import { z } from 'zod';
import { looseInt, looseList, looseText } from './loose';
import { under, type Base } from './wire';
import type { UpstreamResult } from './result';

/** `getUserSeatDetail`'s answer (spec §3 "Seat result"). */
export interface SeatDetail {
  userName: string;
  company: string;
  seat: string;
}
/** `pageActivityType`'s rows (spec §3 "Activity type"). */
export interface ActivityType {
  id: number;
  activityName: string;
}
/** `selectUserSeat`'s rows: one person's seat in one activity type (spec §3). */
export interface PersonSeat {
  id: number | null;
  userName: string;
  company: string;
  seat: string;
  seatNumber: string;
}

export const SeatBase: Base = 'auth';

export const SeatPath = under('', 'getUserCompanyList checkUserByName getUserSeatDetail pageActivityType selectUserSeat getImage');

/** `pageActivityType`'s `classification`: the seat activities. */
export const ACTIVITY_CLASSIFICATION = 10;
/** Most company names one `getUserCompanyList` answer carries. */
export const COMPANY_LIST_MAX = 20;
/** Fewest typed characters `getUserCompanyList` (type 2) is asked with. */
export const COMPANY_KEYWORDS_MIN = 3;

/** getUserCompanyList: strings; the client keeps at most COMPANY_LIST_MAX distinct ones. */
export const CompanyNames = z.unknown().transform((v): unknown[] => (Array.isArray(v) ? v : []));

/** checkUserByName: `{ count }`; unreadable reads as 0. */
export const NameCount = z.unknown().transform((v) => {
  const n = looseInt.safeParse(v !== null && typeof v === 'object' ? (v as Record<string, unknown>)['count'] : null);
  return { count: n.success && n.data !== null && n.data > 0 ? n.data : 0 };
});

/** getUserSeatDetail: `{ userName, company, seat }` or null; a row without a seat is none. */
export const SeatDetailData = z.unknown().transform((v): SeatDetail | null => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const text = looseText(100);
  const d = { userName: text.parse(o['userName']), company: text.parse(o['company']), seat: text.parse(o['seat']) };
  return d.seat === '' ? null : d;
});

const ActivityRow = z
  .object({ id: looseInt.pipe(z.number().int().positive()), activityName: looseText(100) })
  .refine((r) => r.activityName !== '') satisfies z.ZodType<ActivityType>;
export const ActivityTypes = looseList(ActivityRow, 100);

const PersonRow = z
  .object({
    id: looseInt.optional().transform((v) => v ?? null),
    userName: looseText(100),
    company: looseText(100),
    seat: looseText(100),
    seatNumber: looseText(100),
  })
  .refine((r) => r.seat !== '' || r.seatNumber !== '') satisfies z.ZodType<PersonSeat>;
export const PersonSeats = looseList(PersonRow, 100);

/** getImage: `{ image: [{ ImgUrl: ["https://…"] }] }` → the first url (spec §7 `image[0].ImgUrl[0]`), or null. */
export const SeatImage = z.unknown().transform((v): { url: string | null } => {
  const image = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)['image'] : null;
  const first: unknown = Array.isArray(image) ? image[0] : null;
  const urls = first !== null && typeof first === 'object' ? (first as Record<string, unknown>)['ImgUrl'] : null;
  const url: unknown = Array.isArray(urls) ? urls[0] : null;
  return { url: typeof url === 'string' && url.trim() !== '' && url.length <= 2048 ? url.trim() : null };
});

// The calls of this area as the client answers them: the one declaration the client implements and src/lib picks its ports from.
/** The seat lookup's calls. */
export interface SeatCalls {
  /** `GET /auth/getUserCompanyList`: type 1 companies of people called `userName` (matching `keywords`), type 2 companies containing `keywords`. */
  getUserCompanyList(p: { expoId: number; keywords: string; type: 1 | 2; userName?: string }): Promise<UpstreamResult<string[]>>;
  /** `GET /auth/checkUserByName`: how many people of that name have a seat. */
  checkUserByName(p: { expoId: number; userName: string }): Promise<UpstreamResult<{ count: number }>>;
  /** `GET /auth/getUserSeatDetail`: the seat, or null when none. */
  getUserSeatDetail(p: { expoId: number; userName: string; companyName: string }): Promise<UpstreamResult<SeatDetail | null>>;
  /** `GET /auth/pageActivityType`: activity types (classification 10). */
  pageActivityType(p: { expoId: number; activityName?: string }): Promise<UpstreamResult<ActivityType[]>>;
  /** `GET /auth/selectUserSeat`: a person's seats in one activity type. */
  selectUserSeat(p: { expoId: number; userName: string; phone?: string; typeId: number }): Promise<UpstreamResult<PersonSeat[]>>;
  /** `GET /auth/getImage`: the seat map's url. */
  getImage(p: { expoId: number; imageName: string }): Promise<UpstreamResult<{ url: string | null }>>;
}
