/**
 * Site booking (docs/upstream.md "Site booking"; spec §1, §7 `from/site`): paths relative to
 * `{UPSTREAM_URL}/custom`, plain params and data (no AES), the codes of `addExpoUserSite` and the
 * shapes of the replies. Numbers may come as decimal strings; rows that do not fit are dropped,
 * never shown half.
 */
import { z } from 'zod';
import { under } from './wire';
import { strictCount as Count, strictId as Id, boundedText as Text } from './loose';
import type { UpstreamResult } from './result';

export const SitePath = {
  ...under('/from/site', 'selectSiteTypeList selectSiteDateList addExpoUserSite selectExpoUserSiteId'),
  /** deleteExpoUserSite, beyond the original contract: the spec names no cancel call */
  ...under('/from/site', 'deleteExpoUserSite'),
};

/** The business refusals of `addExpoUserSite`. */
export const SiteCode = {
  /** the date has no place left */
  FULL: 20201,
  /** this registration already holds a booking of that type (cancel it first) */
  ALREADY_BOOKED: 20202,
} as const;


export const SiteType = z.object({ id: Id, name: Text(200).pipe(z.string().min(1)), note: Text(1000) });
export type SiteType = z.infer<typeof SiteType>;
export const SiteDate = z.object({ id: Id, date: Text(40).pipe(z.string().min(1)), timeRange: Text(40), capacity: Count, booked: Count });
export type SiteDate = z.infer<typeof SiteDate>;
export const SiteBooking = z.object({ id: Id, typeId: Id, typeName: Text(200), date: Text(40), timeRange: Text(40) });
export type SiteBooking = z.infer<typeof SiteBooking>;
export const BookedId = z.object({ id: Id });

/** A list whose rows are read one by one: a row that does not fit is left out; more than 500 rows is not a list. */
export function siteRows<S extends z.ZodType>(schema: S) {
  return z.preprocess((v) => (Array.isArray(v) ? v : []), z.array(z.unknown()).max(500)).transform((list) =>
    list.flatMap((item) => {
      const r = schema.safeParse(item);
      return r.success ? [r.data as z.output<S>] : [];
    }),
  );
}

// The calls of this area as the client answers them: the one declaration the client implements and src/lib picks its ports from.
export interface SiteCalls {
  /** `GET /from/site/selectSiteTypeList`: the expo's slot types (an empty list: no site booking). */
  selectSiteTypeList(p: { expoId: number }): Promise<UpstreamResult<SiteType[]>>;
  /** `GET /from/site/selectSiteDateList`: the dates of a type with capacity and booked. */
  selectSiteDateList(p: { expoId: number; typeId: number }): Promise<UpstreamResult<SiteDate[]>>;
  /** `POST /from/site/addExpoUserSite`: `{ id }`; 20201 full, 20202 already booked of that type. */
  addExpoUserSite(p: { expoId: number; euCode: string; siteDateId: number }): Promise<UpstreamResult<{ id: number }>>;
  /** `GET /from/site/selectExpoUserSiteId`: the registration's bookings. */
  selectExpoUserSiteId(p: { expoId: number; euCode: string }): Promise<UpstreamResult<SiteBooking[]>>;
  /** `POST /from/site/deleteExpoUserSite`: cancels one of the registration's bookings. */
  deleteExpoUserSite(p: { expoId: number; euCode: string; id: number }): Promise<UpstreamResult<null>>;
}
