/**
 * The epidemic-prevention pledge's confirm (spec §2.5, §9). The pledge form carries a signed
 * timestamp of when the page served it (src/lib/seat/pledge.ts); the confirm is accepted only
 * 5 s or more after that, otherwise the visitor is told to wait. An accepted pledge sets a
 * session cookie (the visit) naming the expos pledged; the page it guarded then shows its
 * lookup or form.
 */
import { z } from 'zod';
import { checkPledgeTicket, PLEDGE_COOKIE, readPledged, signPledged } from '../seat/pledge';
import { safeBackPath } from '../util/safe-redirect';
import { FLASH_MAX_PATH } from '../page/flash';
import { defineAction, type ActionOutcome } from './outcome';

export interface PledgePorts {
  /** SESSION_SECRET: signs the pledge ticket and the pledged cookie */
  secret: string;
}

const Input = z.object({
  expoId: z.string().trim().regex(/^\d{1,12}$/).transform(Number),
  ticket: z.string().max(200).default(''),
  back: z.string().default(''),
});

/** The guarded page the pledge came from (same origin), else home. */
function backOf(posted: string | undefined, origin: string): string {
  const path = safeBackPath(posted, origin);
  return path !== null && path.length <= FLASH_MAX_PATH ? path : '/';
}

export const pledge = defineAction({
  path: '/api/pledge',
  bodyLimit: 16 * 1024,
  input: Input,
  back: (fields, ctx) => backOf(fields['back'], ctx.origin),
  async run(input, ports: PledgePorts, ctx): Promise<ActionOutcome<{ waitS: number }>> {
    const back = backOf(input.back, ctx.origin);
    const verdict = await checkPledgeTicket(input.ticket, input.expoId, ctx.now, ports.secret);
    if (verdict.kind === 'early') {
      const vars = { n: verdict.waitS };
      return {
        kind: 'notice',
        notice: { tone: 'error', key: 'pledge.wait', vars, text: null },
        status: 400,
        code: 600,
        data: { waitS: verdict.waitS },
      };
    }
    if (verdict.kind === 'bad') return { kind: 'notice', notice: { tone: 'error', key: 'pledge.expired', text: null }, status: 400 };
    const pledged = await readPledged(ctx.cookies[PLEDGE_COOKIE], ports.secret);
    return {
      kind: 'navigate',
      location: back,
      // A session cookie: the pledge lasts for the visit (spec §2.5).
      cookies: [{ name: PLEDGE_COOKIE, value: await signPledged([...pledged, input.expoId], ports.secret) }],
      data: null,
    };
  },
});
