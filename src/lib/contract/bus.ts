/**
 * Shuttle bus (docs/upstream.md "Shuttle bus"; spec §2.3 names `/bus` and `/busInfo` and no call):
 * paths relative to `{UPSTREAM_URL}/custom`, plain params and data (no AES), the codes of
 * `addBusUser` and the shapes of the replies. These calls are our reading. Numbers may come as
 * decimal strings; rows that do not fit are dropped, never shown half.
 */
import { z } from 'zod';
import { siteRows } from './sites';
import { under } from './wire';
import { strictCount as Count, strictId as Id, boundedText as Text } from './loose';
import type { UpstreamResult } from './result';

export const BusPath = under('/customFrom', 'selectBusList addBusUser selectBusUser cancelBusUser');

/** The business refusals of `addBusUser`. */
export const BusCode = {
  /** the departure has no seat left */
  FULL: 20301,
  /** this registration already holds a seat on that line (cancel it first) */
  ALREADY_RESERVED: 20302,
} as const;


export const BusStop = z.object({ id: Id, name: Text(200).pipe(z.string().min(1)) });
export type BusStop = z.infer<typeof BusStop>;
/** `departTime`: "YYYY-MM-DD HH:mm:ss", expo-local. */
export const BusDeparture = z.object({ id: Id, departTime: Text(40).pipe(z.string().min(1)), capacity: Count, booked: Count });
export type BusDeparture = z.infer<typeof BusDeparture>;
/** A line: its stops in riding order and its departures; a stop or departure that does not read is dropped. */
export const BusLine = z.object({
  id: Id,
  name: Text(200).pipe(z.string().min(1)),
  note: Text(1000),
  stops: siteRows(BusStop).transform((l) => l.slice(0, 50)),
  departures: siteRows(BusDeparture).transform((l) => l.slice(0, 100)),
});
export type BusLine = z.infer<typeof BusLine>;
/** A registration's reservation: one seat on one departure, boarding at one stop. */
export const BusReservation = z.object({
  id: Id,
  lineId: Id,
  lineName: Text(200),
  departureId: Id,
  departTime: Text(40),
  stopId: Id,
  stopName: Text(200),
});
export type BusReservation = z.infer<typeof BusReservation>;
export const ReservedId = z.object({ id: Id });

// The calls of this area as the client answers them: the one declaration the client implements and src/lib picks its ports from.
export interface BusCalls {
  /** `GET /customFrom/selectBusList`: the expo's lines with stops and departures (empty: no shuttle bus). */
  selectBusList(p: { expoId: number }): Promise<UpstreamResult<BusLine[]>>;
  /** `POST /customFrom/addBusUser`: `{ id }`; 20301 full, 20302 already on that line. */
  addBusUser(p: { expoId: number; euCode: string; departureId: number; stopId: number }): Promise<UpstreamResult<{ id: number }>>;
  /** `GET /customFrom/selectBusUser`: the registration's reservations. */
  selectBusUser(p: { expoId: number; euCode: string }): Promise<UpstreamResult<BusReservation[]>>;
  /** `POST /customFrom/cancelBusUser`: cancels one of the registration's reservations. */
  cancelBusUser(p: { expoId: number; euCode: string; id: number }): Promise<UpstreamResult<null>>;
}
