/**
 * The seat lookup endpoints (spec §2.4, §2.5, §5, §8). JSON for the island, plain
 * form posts without JavaScript (303 back to the page with the typed values and the message
 * in the flash cookie, or on to the result page).
 *
 * - `POST /api/seat/companies`: the pick-list as the visitor types the company: companies that
 *   start with the typed text (≥ 3 characters, ≤ 20 names; getUserCompanyList type 2).
 * - `POST /api/seat/detail`: the seat of a typed name and company, both exact (case and spacing
 *   folded) → the signed result page. With and without JavaScript: the same form.
 * - `POST /api/seat/person`: one person's seats in one activity type (selectUserSeat), for a typed
 *   name and company, both exact.
 *
 * Issue 19 item 4: a name alone never answers with anyone's company. The former no-JS name step
 * (`/api/seat/name`, the companies of everyone with that name as choices) and the pick-list's
 * type 1 (the companies of people called X) are gone; see src/lib/seat/seats.ts.
 * - `GET /api/seat/activities`, `GET /api/seat/image`: the activity types, the seat map's url.
 *
 * Every call that looks a person up (name, companies, detail, person) counts against the seat
 * limits (src/lib/security/limits.ts `seatRules`) in the shared Durable Object before the upstream
 * sees it; a refusal is 429 with the message and every typed value kept.
 */
import { Hono, type Context } from 'hono';
import { setCookie } from 'hono/cookie';
import { z } from 'zod';
import type { AppEnv } from '../env';
import { upstreamFor } from '../upstream';
import { faultJson, upstreamFault, type FaultView } from './fault';
import { readInput, type Input } from './input';
import { badRequest } from './bad-request';
import { checkSeatLimits, limitedReply } from '../limits';
import { displayText, encodeFlash, FLASH_COOKIE, FLASH_MAX_AGE_S, FLASH_MAX_PATH, type FlashInput } from '../../src/lib/page/flash';
import { safeBackPath } from '../../src/lib/util/safe-redirect';
import {
  cleanSeatText,
  companySuggestions,
  sameSeatText,
  SEAT_EXPO_IDS,
  SEAT_TEXT_MAX,
  seatImageUrl,
  seatResultPath,
  shouldFetchCompanies,
  validateSeatQuery,
  type SeatMessageKey,
} from '../../src/lib/seat/seats';
import type { SeatReply } from '../../src/lib/actions/replies';
import { routePath } from '../../src/lib/page/routes';

type Ctx = Context<{ Bindings: AppEnv }>;

const decimal = z.string().trim().regex(/^\d{1,12}$/, 'a positive decimal').transform(Number).pipe(z.number().int().positive());

/** The hidden fields of the seat lookup page. */
const Page = z.object({
  expoId: decimal.refine((id) => SEAT_EXPO_IDS.has(id), 'not a seat-lookup expo'),
  urlId: decimal,
  ty: z.string().trim().regex(/^[A-Za-z0-9_-]{0,32}$/, 'a short word').default(''),
  back: z.string().default('').transform((s) => (s.length > FLASH_MAX_PATH ? '' : s)),
});
type Page = z.infer<typeof Page>;

/** What the visitor typed: only cut to a sane size here; src/lib/seat/seats.ts judges it. */
const typed = z.string().default('').transform((s) => s.slice(0, 4 * SEAT_TEXT_MAX));
const Typed = z.object({ userName: typed, companyName: typed, keywords: typed, typeId: typed, phone: typed });

interface Req {
  input: Input;
  page: Page;
  back: string;
  typed: z.infer<typeof Typed>;
}

async function parse(c: Ctx): Promise<Req | Response> {
  const input = await readInput(c);
  const page = Page.safeParse(input.fields);
  // hidden fields the visitor did not type; a short sentence, never the schema's words.
  if (!page.success) return badRequest(c, input, input.t('api.badPage'), input.t('app.back'), input.fields['back']);
  const own = routePath({ screen: 'seat', params: { fId: page.data.urlId, expoId: page.data.expoId, ty: page.data.ty } });
  const posted = safeBackPath(page.data.back, new URL(c.req.url).origin);
  const back = posted !== null && posted.length <= FLASH_MAX_PATH && posted.startsWith('/seat/') ? posted : own;
  return { input, page: page.data, back, typed: Typed.parse(input.fields) };
}

function flashBack(c: Ctx, r: Req, flash: Omit<FlashInput, 'path' | 'values'>, extra: Record<string, string> = {}): Response {
  const values = { userName: r.typed.userName.slice(0, SEAT_TEXT_MAX), companyName: r.typed.companyName.slice(0, SEAT_TEXT_MAX), ...extra };
  setCookie(c, FLASH_COOKIE, encodeFlash({ path: r.back, values, ...flash }), {
    path: '/',
    maxAge: FLASH_MAX_AGE_S,
    httpOnly: true,
    sameSite: 'Lax',
    secure: new URL(c.req.url).protocol === 'https:',
  });
  return c.redirect(r.back, 303);
}

/** A message for the field or the page: JSON 200 with the message (the island shows it), or back with the values. */
function refuse(c: Ctx, r: Req, field: 'userName' | 'companyName' | null, key: SeatMessageKey | 'seat.companyNone'): Response {
  if (r.input.json) return c.json<SeatReply>({ code: 400, msg: r.input.t(key), data: { field } });
  if (field) return flashBack(c, r, { error: { field, key, text: null } });
  return flashBack(c, r, { notice: { tone: 'error', key, text: null } });
}

function fault(c: Ctx, r: Req, e: unknown): Response {
  const f: FaultView = upstreamFault(e, r.input.t, new URL(c.req.url).pathname);
  return r.input.json ? faultJson(c, f) : flashBack(c, r, { notice: f.notice });
}

/** An upstream refusal: its message (cut) or the route's text. */
function refused(c: Ctx, r: Req, msg: string | null): Response {
  const text = displayText(msg ?? '') || r.input.t('error.relatedData');
  if (r.input.json) return c.json<SeatReply>({ code: 600, msg: text, data: null });
  return flashBack(c, r, { notice: { tone: 'error', key: null, text } });
}

async function limited(c: Ctx, r: Req): Promise<Response | null> {
  const refusal = await checkSeatLimits(c, r.page.expoId);
  return refusal ? limitedReply(c, refusal, r.input, (notice) => flashBack(c, r, { notice })) : null;
}

export const seats = new Hono<{ Bindings: AppEnv }>();

/**
 * The pick-list as the visitor types the company (spec §2.5): type 2, the
 * companies that start with the typed text; the name plays no part, so it lists no one's company.
 */
seats.post('/seat/companies', async (c) => {
  const r = await parse(c);
  if (r instanceof Response) return r;
  // JSON only: without JavaScript the visitor types the whole company.
  if (!r.input.json) return badRequest(c, r.input, r.input.t('api.badPage'), r.input.t('app.back'), r.back);
  const keywords = cleanSeatText(r.typed.keywords);
  // Too short to ask: no upstream call, nothing counted.
  if (!shouldFetchCompanies(keywords) || [...keywords].length > SEAT_TEXT_MAX) return c.json<SeatReply>({ code: 200, msg: null, data: { companies: [] } });
  const stop = await limited(c, r);
  if (stop) return stop;
  try {
    const list = await upstreamFor(c.env).getUserCompanyList({ expoId: r.page.expoId, type: 2, userName: '', keywords });
    if (!list.ok) return refused(c, r, list.msg);
    // Whatever the upstream matched (anywhere in the name), only prefixes of the typed text are shown.
    return c.json<SeatReply>({ code: 200, msg: null, data: { companies: companySuggestions(list.data, keywords) } });
  } catch (e) {
    return fault(c, r, e);
  }
});

/** The seat of a name and company → the result page (spec §2.3). */
seats.post('/seat/detail', async (c) => {
  const r = await parse(c);
  if (r instanceof Response) return r;
  const q = validateSeatQuery(r.typed);
  if (!q.ok) return refuse(c, r, q.field, q.key);
  const stop = await limited(c, r);
  if (stop) return stop;
  try {
    const d = await upstreamFor(c.env).getUserSeatDetail({ expoId: r.page.expoId, ...q.value });
    if (!d.ok) return refused(c, r, d.msg);
    // Issue 19 item 4: only the typed name and company, both exact (case and spacing folded),
    // whatever the upstream matched: a partial company or a near name finds no seat.
    if (!d.data || !sameSeatText(d.data.userName, q.value.userName) || !sameSeatText(d.data.company, q.value.companyName))
      return refuse(c, r, null, 'seat.noSeat');
    const location = await seatResultPath(
      { expoId: r.page.expoId, fId: r.page.urlId },
      { userName: d.data.userName, companyName: d.data.company, seat: d.data.seat },
      c.env.SESSION_SECRET ?? '',
    );
    if (r.input.json) return c.json<SeatReply>({ code: 200, msg: null, data: { location } });
    return c.redirect(location, 303);
  } catch (e) {
    return fault(c, r, e);
  }
});

/** The seats of a name in one activity type (the bottom popup, spec §2.5). */
seats.post('/seat/person', async (c) => {
  const r = await parse(c);
  if (r instanceof Response) return r;
  const q = validateSeatQuery(r.typed);
  if (!q.ok) return refuse(c, r, q.field, q.key);
  const typeId = decimal.safeParse(r.typed.typeId);
  if (!typeId.success) return r.input.json ? c.json<SeatReply>({ code: 400, msg: r.input.t('seat.activityType'), data: null }, 400) : flashBack(c, r, {});
  const stop = await limited(c, r);
  if (stop) return stop;
  try {
    const all = await upstreamFor(c.env).selectUserSeat({ expoId: r.page.expoId, userName: q.value.userName, typeId: typeId.data });
    if (!all.ok) return refused(c, r, all.msg);
    // Issue 19 item 4: the upstream answers everyone of that name; only the typed company's are shown.
    const rows = { data: all.data.filter((p) => sameSeatText(p.userName, q.value.userName) && sameSeatText(p.company, q.value.companyName)) };
    if (r.input.json) return c.json<SeatReply>({ code: 200, msg: rows.data.length ? null : r.input.t('seat.activityNone'), data: { people: rows.data } });
    // Without JavaScript: back to the page, the rows in the flash (p0 … as company / seat / number).
    const people = Object.fromEntries(rows.data.slice(0, 10).map((p, i) => [`p${i}`, JSON.stringify([p.company, p.seat, p.seatNumber])]));
    return flashBack(c, r, rows.data.length ? {} : { notice: { tone: 'info', key: 'seat.activityNone', text: null } }, { typeId: String(typeId.data), ...people });
  } catch (e) {
    return fault(c, r, e);
  }
});

const ExpoQuery = z.object({ expoId: decimal.refine((id) => SEAT_EXPO_IDS.has(id), 'not a seat-lookup expo') });

/** The activity types of the seat lookup (classification 10). */
seats.get('/seat/activities', async (c) => {
  const q = ExpoQuery.safeParse(c.req.query());
  const t = (await readInput(c)).t;
  if (!q.success) return c.json<SeatReply>({ code: 400, msg: t('api.badPage'), data: null }, 400);
  try {
    const r = await upstreamFor(c.env).pageActivityType({ expoId: q.data.expoId });
    return r.ok ? c.json<SeatReply>({ code: 200, msg: null, data: { activities: r.data } }) : c.json<SeatReply>({ code: 600, msg: displayText(r.msg ?? '') || t('error.relatedData'), data: null });
  } catch (e) {
    return faultJson(c, upstreamFault(e, t, '/api/seat/activities'));
  }
});

/** The seat map's url (getImage `seat`), when it is a path on this site or an https address. */
seats.get('/seat/image', async (c) => {
  const q = ExpoQuery.safeParse(c.req.query());
  const t = (await readInput(c)).t;
  if (!q.success) return c.json<SeatReply>({ code: 400, msg: t('api.badPage'), data: null }, 400);
  try {
    const r = await upstreamFor(c.env).getImage({ expoId: q.data.expoId, imageName: 'seat' });
    if (!r.ok) return c.json<SeatReply>({ code: 600, msg: displayText(r.msg ?? '') || t('error.relatedData'), data: null });
    return c.json<SeatReply>({ code: 200, msg: null, data: { image: seatImageUrl(r.data.url) } });
  } catch (e) {
    return faultJson(c, upstreamFault(e, t, '/api/seat/image'));
  }
});
