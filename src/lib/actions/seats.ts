/**
 * The seat lookup's actions (spec §2.4, §2.5, §5, §8), the same form with and without JavaScript:
 *
 * - `seatCompanies`: the pick-list as the visitor types the company (JSON only): companies that
 *   start with the typed text (≥ 3 characters, ≤ 20 names; getUserCompanyList type 2). The name
 *   plays no part, so it lists no one's company.
 * - `seatDetail`: the seat of a typed name and company, both exact (case and spacing folded) →
 *   the signed result page.
 * - `seatPerson`: one person's seats in one activity type (selectUserSeat), for a typed name and
 *   company, both exact.
 *
 * A name alone never answers with anyone's company (src/lib/seat/seats.ts). Every call that looks
 * a person up counts against the seat limits before the upstream sees it; a refusal is 429 with
 * the message and every typed value kept.
 */
import { z } from 'zod';
import { FLASH_MAX_PATH } from '../page/flash';
import { routePath } from '../core/routes';
import { safeBackPath } from '../util/safe-redirect';
import {
  cleanSeatText,
  companySuggestions,
  sameSeatText,
  SEAT_EXPO_IDS,
  SEAT_TEXT_MAX,
  seatResultPath,
  shouldFetchCompanies,
  validateSeatQuery,
  type SeatMessageKey,
} from '../seat/seats';
import { defineAction, type ActionContext, type ActionOutcome } from './outcome';
import { refusalText } from './results';
import type { Upstream } from '../contract';
import { limitOutcome, type LimitRefusal } from './limits';
import type { SeatData } from './replies';

/** The upstream's seat calls the actions make (their signatures: src/lib/contract/seats.ts). */
export type SeatUpstream = Pick<Upstream, 'getUserCompanyList' | 'getUserSeatDetail' | 'selectUserSeat'>;

export interface SeatPorts {
  up: SeatUpstream;
  /** SESSION_SECRET: signs the result page */
  secret: string;
  /** counts a lookup of the expo (functions/limits `checkSeatLimits`); null: it may go on */
  limit(expoId: number): Promise<LimitRefusal | null>;
}

export const decimal = z.string().trim().regex(/^\d{1,12}$/).transform(Number).pipe(z.number().int().positive());
/** A seat-lookup expo's id. */
export const SeatExpo = decimal.refine((id) => SEAT_EXPO_IDS.has(id));

/** What the visitor typed: only cut to a sane size here; src/lib/seat/seats.ts judges it. */
const typed = z.string().default('').transform((s) => s.slice(0, 4 * SEAT_TEXT_MAX));

/** The hidden fields of the seat lookup page, and what was typed. */
const Input = z.object({
  expoId: SeatExpo,
  urlId: decimal,
  ty: z.string().trim().regex(/^[A-Za-z0-9_-]{0,32}$/).default(''),
  back: z.string().default('').transform((s) => (s.length > FLASH_MAX_PATH ? '' : s)),
  userName: typed,
  companyName: typed,
  keywords: typed,
  typeId: typed,
});
type Input = z.infer<typeof Input>;

/**
 * The seat page the post came from (same origin: a seat page, or the expo's home, which is the
 * seat lookup itself, spec §2.4), else the page's own address.
 */
function backOf(fields: Readonly<Record<string, string>>, origin: string): string {
  const page = Input.safeParse(fields);
  if (!page.success) return fields['back'] ?? '';
  const ids = { fId: page.data.urlId, expoId: page.data.expoId, ty: page.data.ty };
  const own = routePath({ screen: 'seat', params: ids });
  const home = routePath({ screen: 'home', params: ids });
  const posted = safeBackPath(page.data.back, origin);
  const seatPage = posted !== null && (posted.startsWith('/seat/') || posted === home || posted.startsWith(`${home}?`));
  return seatPage && posted.length <= FLASH_MAX_PATH ? posted : own;
}

/** The typed name and company, refilled when the page comes back. */
function keep(fields: Readonly<Record<string, string>>): Record<string, string> {
  return { userName: (fields['userName'] ?? '').slice(0, SEAT_TEXT_MAX), companyName: (fields['companyName'] ?? '').slice(0, SEAT_TEXT_MAX) };
}

type Outcome = ActionOutcome<SeatData>;

/** Data for the island, nothing said. */
const data = (d: SeatData): Outcome => ({ kind: 'notice', notice: null, data: d });

/** A message for the field or the page (the island shows it by the field `data` names), or back with the values. */
function refuse(field: 'userName' | 'companyName' | null, key: SeatMessageKey | 'seat.companyNone'): Outcome {
  if (field) return { kind: 'invalid', errors: [{ field, key, text: null }], data: { field } };
  return { kind: 'notice', notice: { tone: 'error', key, text: null }, data: { field } };
}

/** An upstream refusal: its message (cut) or the route's text. */
export function seatRefused(msg: string | null, t: ActionContext['t']): Outcome {
  const text = refusalText(msg, t('error.relatedData'));
  return { kind: 'notice', notice: { tone: 'error', key: null, text }, code: 600 };
}

const common = { bodyLimit: 16 * 1024, input: Input, back: (fields: Readonly<Record<string, string>>, ctx: ActionContext) => backOf(fields, ctx.origin), keep };

export const seatCompanies = defineAction({
  ...common,
  path: '/api/seat/companies',
  // without JavaScript the visitor types the whole company
  jsonOnly: true,
  async run(input: Input, ports: SeatPorts, ctx): Promise<Outcome> {
    const keywords = cleanSeatText(input.keywords);
    // Too short to ask: no upstream call, nothing counted.
    if (!shouldFetchCompanies(keywords) || [...keywords].length > SEAT_TEXT_MAX) return data({ companies: [] });
    const limited = await ports.limit(input.expoId);
    if (limited) return limitOutcome(limited) as Outcome;
    const list = await ports.up.getUserCompanyList({ expoId: input.expoId, type: 2, userName: '', keywords });
    if (!list.ok) return seatRefused(list.msg, ctx.t);
    // Whatever the upstream matched (anywhere in the name), only prefixes of the typed text are shown.
    return data({ companies: companySuggestions(list.data, keywords) });
  },
});

export const seatDetail = defineAction({
  ...common,
  path: '/api/seat/detail',
  async run(input: Input, ports: SeatPorts, ctx): Promise<Outcome> {
    const q = validateSeatQuery(input);
    if (!q.ok) return refuse(q.field, q.key);
    const limited = await ports.limit(input.expoId);
    if (limited) return limitOutcome(limited) as Outcome;
    const d = await ports.up.getUserSeatDetail({ expoId: input.expoId, ...q.value });
    if (!d.ok) return seatRefused(d.msg, ctx.t);
    // Only the typed name and company, both exact (case and spacing folded), whatever the
    // upstream matched: a partial company or a near name finds no seat.
    if (!d.data || !sameSeatText(d.data.userName, q.value.userName) || !sameSeatText(d.data.company, q.value.companyName))
      return refuse(null, 'seat.noSeat');
    const location = await seatResultPath(
      { expoId: input.expoId, fId: input.urlId },
      { userName: d.data.userName, companyName: d.data.company, seat: d.data.seat },
      ports.secret,
    );
    return { kind: 'navigate', location };
  },
});

export const seatPerson = defineAction({
  ...common,
  path: '/api/seat/person',
  async run(input: Input, ports: SeatPorts, ctx): Promise<Outcome> {
    const q = validateSeatQuery(input);
    if (!q.ok) return refuse(q.field, q.key);
    const typeId = decimal.safeParse(input.typeId);
    // a select of ours posts it: the island is told, a form post comes back as it was
    if (!typeId.success) return { kind: 'notice', notice: null, status: 400, code: 400, msg: ctx.t('seat.activityType') };
    const limited = await ports.limit(input.expoId);
    if (limited) return limitOutcome(limited) as Outcome;
    const all = await ports.up.selectUserSeat({ expoId: input.expoId, userName: q.value.userName, typeId: typeId.data });
    if (!all.ok) return seatRefused(all.msg, ctx.t);
    // The upstream answers everyone of that name; only the typed company's are shown.
    const people = all.data.filter((p) => sameSeatText(p.userName, q.value.userName) && sameSeatText(p.company, q.value.companyName));
    // Without JavaScript: back to the page, the rows in the flash (p0 … as company / seat / number).
    const rows = Object.fromEntries(people.slice(0, 10).map((p, i) => [`p${i}`, JSON.stringify([p.company, p.seat, p.seatNumber])]));
    return {
      kind: 'notice',
      notice: people.length ? null : { tone: 'info', key: 'seat.activityNone', text: null },
      values: { typeId: String(typeId.data), ...rows },
      data: { people },
    };
  },
});
