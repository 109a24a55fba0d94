/**
 * What the seat, pledge and health endpoints answer (functions/api/seats.ts, pledge.ts,
 * health.ts); shared by the islands and the API. Types only: nothing here ships code.
 */
import type { ActivityType, PersonSeat } from '../lib/seat/seats';
import type { HealthUpload } from '../lib/seat/health';

/** Every seat endpoint: `{ code, msg, data }` like the upstream; `msg` is shown when set. */
export interface SeatReply {
  code: number;
  msg: string | null;
  data: {
    companies?: string[];
    location?: string;
    people?: PersonSeat[];
    activities?: ActivityType[];
    image?: string | null;
    /** the field a message belongs to */
    field?: 'userName' | 'companyName' | null;
  } | null;
}

/** `/api/pledge`. */
export interface PledgeReply {
  code: number;
  msg: string | null;
  data: { waitS?: number } | null;
}

/** `/api/health`. */
export interface HealthReply {
  code: number;
  msg: string | null;
  data: { uploads?: HealthUpload[]; id?: number } | null;
}
