/**
 * The epidemic-prevention pledge (spec §2.5, §9): expos whose
 * `customerWx.healthPledge` is 1 show a pledge before the lookup and the forms, whose confirm
 * button counts down 5 seconds. Without JavaScript the pledge is a form whose confirm the
 * server accepts only 5 s or more after it served it: the form carries a signed timestamp
 * (the "ticket"), so neither a quick click nor a forged time gets through. A confirmation
 * lasts for the visit: a session cookie naming the expos pledged, signed too.
 * Pure: Web Crypto only, no Astro, React or Hono.
 */
import { fromBase64url, toBase64url } from '../util/base64url';
import { macMatches, openToken, signToken } from '../util/signer';

/** Spec §9: "pledge confirm countdown 5 s". */
export const PLEDGE_WAIT_MS = 5_000;
/** A ticket older than this is stale (the page was left open): the pledge is shown again. */
export const PLEDGE_TICKET_MAX_AGE_MS = 60 * 60_000;
/** The session cookie of the expos pledged during this visit. */
export const PLEDGE_COOKIE = 'pledge';
/** Most expos one cookie remembers. */
export const PLEDGE_MAX_EXPOS = 20;

/** Whether an expo's config asks for the pledge (`customerWx.healthPledge` 1; loose: '1' too). */
export function needsPledge(wx: { healthPledge?: unknown } | null | undefined): boolean {
  const v = wx?.healthPledge;
  return v === 1 || v === '1';
}

/** What the ticket's and the cookie's signatures are prefixed with: neither passes for the other. */
const TICKET_PURPOSE = { text: 'pledge-ticket:' } as const;
const COOKIE_PURPOSE = { text: 'pledged:' } as const;

/**
 * The ticket a pledge form carries: `{expoId}.{servedAtMs}.{sig}`.
 * @example await pledgeTicket(1197, 1_700_000_000_000, secret) // '1197.1700000000000.…'
 */
export async function pledgeTicket(expoId: number, servedAtMs: number, secret: string): Promise<string> {
  const body = `${expoId}.${Math.floor(servedAtMs)}`;
  return signToken(body, secret, TICKET_PURPOSE);
}

/** What a confirm gets: accepted, too early (wait `waitS` more seconds), or a broken/forged/stale ticket. */
export type PledgeVerdict = { kind: 'ok' } | { kind: 'early'; waitS: number } | { kind: 'bad' };

/**
 * Judges a confirm: the ticket must be ours, for this expo, served at least `waitMs` ago
 * (spec §9: 5 s) and at most {@link PLEDGE_TICKET_MAX_AGE_MS} ago.
 */
export async function checkPledgeTicket(
  ticket: string,
  expoId: number,
  nowMs: number,
  secret: string,
  waitMs = PLEDGE_WAIT_MS,
): Promise<PledgeVerdict> {
  const m = /^(\d{1,12})\.(\d{1,16})\.([A-Za-z0-9_-]{16,100})$/.exec(ticket.trim());
  if (!m || Number(m[1]) !== expoId) return { kind: 'bad' };
  const servedAt = Number(m[2]);
  // The text exactly as it came: only a ticket this edge wrote (canonical digits) verifies.
  if (!(await macMatches(secret, `${m[1]}.${m[2]}`, m[3] ?? '', TICKET_PURPOSE))) return { kind: 'bad' };
  const age = nowMs - servedAt;
  if (age < 0 || age > PLEDGE_TICKET_MAX_AGE_MS) return { kind: 'bad' };
  if (age < waitMs) return { kind: 'early', waitS: Math.max(1, Math.ceil((waitMs - age) / 1000)) };
  return { kind: 'ok' };
}

/** The cookie's value for a set of pledged expos: `{ids joined by -}.{sig}`. */
export async function signPledged(expoIds: readonly number[], secret: string): Promise<string> {
  const ids = [...new Set(expoIds)].filter((n) => Number.isSafeInteger(n) && n > 0).slice(-PLEDGE_MAX_EXPOS);
  return signToken(toBase64url(new TextEncoder().encode(ids.join('-'))), secret, COOKIE_PURPOSE);
}

/** The expos a cookie says were pledged; empty when missing or forged. */
export async function readPledged(value: string | null | undefined, secret: string): Promise<number[]> {
  const body = await openToken(value, secret, COOKIE_PURPOSE);
  const bytes = body === null ? null : fromBase64url(body);
  if (!bytes) return [];
  const text = new TextDecoder().decode(bytes);
  if (!/^(\d{1,12}(-\d{1,12})*)?$/.test(text)) return [];
  return text === '' ? [] : text.split('-').map(Number);
}
