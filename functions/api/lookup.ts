/**
 * `POST /api/send-code` and `POST /api/lookup` (src/lib/actions/lookup.ts): JSON from the
 * lookup island or a plain form post. The ports are the upstream client, the abuse limits
 * (functions/limits) and the secrets.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { upstreamFor } from '../upstream';
import { challengeOf, checkLookupLimits, checkSendLimits, giveBack } from '../limits';
import { action, type Ctx } from './action';
import { lookup as lookupAction, sendCode, type LookupPorts } from '../../src/lib/actions/lookup';
import { bypassEnabled } from '../../src/lib/lookup/page';

function lookupPorts(c: Ctx): LookupPorts {
  return {
    upstream: upstreamFor(c.env),
    secret: c.env.SESSION_SECRET ?? '',
    bypassCode: c.env.BYPASS_CODE ?? '',
    bypass: bypassEnabled(c.env.EXHIBITOR_BYPASS),
    countSend: (s) => checkSendLimits(c, s),
    countLookup: (s) => checkLookupLimits(c, s),
    giveBack: (hits) => giveBack(c, hits),
    turnstile: challengeOf(c.env).siteKey !== null,
  };
}

export const lookup = new Hono<{ Bindings: AppEnv }>();
lookup.post('/send-code', action(sendCode, { ports: lookupPorts }));
lookup.post('/lookup', action(lookupAction, { ports: lookupPorts }));
