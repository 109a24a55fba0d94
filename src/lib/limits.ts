/**
 * Abuse limits at the edge (issue 9, README "Security" > "Abuse limits"), as pure rules: the
 * limit table, reading the operator's variables, the keys a request is counted under, and
 * the message a refused visitor sees. The counting itself is the Durable Object in
 * functions/limits. Pure: no Astro, React or Hono.
 *
 * Why at the edge: the organiser's API sees every request coming from Cloudflare, never the
 * visitor's address, so per-visitor limits can only live here.
 */
import { fullPhone, normalizeAreaCode, normalizeNational } from './phone';

/** One limit: the variable that sets it, its default, and the sliding window it counts over. */
export interface LimitSpec {
  readonly name: string;
  readonly fallback: number;
  readonly windowS: number;
}

/**
 * Every limit, with its variable and default. A value of `0` switches that limit off.
 * README "Security" > "Abuse limits" documents each one; keep the two in step.
 */
export const LIMIT_SPECS = {
  /** code sends per client address and minute */
  sendsPerIpMinute: { name: 'LIMIT_SENDS_PER_IP_MIN', fallback: 5, windowS: 60 },
  /** code sends per client address and hour */
  sendsPerIpHour: { name: 'LIMIT_SENDS_PER_IP_HOUR', fallback: 20, windowS: 3600 },
  /** code sends to one contact (normalised e-mail or full phone) and hour, across every expo */
  sendsPerContactHour: { name: 'LIMIT_SENDS_PER_CONTACT_HOUR', fallback: 10, windowS: 3600 },
  /** SMS sends per expo and area code (+86, +66 …) and hour: SMS pumping to one country */
  sendsPerAreaHour: { name: 'LIMIT_SENDS_PER_AREA_HOUR', fallback: 100, windowS: 3600 },
  /** code sends per expo and hour, all visitors together */
  sendsPerExpoHour: { name: 'LIMIT_SENDS_PER_EXPO_HOUR', fallback: 1000, windowS: 3600 },
  /** lookups (`POST /api/lookup`) per client address and minute */
  lookupsPerIpMinute: { name: 'LIMIT_LOOKUPS_PER_IP_MIN', fallback: 30, windowS: 60 },
  /** codes not accepted (wrong, expired, used) per client address and hour, across contacts */
  wrongCodesPerIpHour: { name: 'LIMIT_WRONG_CODES_PER_IP_HOUR', fallback: 20, windowS: 3600 },
  /** seat lookups and company lists (issue 12) per client address and expo, per minute */
  seatLookupsPerIpMinute: { name: 'LIMIT_SEAT_LOOKUPS_PER_IP_MIN', fallback: 30, windowS: 60 },
  /** seat lookups and company lists per expo and minute, all visitors together */
  seatLookupsPerExpoMinute: { name: 'LIMIT_SEAT_LOOKUPS_PER_EXPO_MIN', fallback: 1200, windowS: 60 },
  /** credential pages whose code the upstream does not know (issue 19 item 3), per client address and hour */
  credentialMissesPerIpHour: { name: 'LIMIT_CREDENTIAL_MISSES_PER_IP_HOUR', fallback: 30, windowS: 3600 },
} as const satisfies Record<string, LimitSpec>;

export type LimitName = keyof typeof LIMIT_SPECS;

/** The limits in force: a count per window for each limit, 0 = off. */
export type Limits = Readonly<Record<LimitName, number>>;

/** The variables as the Worker's env carries them (strings, or absent). */
export type LimitVars = Readonly<Partial<Record<(typeof LIMIT_SPECS)[LimitName]['name'], string | undefined>>>;

/** A count above this is a typo, not a limit (and keeps the Durable Object's queries sane). */
export const LIMIT_MAX = 1_000_000;

/** The defaults of {@link LIMIT_SPECS}. */
export const DEFAULT_LIMITS: Limits = Object.fromEntries(
  Object.entries(LIMIT_SPECS).map(([k, spec]) => [k, spec.fallback]),
) as Record<LimitName, number>;

/**
 * Reads the limits from the Worker's variables. Unset or empty: the default. A value that is
 * not a whole number from 0 to {@link LIMIT_MAX}: the default, and `warn` says which variable
 * was ignored and what to write instead.
 * @example parseLimits({ LIMIT_SENDS_PER_IP_MIN: '10' }).sendsPerIpMinute // 10
 * @example parseLimits({ LIMIT_SENDS_PER_IP_MIN: 'ten' }, console.warn).sendsPerIpMinute // 5, and a warning
 */
export function parseLimits(vars: LimitVars, warn: (message: string) => void = () => {}): Limits {
  const out = { ...DEFAULT_LIMITS } as Record<LimitName, number>;
  for (const [limit, spec] of Object.entries(LIMIT_SPECS) as [LimitName, LimitSpec][]) {
    // A number in wrangler.toml [vars] arrives as a number, not a string.
    const raw: unknown = (vars as Record<string, unknown>)[spec.name];
    const text = raw === undefined || raw === null ? '' : String(raw).trim();
    if (text === '') continue;
    const n = Number(text);
    if (/^\d+$/.test(text) && Number.isSafeInteger(n) && n <= LIMIT_MAX) {
      out[limit] = n;
    } else {
      warn(
        `${spec.name}="${String(raw)}" is not a whole number from 0 to ${LIMIT_MAX}; using the default ${spec.fallback}. ` +
          `Set it to a count per ${spec.windowS === 60 ? 'minute' : 'hour'} (0 switches this limit off).`,
      );
    }
  }
  return out;
}

/** The bucket every request without a client address shares (README "Abuse limits"). */
export const UNKNOWN_CLIENT = 'unknown';

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** The eight 16-bit groups of an IPv6 address, or null when it is not one. */
function ipv6Groups(text: string): number[] | null {
  let s = text.toLowerCase();
  let tail: number[] = [];
  // An IPv4 address in the last 32 bits (`::ffff:192.0.2.1`) stands for the last two groups.
  const lastColon = s.lastIndexOf(':');
  const last = s.slice(lastColon + 1);
  if (last.includes('.')) {
    if (!IPV4.test(last)) return null;
    const [a = 0, b = 0, c = 0, d = 0] = last.split('.').map(Number);
    tail = [(a << 8) | b, (c << 8) | d];
    s = s.slice(0, lastColon + 1);
    if (!s.endsWith('::')) s = s.slice(0, -1);
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string): number[] | null => {
    if (part === '') return [];
    const groups = part.split(':');
    if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
    return groups.map((g) => parseInt(g, 16));
  };
  const head = parse(halves[0] ?? '');
  const rest = halves.length === 2 ? parse(halves[1] ?? '') : [];
  if (!head || !rest) return null;
  const want = 8 - tail.length;
  if (halves.length === 2) {
    if (head.length + rest.length >= want) return null;
    return [...head, ...new Array<number>(want - head.length - rest.length).fill(0), ...rest, ...tail];
  }
  return head.length === want ? [...head, ...tail] : null;
}

/**
 * The client a request is counted as, from its `CF-Connecting-IP` header: an IPv4 address as
 * is; an IPv6 address by its /64 network (one subscriber usually holds a whole /64 and can
 * pick any address in it); an IPv4-mapped IPv6 address as its IPv4. Missing or unreadable:
 * {@link UNKNOWN_CLIENT}, one bucket shared by all such requests (on Cloudflare the header is
 * always set; it is missing only for in-process calls, e.g. tests).
 * @example clientKey('203.0.113.7') // '203.0.113.7'
 * @example clientKey('2001:db8:1:2:3:4:5:6') // '2001:db8:1:2::/64'
 * @example clientKey(null) // 'unknown'
 */
export function clientKey(header: string | null | undefined): string {
  const text = (header ?? '').trim();
  if (IPV4.test(text)) return text;
  if (!text.includes(':')) return UNKNOWN_CLIENT;
  const groups = ipv6Groups(text);
  if (!groups) return UNKNOWN_CLIENT;
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) {
    const [a = 0, b = 0] = groups.slice(6);
    return `${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** Providers whose mailboxes ignore dots in the local part (so `a.b@` and `ab@` are one mailbox). */
const DOTLESS_DOMAINS: Readonly<Record<string, string>> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * One contact as the per-contact limit counts it: the e-mail lower-cased (dots dropped for
 * Gmail, whose mailboxes ignore them), or the full phone (`+66812345678`).
 * @example contactKey({ type: 'email', email: ' A.B@GMail.com ' }) // 'ab@gmail.com'
 * @example contactKey({ type: 'phone', areaCode: '66', national: '81 234 5678' }) // '+66812345678'
 */
export function contactKey(
  contact: { type: 'email'; email: string } | { type: 'phone'; areaCode: string; national: string },
): string {
  if (contact.type === 'phone') return fullPhone(contact.areaCode, normalizeNational(contact.national));
  const email = contact.email.trim().toLowerCase();
  const at = email.lastIndexOf('@');
  const domain = DOTLESS_DOMAINS[email.slice(at + 1)];
  return at > 0 && domain ? `${email.slice(0, at).replace(/\./g, '')}@${domain}` : email;
}

/** One count a request is checked against: at most `limit` hits of `key` in the last `windowMs`. */
export interface LimitRule {
  key: string;
  limit: number;
  windowMs: number;
}

function rule(limits: Limits, name: LimitName, key: string): LimitRule[] {
  const limit = limits[name];
  return limit > 0 ? [{ key, limit, windowMs: LIMIT_SPECS[name].windowS * 1000 }] : [];
}

/** What a code send is counted under. */
export interface SendSubject {
  client: string;
  expoId: number;
  contact: { type: 'email'; email: string } | { type: 'phone'; areaCode: string; national: string };
}

/**
 * The rules a code send must pass, all at once (a refused send counts against none of them).
 * The per-minute and per-hour counts of one client share a key: they read the same hits.
 */
export function sendRules(limits: Limits, s: SendSubject): LimitRule[] {
  const ip = `send:ip:${s.client}`;
  return [
    ...rule(limits, 'sendsPerIpMinute', ip),
    ...rule(limits, 'sendsPerIpHour', ip),
    ...rule(limits, 'sendsPerContactHour', `send:contact:${contactKey(s.contact)}`),
    ...(s.contact.type === 'phone'
      ? rule(limits, 'sendsPerAreaHour', `send:area:${s.expoId}:${normalizeAreaCode(s.contact.areaCode)}`)
      : []),
    ...rule(limits, 'sendsPerExpoHour', `send:expo:${s.expoId}`),
  ];
}

/** The key of the wrong-code count of a client (its hit is given back when the code is accepted). */
export function wrongCodeKey(client: string): string {
  return `wrong:ip:${client}`;
}

/**
 * The rules a lookup must pass before the upstream sees it. With a code to check, the lookup
 * also takes one wrong-code slot up front (given back when the code is accepted), so that
 * concurrent guesses cannot all pass before the first is counted.
 */
export function lookupRules(limits: Limits, s: { client: string; checksCode: boolean }): LimitRule[] {
  return [
    ...rule(limits, 'lookupsPerIpMinute', `lookup:ip:${s.client}`),
    ...(s.checksCode ? rule(limits, 'wrongCodesPerIpHour', wrongCodeKey(s.client)) : []),
  ];
}

/**
 * The rules a seat lookup or company list must pass (issue 12): per client address and expo,
 * and per expo. Every seat call the visitor's request makes counts once, whichever endpoint.
 */
export function seatRules(limits: Limits, s: { client: string; expoId: number }): LimitRule[] {
  return [
    ...rule(limits, 'seatLookupsPerIpMinute', `seat:ip:${s.expoId}:${s.client}`),
    ...rule(limits, 'seatLookupsPerExpoMinute', `seat:expo:${s.expoId}`),
  ];
}

/** The key of the credential-miss count of a client (its hit is given back when the code is known). */
export function credentialMissKey(client: string): string {
  return `credential-miss:ip:${client}`;
}

/**
 * The rule a credential page view must pass before the upstream is asked for its code (issue 19
 * item 3): the view takes one miss slot up front, given back when the upstream knows the code,
 * so concurrent guesses of codes from one address cannot all reach the upstream before the first
 * miss is counted. A code the edge remembers as unknown (functions/credential-lookup.ts) is
 * answered without the upstream and is not counted.
 */
export function credentialMissRules(limits: Limits, s: { client: string }): LimitRule[] {
  return rule(limits, 'credentialMissesPerIpHour', credentialMissKey(s.client));
}

/** The catalogue keys of a refusal (src/i18n/*.json). */
export type LimitMessageKey =
  'limit.sendSeconds' | 'limit.sendMinutes' | 'limit.lookupSeconds' | 'limit.lookupMinutes' | 'limit.busy';

/**
 * The message of a refusal: what was refused and how long to wait, in seconds below a
 * minute and whole minutes from there (rounded up, so the visitor never retries too early);
 * `limit.busy` when the wait is not known (the counter could not be reached).
 * @example limitMessage('send', 42_100) // { key: 'limit.sendSeconds', vars: { n: 43 } }
 * @example limitMessage('lookup', 600_000) // { key: 'limit.lookupMinutes', vars: { n: 10 } }
 */
export function limitMessage(
  kind: 'send' | 'lookup',
  retryAfterMs: number | null,
): { key: LimitMessageKey; vars: { n: number } } {
  if (retryAfterMs === null || !Number.isFinite(retryAfterMs)) return { key: 'limit.busy', vars: { n: 0 } };
  const s = Math.max(1, Math.ceil(retryAfterMs / 1000));
  if (s < 60) return { key: kind === 'send' ? 'limit.sendSeconds' : 'limit.lookupSeconds', vars: { n: s } };
  return { key: kind === 'send' ? 'limit.sendMinutes' : 'limit.lookupMinutes', vars: { n: Math.ceil(s / 60) } };
}
