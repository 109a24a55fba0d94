/**
 * The seat lookup (src/lib/actions/seats.ts): `POST /api/seat/companies`, `/api/seat/detail`,
 * `/api/seat/person` through the one adapter; `GET /api/seat/activities` (the activity types,
 * classification 10) and `GET /api/seat/image` (the seat map's url, when it is a path on this
 * site or an https address) answer JSON alone.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../env';
import { upstreamFor } from '../upstream';
import { checkSeatLimits } from '../limits';
import { action, type Ctx } from './action';
import { readInput } from './input';
import { faultJson, upstreamFault } from './fault';
import { seatImageUrl } from '../../src/lib/seat/seats';
import { refusalText } from '../../src/lib/actions/results';
import type { UpstreamResult } from '../../src/lib/contract';
import { SeatExpo, seatCompanies, seatDetail, seatPerson, type SeatPorts } from '../../src/lib/actions/seats';
import type { SeatData, SeatReply } from '../../src/lib/actions/replies';

function seatPorts(c: Ctx): SeatPorts {
  return { up: upstreamFor(c.env), secret: c.env.SESSION_SECRET ?? '', limit: (expoId) => checkSeatLimits(c, expoId) };
}

const ExpoQuery = z.object({ expoId: SeatExpo });

/** A GET of the seat page: the expo from the query, one upstream call, its data as the island reads it. */
function seatGet<T>(call: (c: Ctx, expoId: number) => Promise<UpstreamResult<T>>, dataOf: (d: T) => SeatData) {
  return async function seatQuery(c: Ctx): Promise<Response> {
    const q = ExpoQuery.safeParse(c.req.query());
    const { t } = await readInput(c);
    if (!q.success) return c.json<SeatReply>({ code: 400, msg: t('api.badPage'), data: null }, 400);
    try {
      const r = await call(c, q.data.expoId);
      if (!r.ok) return c.json<SeatReply>({ code: 600, msg: refusalText(r.msg, t('error.relatedData')), data: null });
      return c.json<SeatReply>({ code: 200, msg: null, data: dataOf(r.data) });
    } catch (e) {
      return faultJson(c, upstreamFault(e, t, new URL(c.req.url).pathname));
    }
  };
}

export const seats = new Hono<{ Bindings: AppEnv }>();
seats.post('/seat/companies', action(seatCompanies, { ports: seatPorts }));
seats.post('/seat/detail', action(seatDetail, { ports: seatPorts }));
seats.post('/seat/person', action(seatPerson, { ports: seatPorts }));
seats.get(
  '/seat/activities',
  seatGet((c, expoId) => upstreamFor(c.env).pageActivityType({ expoId }), (activities) => ({ activities })),
);
seats.get(
  '/seat/image',
  seatGet((c, expoId) => upstreamFor(c.env).getImage({ expoId, imageName: 'seat' }), (d) => ({ image: seatImageUrl(d.url) })),
);
