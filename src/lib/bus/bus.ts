/**
 * The shuttle bus of a credential holder (spec §2.3 names `/bus` and `/busInfo` with urlId, euCode,
 * eid, fId, euUserId, and shows nothing more; docs/upstream.md "Shuttle bus" is our reading): the
 * expo's lines with their stops and departures, the seats left, and which departures the holder
 * may still reserve (one seat per line, like one site booking per type). Pure.
 */

/** A stop of a line, in riding order. */
export interface BusStop {
  id: number;
  name: string;
}

/** One departure of a line: `departTime` "YYYY-MM-DD HH:mm:ss", expo-local. */
export interface BusDeparture {
  id: number;
  departTime: string;
  capacity: number;
  booked: number;
}

export interface BusLine {
  id: number;
  name: string;
  note: string;
  stops: BusStop[];
  departures: BusDeparture[];
}

/** A registration's seat: one departure of one line, boarding at one stop. */
export interface BusReservation {
  id: number;
  lineId: number;
  lineName: string;
  departureId: number;
  departTime: string;
  stopId: number;
  stopName: string;
}

/** At most this many lines, and departures of a line, are shown (a real expo runs a handful). */
export const MAX_LINES = 20;
export const MAX_DEPARTURES = 50;

/**
 * Seats left on a departure (never below 0, whatever a stale count says).
 * @example seatsLeft({ id: 1, departTime: '', capacity: 40, booked: 39 }) // 1
 */
export function seatsLeft(d: BusDeparture): number {
  return Math.max(0, d.capacity - d.booked);
}

/**
 * A departure time as the page shows it: the date and the minutes, without seconds.
 * @example departureText('2026-12-01 08:30:00') // '2026-12-01 08:30'
 */
export function departureText(text: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(?::\d{2})?$/.exec(text.trim());
  return m ? `${m[1]} ${m[2]}` : text.trim();
}

/** What one departure row offers the holder. */
export type DepartureOffer = 'reserve' | 'full' | 'held' | 'lineHeld';

/**
 * What a departure offers: `held` (this seat is the holder's), `lineHeld` (the holder has a seat
 * on another departure of this line: cancel it first), `full`, or `reserve`.
 * @example departureOffer(line, line.departures[0], []) // 'reserve'
 */
export function departureOffer(line: Pick<BusLine, 'id'>, d: BusDeparture, mine: readonly BusReservation[]): DepartureOffer {
  if (mine.some((r) => r.departureId === d.id)) return 'held';
  if (mine.some((r) => r.lineId === line.id)) return 'lineHeld';
  return seatsLeft(d) > 0 ? 'reserve' : 'full';
}

/** The lines as shown: at most {@link MAX_LINES}, each with at most {@link MAX_DEPARTURES} departures, lines without a stop or a departure left out. */
export function shownLines(lines: readonly BusLine[]): BusLine[] {
  return lines
    .filter((l) => l.stops.length > 0 && l.departures.length > 0)
    .slice(0, MAX_LINES)
    .map((l) => ({ ...l, departures: l.departures.slice(0, MAX_DEPARTURES) }));
}

/** The catalogue key naming each part of a bus link (src/lib/core/routes.ts `BUS_PARTS`), for the page of an incomplete one. */
export const BUS_PART_KEYS = {
  urlId: 'bus.partUrlId',
  euCode: 'bus.partEuCode',
  eid: 'bus.partEid',
  fId: 'bus.partFId',
  euUserId: 'bus.partEuUserId',
} as const;
