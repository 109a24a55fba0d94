/**
 * Seat lookup by name (spec §2.4, §2.5, §3, §5, §8; docs/upstream.md "Seat lookup"), as pure
 * rules: the domain shapes of the seat calls, the query validation and its messages, which
 * result route an expo uses, and the result page's parameters. Pure: no Astro, React or Hono.
 *
 * Issue 19 item 4, what a name alone never reveals:
 * - a seat is answered only for a name and a company the visitor typed, both exact once case
 *   and spacing are folded ({@link sameSeatText}); a partial company finds nothing;
 * - the company pick-list (spec §2.5 getUserCompanyList) suggests only companies that *start
 *   with* what the visitor typed in the company field, from {@link COMPANY_MIN_CHARS} characters
 *   (type 2), never the companies of the people called X (type 1, no longer asked);
 * - the result page shows only what the edge signed ({@link seatResultPath}); an unsigned or
 *   altered query shows the lookup again, never its text.
 */
import { mac, macMatches } from '../util/signer';
import { SEAT_RESULT_PATHS } from '../core/seat-paths';

// The calls' answers are the contract's (src/lib/contract/seats.ts): declared there, below every folder.
export type { ActivityType, PersonSeat, SeatDetail } from '../contract/seats';





/** Spec §2.4: 1128 and the seat-lookup variants. */
export const SEAT_EXPO_IDS: ReadonlySet<number> = new Set([1128, 1193, 1197, 1218, 1384, 1385, 1235]);
/** Spec §9 "fixed 1128 for one seat page": 1128's result page is `/zuoweiSuccess`. */
export const ZUOWEI_EXPO_ID = 1128;
/** Spec §9 "default seat expoId 1235". */
export const DEFAULT_SEAT_EXPO_ID = 1235;

/** Spec §9: company search debounce. */
export const COMPANY_DEBOUNCE_MS = 500;
/**
 * The company pick-list asks only from this many typed characters of the company's start (3, not
 * 2: fewer characters would list most companies): three characters narrow a list of every seat holder's
 * company to a few, so the list helps a visitor spell their own company without listing others.
 */
export const COMPANY_MIN_CHARS = 3;
/** docs/upstream.md: at most 20 names. */
export const COMPANY_MAX = 20;
/** Longest name or company the edge passes on. */
export const SEAT_TEXT_MAX = 100;
/** The activity-type classification of the seat lookup (docs/upstream.md `pageActivityType`). */
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

/**
 * A name or company as compared ("normalised for case and spacing"): Unicode
 * NFKC (full-width letters are the same letters), whitespace runs folded, trimmed, lower case.
 * @example seatKey('  ACME\u3000 Trading ') // 'acme trading'
 */
export function seatKey(raw: unknown): string {
  return cleanSeatText(typeof raw === 'string' ? raw.normalize('NFKC') : raw).toLowerCase();
}

/** Whether two names (or two companies) are the same once case and spacing are folded. */
export function sameSeatText(a: unknown, b: unknown): boolean {
  const ka = seatKey(a);
  return ka !== '' && ka === seatKey(b);
}

/**
 * The pick-list as shown: only companies that start with what the visitor
 * typed (case and spacing folded), whatever the upstream answered (a real upstream may match
 * anywhere in the name); none when fewer than {@link COMPANY_MIN_CHARS} characters were typed.
 * @example companySuggestions(['东方电子集团', '南方电子'], '东方电') // ['东方电子集团']
 */
export function companySuggestions(names: readonly unknown[], typed: string): string[] {
  if (!shouldFetchCompanies(typed)) return [];
  const prefix = seatKey(typed);
  return companyChoices(names.filter((n) => seatKey(n).startsWith(prefix)));
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

/** The seat lookup a result page came from (its customer url id): where an unsigned result goes back to. */
export interface SeatLookupTarget {
  expoId: number;
  fId: number;
}

/**
 * The seat lookup a result page names (its `fId` and expo), signed or not: where the page's
 * branding comes from and where its way back leads; null when it names no seat expo's lookup.
 * @example seatLookupOf(new URLSearchParams('fId=21128'), 'zuowei') // { expoId: 1128, fId: 21128 }
 */
export function seatLookupOf(query: URLSearchParams, which: 'zuowei' | 'yejinji'): SeatLookupTarget | null {
  const fIdRaw = query.get('fId')?.trim() ?? '';
  const fId = /^\d{1,12}$/.test(fIdRaw) ? Number(fIdRaw) : null;
  const expoRaw = query.get('expoId')?.trim() ?? '';
  const expoId = which === 'zuowei' ? ZUOWEI_EXPO_ID : expoRaw === '' ? DEFAULT_SEAT_EXPO_ID : /^\d{1,12}$/.test(expoRaw) ? Number(expoRaw) : null;
  return fId !== null && fId > 0 && expoId !== null && SEAT_EXPO_IDS.has(expoId) ? { expoId, fId } : null;
}

/** What a result's signature covers: a purpose label, then every value (JSON keeps them apart). */
function seatText(fields: readonly (string | number)[]): string {
  return JSON.stringify(['seat-result', ...fields]);
}

/**
 * The result page of an expo's seat lookup (spec §2.3, §9): 1128 ("fixed 1128 for one seat
 * page") shows `/zuoweiSuccess?userName,companyName,seat`; the variants (default 1235) show
 * `/successYeJinJi?userName,companyName,seat,expoId`. Both also carry the lookup's `fId` and
 * `sig`, an HMAC (SESSION_SECRET) of every value: the page shows only what the
 * edge found, never text an attacker put in a link.
 */
export async function seatResultPath(target: SeatLookupTarget, r: Omit<SeatResult, 'expoId'>, secret: string): Promise<string> {
  const which = target.expoId === ZUOWEI_EXPO_ID ? 'zuowei' : 'yejinji';
  const q = new URLSearchParams({ userName: r.userName, companyName: r.companyName, seat: r.seat });
  if (which === 'yejinji') q.set('expoId', String(target.expoId));
  q.set('fId', String(target.fId));
  q.set('sig', await mac(secret, seatText([which, target.expoId, target.fId, r.userName, r.companyName, r.seat])));
  return `${SEAT_RESULT_PATHS[which]}?${q.toString()}`;
}

/**
 * A result page's query, when the edge signed it ({@link seatResultPath}); otherwise the seat
 * lookup to show again (when the query names a seat expo and a url id), or null (the page then
 * says 'no seat number information found' and shows none of the query's text).
 */
export async function readSeatResult(
  query: URLSearchParams,
  which: 'zuowei' | 'yejinji',
  secret: string,
): Promise<{ ok: true; result: SeatResult } | { ok: false; lookup: SeatLookupTarget | null }> {
  const parsed = parseSeatResult(query, which === 'yejinji');
  const lookup = seatLookupOf(query, which);
  const { fId } = lookup ?? { fId: null };
  const expoId = lookup?.expoId ?? 0;
  const sig = query.get('sig') ?? '';
  if (!parsed || !lookup) return { ok: false, lookup };
  // The values exactly as signed (parseSeatResult folds spacing; the signature covers the raw text).
  const raw = ['userName', 'companyName', 'seat'].map((k) => query.get(k) ?? '');
  let signed: boolean;
  try {
    signed = await macMatches(secret, seatText([which, expoId, fId ?? 0, ...raw]), sig);
  } catch {
    return { ok: false, lookup };
  }
  return signed ? { ok: true, result: parsed } : { ok: false, lookup };
}

/**
 * Reads a result page's query; null when a value is missing or too long (the page then says
 * 'no seat number information found'). `successYeJinJi` needs a decimal `expoId`; missing, it
 * is the default seat expo (spec §9). Says nothing about who wrote the values: {@link readSeatResult} does.
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
