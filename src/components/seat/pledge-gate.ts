/**
 * Whether a page of an expo must show the epidemic-prevention pledge first (spec §2.5,
 * issue 12): its config asks for it (`customerWx.healthPledge` 1) and this visit has not
 * pledged for the expo (the signed session cookie, src/lib/pledge.ts).
 */
import type { AstroCookies } from 'astro';
import { needsPledge, PLEDGE_COOKIE, readPledged } from '../../lib/pledge';

export async function pledgePending(cookies: AstroCookies, secret: string, wx: { healthPledge?: unknown } | null | undefined, expoId: number): Promise<boolean> {
  if (!needsPledge(wx)) return false;
  try {
    return !(await readPledged(cookies.get(PLEDGE_COOKIE)?.value, secret)).includes(expoId);
  } catch {
    return true; // no usable SESSION_SECRET: the pledge shows (and the API says what is wrong)
  }
}
