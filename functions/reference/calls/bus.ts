/**
 * Shuttle bus on D1 (docs/upstream.md "Shuttle bus"; spec §2.3 `/bus`, `/busInfo`): the expo's lines
 * with stops and departures (seats left), reserve, list, cancel. Plain params (no AES).
 *
 * Seats are never oversold: a reservation is one D1 batch (one transaction) of
 * `UPDATE bus_departures SET booked = booked + 1 WHERE id = ? AND booked < capacity RETURNING …`
 * and an `INSERT … SELECT … WHERE changes() = 1`; the UNIQUE (expo, euCode, line) of
 * bus_reservations refuses a second seat on a line by failing the insert, which rolls the
 * increment back. The `booked <= capacity` CHECK (migrations/0009_bus.sql) is the last guard.
 */
import type { Context } from 'hono';
import { z } from 'zod';
import { BusCode } from '../../../src/lib/contract';
import { RefCode, ok, reply } from '../envelope';
import { givePlaceBack, takeOnePlace } from '../capacity';
import { expoLocalTime, type RefEnv } from '../expo';
import { DecimalId, parseInput, readSmallJson } from '../inputs';
import { BUS_MAX_BODY } from '../rules';

const EuCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a registration code');

const ListQuery = z.object({ expoId: DecimalId.optional() });
const MineQuery = z.object({ expoId: DecimalId.optional(), euCode: EuCode });
const ReserveBody = z.object({
  expoId: DecimalId.optional(),
  euCode: EuCode,
  departureId: DecimalId,
  stopId: DecimalId,
});
const CancelBody = z.object({ expoId: DecimalId.optional(), euCode: EuCode, id: DecimalId });

const readBody = (c: Context<RefEnv>) => readSmallJson(c.req.raw, BUS_MAX_BODY);

/** The body/query's expoId, when given, must be the header's. */
function sameExpo(c: Context<RefEnv>, expoId: number | undefined): boolean {
  return expoId === undefined || expoId === c.var.expo.id;
}

const OTHER_EXPO = 'bad input: expoId is not the expoId header';

/** `GET /customFrom/selectBusList`: `[{ id, name, note, stops: [{ id, name }], departures: [{ id, departTime, capacity, booked }] }]`. */
export async function selectBusList(c: Context<RefEnv>): Promise<Response> {
  const input = parseInput(ListQuery, c.req.query());
  if (!input.ok) return reply(c, RefCode.BAD_INPUT, input.msg);
  if (!sameExpo(c, input.value.expoId)) return reply(c, RefCode.BAD_INPUT, OTHER_EXPO);
  const db = c.env.DB;
  const expoId = c.var.expo.id;
  const [lines, stops, departures] = await db.batch<Record<string, unknown>>([
    db.prepare('SELECT id, name, note FROM bus_lines WHERE expo_id = ? ORDER BY sort, id').bind(expoId),
    db
      .prepare(
        'SELECT s.id, s.line_id AS lineId, s.name FROM bus_stops s JOIN bus_lines l ON l.id = s.line_id WHERE l.expo_id = ? ORDER BY s.sort, s.id',
      )
      .bind(expoId),
    db
      .prepare(
        'SELECT d.id, d.line_id AS lineId, d.depart_time AS departTime, d.capacity, d.booked FROM bus_departures d JOIN bus_lines l ON l.id = d.line_id WHERE l.expo_id = ? ORDER BY d.depart_time, d.id',
      )
      .bind(expoId),
  ]);
  const of = (rows: Record<string, unknown>[] | undefined, lineId: unknown) =>
    (rows ?? []).filter((r) => r['lineId'] === lineId).map(({ lineId: _l, ...rest }) => rest);
  return ok(
    c,
    (lines?.results ?? []).map((l) => ({
      ...l,
      stops: of(stops?.results, l['id']),
      departures: of(departures?.results, l['id']),
    })),
  );
}

/** `POST /customFrom/addBusUser` `{ expoId, euCode, departureId, stopId }`: `{ id }`, 20301 full, 20302 already on that line. */
export async function addBusUser(c: Context<RefEnv>): Promise<Response> {
  const input = parseInput(ReserveBody, await readBody(c));
  if (!input.ok) return reply(c, RefCode.BAD_INPUT, input.msg);
  const { euCode, departureId, stopId } = input.value;
  if (!sameExpo(c, input.value.expoId)) return reply(c, RefCode.BAD_INPUT, OTHER_EXPO);
  const db = c.env.DB;
  const expoId = c.var.expo.id;
  const registered = await db
    .prepare('SELECT 1 AS x FROM registrations WHERE expo_id = ? AND eu_code = ?')
    .bind(expoId, euCode)
    .first();
  if (!registered) return reply(c, RefCode.NOT_FOUND, 'no registration with this code in this expo');
  // The departure and the stop must be of one line of this expo.
  const dep = await db
    .prepare(
      'SELECT d.line_id AS lineId FROM bus_departures d JOIN bus_lines l ON l.id = d.line_id JOIN bus_stops s ON s.line_id = l.id WHERE d.id = ? AND s.id = ? AND l.expo_id = ?',
    )
    .bind(departureId, stopId, expoId)
    .first<{ lineId: number }>();
  if (!dep) return reply(c, RefCode.NOT_FOUND, 'no such departure and stop of one line in this expo');
  const held = await db
    .prepare('SELECT 1 AS x FROM bus_reservations WHERE expo_id = ? AND eu_code = ? AND line_id = ?')
    .bind(expoId, euCode, dep.lineId)
    .first();
  if (held)
    return reply(c, BusCode.ALREADY_RESERVED, 'this registration already holds a seat on this line; cancel it first');
  const now = expoLocalTime(Date.now(), c.var.expo.utc_offset_minutes);
  return takeOnePlace(
    c,
    db
      .prepare('UPDATE bus_departures SET booked = booked + 1 WHERE id = ? AND booked < capacity RETURNING id')
      .bind(departureId),
    db
      .prepare(
        'INSERT INTO bus_reservations (expo_id, eu_code, line_id, departure_id, stop_id, created_at) SELECT ?, ?, line_id, id, ?, ? FROM bus_departures WHERE id = ? AND changes() = 1 RETURNING id',
      )
      .bind(expoId, euCode, stopId, now, departureId),
    {
      full: { code: BusCode.FULL, msg: 'this departure is full' },
      held: {
        code: BusCode.ALREADY_RESERVED,
        msg: 'this registration already holds a seat on this line; cancel it first',
      },
    },
  );
}

/** `GET /customFrom/selectBusUser`: the registration's reservations `[{ id, lineId, lineName, departureId, departTime, stopId, stopName }]`. */
export async function selectBusUser(c: Context<RefEnv>): Promise<Response> {
  const input = parseInput(MineQuery, c.req.query());
  if (!input.ok) return reply(c, RefCode.BAD_INPUT, input.msg);
  if (!sameExpo(c, input.value.expoId)) return reply(c, RefCode.BAD_INPUT, OTHER_EXPO);
  const { results } = await c.env.DB.prepare(
    `SELECT r.id, r.line_id AS lineId, l.name AS lineName, r.departure_id AS departureId, d.depart_time AS departTime,
            r.stop_id AS stopId, s.name AS stopName
       FROM bus_reservations r JOIN bus_lines l ON l.id = r.line_id JOIN bus_departures d ON d.id = r.departure_id
       JOIN bus_stops s ON s.id = r.stop_id
      WHERE r.expo_id = ? AND r.eu_code = ? ORDER BY d.depart_time, r.id`,
  )
    .bind(c.var.expo.id, input.value.euCode)
    .all();
  return ok(c, results);
}

/** `POST /customFrom/cancelBusUser` `{ expoId, euCode, id }`: `null`; the seat is free again. */
export async function cancelBusUser(c: Context<RefEnv>): Promise<Response> {
  const input = parseInput(CancelBody, await readBody(c));
  if (!input.ok) return reply(c, RefCode.BAD_INPUT, input.msg);
  if (!sameExpo(c, input.value.expoId)) return reply(c, RefCode.BAD_INPUT, OTHER_EXPO);
  const db = c.env.DB;
  const expoId = c.var.expo.id;
  const { id, euCode } = input.value;
  // One transaction: the departure gives the seat back, then the reservation (only the code's own) goes.
  return givePlaceBack(
    c,
    db
      .prepare(
        'UPDATE bus_departures SET booked = booked - 1 WHERE id = (SELECT departure_id FROM bus_reservations WHERE id = ? AND expo_id = ? AND eu_code = ?) AND booked > 0',
      )
      .bind(id, expoId, euCode),
    db
      .prepare('DELETE FROM bus_reservations WHERE id = ? AND expo_id = ? AND eu_code = ? RETURNING departure_id')
      .bind(id, expoId, euCode),
    'no such reservation of this registration',
  );
}
