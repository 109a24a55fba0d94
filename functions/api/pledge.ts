/**
 * `POST /api/pledge` (spec §2.5, §9): the epidemic-prevention pledge's confirm. The
 * pledge form carries a signed timestamp of when the page served it (src/lib/seat/pledge.ts); the
 * confirm is accepted only 5 s or more after that, otherwise the visitor is told to wait. An
 * accepted pledge sets a session cookie (the visit) naming the expos pledged; the page it
 * guarded then shows its lookup or form.
 */
import { Hono, type Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import type { AppEnv } from '../env';
import { badRequest } from './bad-request';
import { readInput } from './input';
import { encodeFlash, FLASH_COOKIE, FLASH_MAX_AGE_S, FLASH_MAX_PATH, type FlashInput } from '../../src/lib/page/flash';
import { checkPledgeTicket, PLEDGE_COOKIE, readPledged, signPledged } from '../../src/lib/seat/pledge';
import { safeBackPath } from '../../src/lib/util/safe-redirect';
import type { PledgeReply } from '../../src/islands/seat-types';

type Ctx = Context<{ Bindings: AppEnv }>;

const Fields = z.object({
  expoId: z.string().trim().regex(/^\d{1,12}$/).transform(Number),
  ticket: z.string().max(200).default(''),
  back: z.string().default(''),
});

export const pledge = new Hono<{ Bindings: AppEnv }>();

function flashBack(c: Ctx, back: string, notice: NonNullable<FlashInput['notice']>): Response {
  setCookie(c, FLASH_COOKIE, encodeFlash({ path: back, values: {}, notice }), {
    path: '/',
    maxAge: FLASH_MAX_AGE_S,
    httpOnly: true,
    sameSite: 'Lax',
    secure: new URL(c.req.url).protocol === 'https:',
  });
  return c.redirect(back, 303);
}

pledge.post('/pledge', async (c) => {
  const input = await readInput(c);
  const f = Fields.safeParse(input.fields);
  if (!f.success) return badRequest(c, input, input.t('api.badPage'), input.t('app.back'), input.fields['back']);
  const posted = safeBackPath(f.data.back, new URL(c.req.url).origin);
  const back = posted !== null && posted.length <= FLASH_MAX_PATH ? posted : '/';
  const secret = c.env.SESSION_SECRET ?? '';
  const verdict = await checkPledgeTicket(f.data.ticket, f.data.expoId, Date.now(), secret);
  if (verdict.kind === 'early') {
    const msg = input.t('pledge.wait', { n: verdict.waitS });
    if (input.json) return c.json<PledgeReply>({ code: 600, msg, data: { waitS: verdict.waitS } }, 400);
    return flashBack(c, back, { tone: 'error', key: 'pledge.wait', vars: { n: verdict.waitS }, text: null });
  }
  if (verdict.kind === 'bad') {
    if (input.json) return c.json<PledgeReply>({ code: 400, msg: input.t('pledge.expired'), data: null }, 400);
    return flashBack(c, back, { tone: 'error', key: 'pledge.expired', text: null });
  }
  const pledged = await readPledged(getCookie(c, PLEDGE_COOKIE), secret);
  // A session cookie: the pledge lasts for the visit (spec §2.5).
  setCookie(c, PLEDGE_COOKIE, await signPledged([...pledged, f.data.expoId], secret), {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: new URL(c.req.url).protocol === 'https:',
  });
  if (input.json) return c.json<PledgeReply>({ code: 200, msg: null, data: null });
  return c.redirect(back, 303);
});
