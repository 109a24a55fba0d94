/**
 * What the purchase, seat, pledge and health actions answer an island: `{ code, msg, data }`
 * like the upstream (spec §7). Shared by the actions, the islands and the API's tests; types
 * only, nothing here ships code.
 */
import type { Envelope } from './outcome';
import type { ActivityType, PersonSeat } from '../seat/seats';
import type { HealthUpload } from '../seat/health';

/** What the buyer form's and the order page's island receive. */
export type OrderOutcome =
  | { outcome: 'navigate'; location: string }
  | { outcome: 'jsapi'; jsapi: Record<string, string>; returnUrl: string }
  | { outcome: 'invalid'; field: string; message: string }
  | { outcome: 'refused'; message: string }
  | { outcome: 'discount'; price: number; formatted: string };
/** `/api/order`, `/api/order/action`, `/api/discount`. */
export type OrderReply = Envelope<OrderOutcome>;

/** What the seat calls' data may hold. */
export interface SeatData {
  companies?: string[];
  location?: string;
  people?: PersonSeat[];
  activities?: ActivityType[];
  image?: string | null;
  /** the field a message belongs to */
  field?: 'userName' | 'companyName' | null;
}
/** Every seat call: `msg` is shown when set. */
export type SeatReply = Envelope<SeatData>;

/** `/api/pledge`. */
export type PledgeReply = Envelope<{ waitS?: number }>;

/** What the health calls' data may hold. */
export interface HealthData {
  uploads?: HealthUpload[];
  id?: number;
}
/** `/api/health`, its list and its delete. */
export type HealthReply = Envelope<HealthData>;
