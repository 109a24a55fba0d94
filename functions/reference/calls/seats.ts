/**
 * The seat lookup on the reference's auth face (docs/upstream.md "Seat lookup"; spec §2.5, §7):
 * `/auth/getUserCompanyList`, `checkUserByName`, `getUserSeatDetail`, `pageActivityType`,
 * `selectUserSeat`, `getImage`. Only people who agreed to be found by name
 * (`registrations.seat_consent`, migrations/0003_seats.sql) appear in any answer.
 *
 * docs/upstream.md "Seat lookup": a name alone answers no one's company. `getUserCompanyList` type 1 (the
 * companies of everyone called X) is refused; type 2 lists companies that *start with* at least
 * {@link COMPANY_PREFIX_MIN} typed characters; `getUserSeatDetail` answers only a name and a
 * company that are both exact, case and spacing folded ({@link folded}).
 */
import type { Context } from 'hono';
import { z } from 'zod';
import { RefCode, ok, reply } from '../envelope';
import type { RefEnv } from '../expo';
import { DecimalId, parseInput } from '../inputs';

const Name = z.string().trim().min(1, 'is required').max(100, 'is too long');
const Text = z.string().trim().max(100, 'is too long');
/** A query's expoId, when given, must be the header's. */
const ExpoParam = DecimalId.optional();

function sameExpo(c: Context<RefEnv>, expoId: number | undefined): boolean {
  return expoId === undefined || expoId === c.var.expo.id;
}
const wrongExpo = (c: Context<RefEnv>) => reply(c, RefCode.BAD_INPUT, 'bad input: expoId differs from the expoId header');

/** The fewest characters of a company's start type 2 answers for (the edge's COMPANY_MIN_CHARS). */
export const COMPANY_PREFIX_MIN = 3;

/**
 * A text column as compared: tabs and line breaks as spaces, runs of spaces folded (up to 8),
 * trimmed, lower case (SQLite folds ASCII letters). Bound values are folded alike ({@link fold}).
 */
const folded = (col: string) =>
  `lower(trim(replace(replace(replace(replace(replace(replace(${col}, char(9), ' '), char(10), ' '), char(13), ' '), '  ', ' '), '  ', ' '), '  ', ' ')))`;
/** The same folding in JavaScript, for the bound values (ASCII letters only, as SQLite's lower()). */
const fold = (s: string) =>
  s
    .replace(/[ \t\n\r]+/g, ' ')
    .trim()
    .replace(/[A-Z]/g, (ch) => ch.toLowerCase());

/** Consenting seat holders of the expo: the FROM of every answer. */
const HOLDERS = `FROM seats s JOIN registrations r ON r.id = s.registration_id WHERE s.expo_id = ?1 AND r.seat_consent = 1`;

const CompanyQuery = z.object({
  expoId: ExpoParam,
  keywords: Text.default(''),
  type: z.enum(['1', '2']),
  userName: Text.default(''),
});

/**
 * `type` 2: the companies that start with `keywords` (at least {@link COMPANY_PREFIX_MIN}
 * characters, case and spacing folded), at most 20. `type` 1 (the companies of people called
 * `userName`) is refused: it told anyone the employer of everyone with a common name.
 */
export async function getUserCompanyList(c: Context<RefEnv>): Promise<Response> {
  const q = parseInput(CompanyQuery, c.req.query());
  if (!q.ok) return reply(c, RefCode.BAD_INPUT, q.msg);
  if (!sameExpo(c, q.value.expoId)) return wrongExpo(c);
  const { type } = q.value;
  if (type === '1') return reply(c, RefCode.BAD_INPUT, 'bad input: type: 1 is not served (it lists the companies of everyone with a name); use type 2 with the start of the company');
  const prefix = fold(q.value.keywords);
  if ([...prefix].length < COMPANY_PREFIX_MIN) return ok(c, []);
  const rows = await c.env.DB.prepare(
    `SELECT DISTINCT r.ucompany AS company ${HOLDERS} AND r.ucompany IS NOT NULL AND r.ucompany <> ''
       AND substr(${folded('r.ucompany')}, 1, length(?2)) = ?2
     ORDER BY r.ucompany LIMIT 20`,
  )
    .bind(c.var.expo.id, prefix)
    .all<{ company: string }>();
  return ok(c, rows.results.map((r) => r.company));
}

const NameQuery = z.object({ expoId: ExpoParam, userName: Name });

/** `{ count }`: people of that name with a seat who agreed to be found. */
export async function checkUserByName(c: Context<RefEnv>): Promise<Response> {
  const q = parseInput(NameQuery, c.req.query());
  if (!q.ok) return reply(c, RefCode.BAD_INPUT, q.msg);
  if (!sameExpo(c, q.value.expoId)) return wrongExpo(c);
  const row = await c.env.DB.prepare(`SELECT COUNT(DISTINCT r.id) AS n ${HOLDERS} AND r.uname = ?2`)
    .bind(c.var.expo.id, q.value.userName)
    .first<{ n: number }>();
  return ok(c, { count: row?.n ?? 0 });
}

const DetailQuery = z.object({ expoId: ExpoParam, userName: Name, companyName: Name });

/** `{ userName, company, seat }` of the person of that name and company, both exact with case and spacing folded (the main seat first), or null. */
export async function getUserSeatDetail(c: Context<RefEnv>): Promise<Response> {
  const q = parseInput(DetailQuery, c.req.query());
  if (!q.ok) return reply(c, RefCode.BAD_INPUT, q.msg);
  if (!sameExpo(c, q.value.expoId)) return wrongExpo(c);
  const row = await c.env.DB.prepare(
    `SELECT r.uname AS userName, r.ucompany AS company, s.seat AS seat ${HOLDERS} AND ${folded('r.uname')} = ?2 AND ${folded('r.ucompany')} = ?3
     ORDER BY s.type_id IS NOT NULL, s.id LIMIT 1`,
  )
    .bind(c.var.expo.id, fold(q.value.userName), fold(q.value.companyName))
    .first<{ userName: string; company: string; seat: string }>();
  return ok(c, row ?? null);
}

const ActivityQuery = z.object({
  expoId: ExpoParam,
  activityName: Text.default(''),
  classification: z.string().trim().regex(/^\d{1,4}$/, 'must be a number').default('10'),
});

/** Activity types of the expo in a classification (10: the seat lookup), filtered by name. */
export async function pageActivityType(c: Context<RefEnv>): Promise<Response> {
  const q = parseInput(ActivityQuery, c.req.query());
  if (!q.ok) return reply(c, RefCode.BAD_INPUT, q.msg);
  if (!sameExpo(c, q.value.expoId)) return wrongExpo(c);
  const rows = await c.env.DB.prepare(
    `SELECT id, activity_name AS activityName FROM seat_activity_types
     WHERE expo_id = ? AND classification = ? AND (? = '' OR instr(activity_name, ?) > 0) ORDER BY id LIMIT 100`,
  )
    .bind(c.var.expo.id, Number(q.value.classification), q.value.activityName, q.value.activityName)
    .all<{ id: number; activityName: string }>();
  return ok(c, rows.results);
}

const PersonQuery = z.object({
  expoId: ExpoParam,
  userName: Name,
  phone: z.string().trim().max(32).default(''),
  typeId: DecimalId,
});

/** Seats of the people of that name (and proven phone, when given: docs/upstream.md "Who owns a registration") in one activity type. */
export async function selectUserSeat(c: Context<RefEnv>): Promise<Response> {
  const q = parseInput(PersonQuery, c.req.query());
  if (!q.ok) return reply(c, RefCode.BAD_INPUT, q.msg);
  if (!sameExpo(c, q.value.expoId)) return wrongExpo(c);
  const rows = await c.env.DB.prepare(
    `SELECT s.id AS id, r.uname AS userName, coalesce(r.ucompany, '') AS company, s.seat AS seat, s.seat_number AS seatNumber
     ${HOLDERS} AND r.uname = ?2 AND s.type_id = ?3 AND (?4 = '' OR r.owner_phone = ?4) ORDER BY s.id LIMIT 100`,
  )
    .bind(c.var.expo.id, q.value.userName, q.value.typeId, q.value.phone)
    .all();
  return ok(c, rows.results);
}

const ImageQuery = z.object({ expoId: ExpoParam, imageName: z.string().trim().regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be a short name') });

/** `{ image: [{ ImgUrl: [url] }] }` of a named image (e.g. `seat`); none: `{ image: [] }`. */
export async function getImage(c: Context<RefEnv>): Promise<Response> {
  const q = parseInput(ImageQuery, c.req.query());
  if (!q.ok) return reply(c, RefCode.BAD_INPUT, q.msg);
  if (!sameExpo(c, q.value.expoId)) return wrongExpo(c);
  const row = await c.env.DB.prepare('SELECT url FROM expo_images WHERE expo_id = ? AND image_name = ?')
    .bind(c.var.expo.id, q.value.imageName)
    .first<{ url: string }>();
  return ok(c, { image: row ? [{ ImgUrl: [row.url] }] : [] });
}
