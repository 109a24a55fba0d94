/** `POST /api/site`: the site booking (src/lib/actions/site.ts). */
import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { upstreamFor } from '../upstream';
import { SiteCode } from '../../src/lib/contract';
import { action, type Ctx } from './action';
import { site as siteAction, type SitePorts } from '../../src/lib/actions/site';

function sitePorts(c: Ctx): SitePorts {
  return { up: upstreamFor(c.env), secret: c.env.SESSION_SECRET ?? '', codes: { full: SiteCode.FULL, alreadyBooked: SiteCode.ALREADY_BOOKED } };
}

export const site = new Hono<{ Bindings: AppEnv }>();
site.post('/site', action(siteAction, { ports: sitePorts }));
