/**
 * Seat lookup by name (spec §2.4, §2.5, §3, §5, §8; UPSTREAM.md "Seat lookup"), as pure
 * rules: the domain shapes of the seat calls, the query validation and its messages, which
 * result route an expo uses, and the result page's parameters. Pure: no Astro, React or Hono.
 */

/** The seat result routes of spec §2.3 (src/lib/routes.ts matches and builds them from here). */
export const SEAT_RESULT_PATHS = { zuowei: '/zuoweiSuccess', yejinji: '/successYeJinJi' } as const;

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

/** Spec §2.4: 1128 and the seat-lookup variants. */
export const SEAT_EXPO_IDS: ReadonlySet<number> = new Set([1128, 1193, 1197, 1218, 1384, 1385, 1235]);
/** Spec §9 "fixed 1128 for one seat page": 1128's result page is `/zuoweiSuccess`. */
export const ZUOWEI_EXPO_ID = 1128;
/** Spec §9 "default seat expoId 1235". */
export const DEFAULT_SEAT_EXPO_ID = 1235;

/** Spec §9: company search debounce. */
export const COMPANY_DEBOUNCE_MS = 500;
/** The company pick-list asks only from this many typed characters (issue 12). */
export const COMPANY_MIN_CHARS = 2;
/** UPSTREAM.md: at most 20 names. */
export const COMPANY_MAX = 20;
/** Longest name or company the edge passes on. */
export const SEAT_TEXT_MAX = 100;
/** The activity-type classification of the seat lookup (UPSTREAM.md `pageActivityType`). */
export const ACTIVITY_CLASSIFICATION = 10;

/** The catalogue keys of the seat lookup's messages (spec §5, §8). */
export type SeatMessageKey = 'seat.nameRequired' | 'seat.companyRequired' | 'seat.noSeat' | 'seat.tooLong';

export type SeatCheck<T> = { ok: true; value: T } | { ok: false; field: 'userName' | 'companyName'; key: SeatMessageKey };

/** Trims and folds whitespace runs (what the visitor typed, as the upstream should see it). */
export function cleanSeatText(raw: unknown): string {
  return typeof raw === 'string' ? raw.replace(/\s+/g, ' ').trim() : '';
}

/**
 * The name step (spec §5: name required, 'please enter name').
 * @example validateSeatName('  张伟 ') // { ok: true, value: '张伟' }
 */
export function validateSeatName(raw: unknown): SeatCheck<string> {
  const name = cleanSeatText(raw);
  if (name === '') return { ok: false, field: 'userName', key: 'seat.nameRequired' };
  if ([...name].length > SEAT_TEXT_MAX) return { ok: false, field: 'userName', key: 'seat.tooLong' };
  return { ok: true, value: name };
}

/**
 * The seat step: name, then company (spec §5: 'please enter company name').
 * @example validateSeatQuery({ userName: '张伟', companyName: '' }) // { ok: false, field: 'companyName', key: 'seat.companyRequired' }
 */
export function validateSeatQuery(raw: { userName?: unknown; companyName?: unknown }): SeatCheck<{ userName: string; companyName: string }> {
  const name = validateSeatName(raw.userName);
  if (!name.ok) return name;
  const companyName = cleanSeatText(raw.companyName);
  if (companyName === '') return { ok: false, field: 'companyName', key: 'seat.companyRequired' };
  if ([...companyName].length > SEAT_TEXT_MAX) return { ok: false, field: 'companyName', key: 'seat.tooLong' };
  return { ok: true, value: { userName: name.value, companyName } };
}

/** Whether the typed company text is long enough to ask for the pick-list. */
export function shouldFetchCompanies(keywords: string): boolean {
  return [...cleanSeatText(keywords)].length >= COMPANY_MIN_CHARS;
}

/** A company list as shown: trimmed, non-empty, without repeats, at most {@link COMPANY_MAX}. */
export function companyChoices(names: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const n of names) {
    const s = cleanSeatText(n);
    if (s !== '' && [...s].length <= SEAT_TEXT_MAX && !out.includes(s)) out.push(s);
    if (out.length === COMPANY_MAX) break;
  }
  return out;
}

/** The result page's parameters (spec §2.3). */
export interface SeatResult {
  userName: string;
  companyName: string;
  seat: string;
  /** `/successYeJinJi` only */
  expoId?: number;
}

/**
 * The result page of an expo's seat lookup (spec §2.3, §9): 1128 ("fixed 1128 for one seat
 * page") shows `/zuoweiSuccess?userName,companyName,seat`; the variants (default 1235) show
 * `/successYeJinJi?userName,companyName,seat,expoId`.
 * @example seatResultPath(1128, { userName: 'a', companyName: 'b', seat: 'A-1' }) // '/zuoweiSuccess?userName=a&companyName=b&seat=A-1'
 */
export function seatResultPath(expoId: number, r: Omit<SeatResult, 'expoId'>): string {
  const q = new URLSearchParams({ userName: r.userName, companyName: r.companyName, seat: r.seat });
  if (expoId === ZUOWEI_EXPO_ID) return `${SEAT_RESULT_PATHS.zuowei}?${q.toString()}`;
  q.set('expoId', String(expoId));
  return `${SEAT_RESULT_PATHS.yejinji}?${q.toString()}`;
}

/**
 * Reads a result page's query; null when a value is missing or too long (the page then says
 * 'no seat number information found'). `successYeJinJi` needs a decimal `expoId`; missing, it
 * is the default seat expo (spec §9).
 */
export function parseSeatResult(query: URLSearchParams, withExpo: boolean): SeatResult | null {
  const userName = cleanSeatText(query.get('userName'));
  const companyName = cleanSeatText(query.get('companyName'));
  const seat = cleanSeatText(query.get('seat'));
  const fits = (s: string) => s !== '' && [...s].length <= SEAT_TEXT_MAX;
  if (!fits(userName) || !fits(companyName) || !fits(seat)) return null;
  if (!withExpo) return { userName, companyName, seat };
  const raw = query.get('expoId')?.trim() ?? '';
  if (raw === '') return { userName, companyName, seat, expoId: DEFAULT_SEAT_EXPO_ID };
  if (!/^\d{1,12}$/.test(raw)) return null;
  return { userName, companyName, seat, expoId: Number(raw) };
}

/**
 * A seat-map url a page may show (getImage's answer): a path on this site or an https address;
 * anything else none.
 * @example seatImageUrl('/seat-map.svg') // '/seat-map.svg'
 * @example seatImageUrl('javascript:alert(1)') // null
 */
export function seatImageUrl(url: string | null): string | null {
  if (!url) return null;
  if (/^\/(?![/\\])/.test(url)) return url;
  try {
    return new URL(url).protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}
