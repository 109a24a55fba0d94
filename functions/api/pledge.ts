/** `POST /api/pledge`: the pledge's confirm (src/lib/actions/pledge.ts). */
import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { action, type Ctx } from './action';
import { pledge as pledgeAction, type PledgePorts } from '../../src/lib/actions/pledge';

function pledgePorts(c: Ctx): PledgePorts {
  return { secret: c.env.SESSION_SECRET ?? '' };
}

export const pledge = new Hono<{ Bindings: AppEnv }>();
pledge.post('/pledge', action(pledgeAction, { ports: pledgePorts }));
