/** `POST /api/bus`: the shuttle bus reservation (src/lib/actions/bus.ts). */
import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { upstreamFor } from '../upstream';
import { BusCode } from '../../src/lib/contract';
import { action, type Ctx } from './action';
import { bus as busAction, type BusPorts } from '../../src/lib/actions/bus';

function busPorts(c: Ctx): BusPorts {
  return { up: upstreamFor(c.env), secret: c.env.SESSION_SECRET ?? '', codes: { full: BusCode.FULL, alreadyReserved: BusCode.ALREADY_RESERVED } };
}

export const bus = new Hono<{ Bindings: AppEnv }>();
bus.post('/bus', action(busAction, { ports: busPorts }));
