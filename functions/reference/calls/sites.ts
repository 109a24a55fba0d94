/**
 * Site booking on D1 (docs/upstream.md "Site booking"; spec §1, §7 `from/site`): types, dates with
 * places left, book, list, cancel. Plain params (no AES), like the table says.
 *
 * Capacity never oversells: a booking is one D1 batch (one transaction) of
 * `UPDATE site_dates SET booked = booked + 1 WHERE id = ? AND booked < capacity RETURNING …`
 * and an `INSERT … SELECT … WHERE changes() = 1`; the UNIQUE (expo, euCode, type) of
 * site_bookings refuses a second booking of a type by failing the insert, which rolls the
 * increment back. D1 runs one statement batch at a time per database, and the `booked <=
 * capacity` CHECK (migrations/0004_sites.sql) is the last guard.
 */
import type { Context } from 'hono';
import { z } from 'zod';
import { SiteCode } from '../../../src/lib/contract';
import { RefCode, ok, reply } from '../envelope';
import { givePlaceBack, takeOnePlace } from '../capacity';
import { expoLocalTime, type RefEnv } from '../expo';
import { DecimalId, parseInput, readSmallJson } from '../inputs';

const EuCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a registration code');

const TypesQuery = z.object({ expoId: DecimalId.optional() });
const DatesQuery = z.object({ expoId: DecimalId.optional(), typeId: DecimalId });
const MineQuery = z.object({ expoId: DecimalId.optional(), euCode: EuCode });
const BookBody = z.object({ expoId: DecimalId.optional(), euCode: EuCode, siteDateId: DecimalId });
const CancelBody = z.object({ expoId: DecimalId.optional(), euCode: EuCode, id: DecimalId });

/** JSON bodies of these calls are a few ids: anything larger is not one of ours. */
const MAX_BODY = 2048;

const readBody = (c: Context<RefEnv>) => readSmallJson(c.req.raw, MAX_BODY);

/** The body/query's expoId, when given, must be the header's. */
function sameExpo(c: Context<RefEnv>, expoId: number | undefined): boolean {
  return expoId === undefined || expoId === c.var.expo.id;
}

async function registered(c: Context<RefEnv>, euCode: string): Promise<boolean> {
  const row = await c.env.DB.prepare('SELECT 1 AS x FROM registrations WHERE expo_id = ? AND eu_code = ?')
    .bind(c.var.expo.id, euCode)
    .first();
  return row !== null;
}

/** `GET /from/site/selectSiteTypeList`: `[{ id, name, note }]`. */
export async function selectSiteTypeList(c: Context<RefEnv>): Promise<Response> {
  const input = parseInput(TypesQuery, c.req.query());
  if (!input.ok) return reply(c, RefCode.BAD_INPUT, input.msg);
  if (!sameExpo(c, input.value.expoId))
    return reply(c, RefCode.BAD_INPUT, 'bad input: expoId is not the expoId header');
  const { results } = await c.env.DB.prepare(
    'SELECT id, name, note FROM site_types WHERE expo_id = ? ORDER BY sort, id',
  )
    .bind(c.var.expo.id)
    .all();
  return ok(c, results);
}

/** `GET /from/site/selectSiteDateList`: `[{ id, date, timeRange, capacity, booked }]` of one type. */
export async function selectSiteDateList(c: Context<RefEnv>): Promise<Response> {
  const input = parseInput(DatesQuery, c.req.query());
  if (!input.ok) return reply(c, RefCode.BAD_INPUT, input.msg);
  if (!sameExpo(c, input.value.expoId))
    return reply(c, RefCode.BAD_INPUT, 'bad input: expoId is not the expoId header');
  const { results } = await c.env.DB.prepare(
    'SELECT id, date, time_range AS timeRange, capacity, booked FROM site_dates WHERE expo_id = ? AND type_id = ? ORDER BY date, time_range, id',
  )
    .bind(c.var.expo.id, input.value.typeId)
    .all();
  return ok(c, results);
}

/** `POST /from/site/addExpoUserSite` `{ expoId, euCode, siteDateId }`: `{ id }`, 20201 full, 20202 already booked. */
export async function addExpoUserSite(c: Context<RefEnv>): Promise<Response> {
  const input = parseInput(BookBody, await readBody(c));
  if (!input.ok) return reply(c, RefCode.BAD_INPUT, input.msg);
  const { euCode, siteDateId } = input.value;
  if (!sameExpo(c, input.value.expoId))
    return reply(c, RefCode.BAD_INPUT, 'bad input: expoId is not the expoId header');
  if (!(await registered(c, euCode))) return reply(c, RefCode.NOT_FOUND, 'no registration with this code in this expo');
  const db = c.env.DB;
  const expoId = c.var.expo.id;
  const date = await db
    .prepare('SELECT id, type_id FROM site_dates WHERE id = ? AND expo_id = ?')
    .bind(siteDateId, expoId)
    .first<{ id: number; type_id: number }>();
  if (!date) return reply(c, RefCode.NOT_FOUND, 'no such site date in this expo');
  const held = await db
    .prepare('SELECT 1 AS x FROM site_bookings WHERE expo_id = ? AND eu_code = ? AND type_id = ?')
    .bind(expoId, euCode, date.type_id)
    .first();
  if (held)
    return reply(c, SiteCode.ALREADY_BOOKED, 'this registration already holds a booking of this type; cancel it first');
  const now = expoLocalTime(Date.now(), c.var.expo.utc_offset_minutes);
  return takeOnePlace(
    c,
    db
      .prepare(
        'UPDATE site_dates SET booked = booked + 1 WHERE id = ? AND expo_id = ? AND booked < capacity RETURNING id',
      )
      .bind(siteDateId, expoId),
    db
      .prepare(
        'INSERT INTO site_bookings (expo_id, eu_code, type_id, site_date_id, created_at) SELECT ?, ?, type_id, id, ? FROM site_dates WHERE id = ? AND changes() = 1 RETURNING id',
      )
      .bind(expoId, euCode, now, siteDateId),
    {
      full: { code: SiteCode.FULL, msg: 'this date is full' },
      held: {
        code: SiteCode.ALREADY_BOOKED,
        msg: 'this registration already holds a booking of this type; cancel it first',
      },
    },
  );
}

/** `GET /from/site/selectExpoUserSiteId`: the registration's bookings `[{ id, typeId, typeName, date, timeRange }]`. */
export async function selectExpoUserSiteId(c: Context<RefEnv>): Promise<Response> {
  const input = parseInput(MineQuery, c.req.query());
  if (!input.ok) return reply(c, RefCode.BAD_INPUT, input.msg);
  if (!sameExpo(c, input.value.expoId))
    return reply(c, RefCode.BAD_INPUT, 'bad input: expoId is not the expoId header');
  const { results } = await c.env.DB.prepare(
    `SELECT b.id, b.type_id AS typeId, t.name AS typeName, d.date, d.time_range AS timeRange
       FROM site_bookings b JOIN site_types t ON t.id = b.type_id JOIN site_dates d ON d.id = b.site_date_id
      WHERE b.expo_id = ? AND b.eu_code = ? ORDER BY t.sort, t.id`,
  )
    .bind(c.var.expo.id, input.value.euCode)
    .all();
  return ok(c, results);
}

/** `POST /from/site/deleteExpoUserSite` `{ expoId, euCode, id }`: `null`; the place is free again. */
export async function deleteExpoUserSite(c: Context<RefEnv>): Promise<Response> {
  const input = parseInput(CancelBody, await readBody(c));
  if (!input.ok) return reply(c, RefCode.BAD_INPUT, input.msg);
  if (!sameExpo(c, input.value.expoId))
    return reply(c, RefCode.BAD_INPUT, 'bad input: expoId is not the expoId header');
  const db = c.env.DB;
  const expoId = c.var.expo.id;
  const { id, euCode } = input.value;
  // One transaction: the date's count gives the place back, then the booking (only the code's own) goes.
  return givePlaceBack(
    c,
    db
      .prepare(
        'UPDATE site_dates SET booked = booked - 1 WHERE id = (SELECT site_date_id FROM site_bookings WHERE id = ? AND expo_id = ? AND eu_code = ?) AND booked > 0',
      )
      .bind(id, expoId, euCode),
    db
      .prepare('DELETE FROM site_bookings WHERE id = ? AND expo_id = ? AND eu_code = ? RETURNING site_date_id')
      .bind(id, expoId, euCode),
    'no such booking of this registration',
  );
}
