/** `POST /api/register`: the registration of any form route (src/lib/actions/register.ts), JSON from FormEnhance or a plain form post. */
import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { upstreamFor } from '../upstream';
import { checkRegisterLimits } from '../limits';
import { action, type Ctx } from './action';
import { register as registerAction, type RegisterPorts } from '../../src/lib/actions/register';

function registerPorts(c: Ctx): RegisterPorts {
  return { upstream: upstreamFor(c.env), secret: c.env.SESSION_SECRET ?? '', countRegister: (vc) => checkRegisterLimits(c, vc) };
}

export const register = new Hono<{ Bindings: AppEnv }>();
register.post('/register', action(registerAction, { ports: registerPorts }));
// A registration is never a link: GET and HEAD answer 405 with `Allow: POST`.
register.get('/register', (c) => c.text('Registration: POST the form to this address.', 405, { allow: 'POST', 'cache-control': 'no-store' }));
