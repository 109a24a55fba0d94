/**
 * Abuse limits at the edge (README "Security" > "Abuse limits"), as pure rules: the
 * limit table, reading the operator's variables, the keys a request is counted under, and
 * the message a refused visitor sees. The counting itself is the Durable Object in
 * functions/limits. Pure: no Astro, React or Hono.
 *
 * Why at the edge: the organiser's API sees every request coming from Cloudflare, never the
 * visitor's address, so per-visitor limits can only live here.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { fullPhone, normalizeNational } from '../form/phone';
import { COUNTRIES } from '../form/country-list';

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
  /** code sends per client address (an IPv4 address or an IPv6 /64) and minute */
  sendsPerIpMinute: { name: 'LIMIT_SENDS_PER_IP_MIN', fallback: 5, windowS: 60 },
  /** code sends per client address (an IPv4 address or an IPv6 /64) and hour */
  sendsPerIpHour: { name: 'LIMIT_SENDS_PER_IP_HOUR', fallback: 20, windowS: 3600 },
  /** code sends per IPv6 /56 and hour (item 7: one subscriber often holds a /56) */
  sendsPerIp56Hour: { name: 'LIMIT_SENDS_PER_IP56_HOUR', fallback: 40, windowS: 3600 },
  /** code sends per IPv6 /48 and hour (item 7: one /48 holds 65,536 /64s) */
  sendsPerIp48Hour: { name: 'LIMIT_SENDS_PER_IP48_HOUR', fallback: 100, windowS: 3600 },
  /**
   * code sends to one contact (normalised e-mail or phone) and hour, across every expo, from
   * browsers that were not sent its last code: past it, a challenge.
   * Keep it times (1 + LIMIT_SENDS_PER_BROWSER_HOUR) below the organiser's own per-contact limit.
   */
  sendsPerContactHour: { name: 'LIMIT_SENDS_PER_CONTACT_HOUR', fallback: 2, windowS: 3600 },
  /** resends per hour of the browser a contact's code was sent to (its binding cookie) */
  sendsPerBrowserHour: { name: 'LIMIT_SENDS_PER_BROWSER_HOUR', fallback: 1, windowS: 3600 },
  /** SMS sends per expo and destination country and hour: past it, a challenge (SMS pumping) */
  sendsPerAreaHour: { name: 'LIMIT_SENDS_PER_AREA_HOUR', fallback: 100, windowS: 3600 },
  /** SMS sends per destination country and hour across every expo: past it, a challenge */
  sendsPerCountryHour: { name: 'LIMIT_SENDS_PER_COUNTRY_HOUR', fallback: 300, windowS: 3600 },
  /** code sends per expo and hour, all visitors together: past it, a challenge */
  sendsPerExpoHour: { name: 'LIMIT_SENDS_PER_EXPO_HOUR', fallback: 1000, windowS: 3600 },
  /** lookups (`POST /api/lookup`) per client address and minute */
  lookupsPerIpMinute: { name: 'LIMIT_LOOKUPS_PER_IP_MIN', fallback: 30, windowS: 60 },
  /** lookups per IPv6 /56 and minute */
  lookupsPerIp56Minute: { name: 'LIMIT_LOOKUPS_PER_IP56_MIN', fallback: 60, windowS: 60 },
  /** lookups per IPv6 /48 and minute */
  lookupsPerIp48Minute: { name: 'LIMIT_LOOKUPS_PER_IP48_MIN', fallback: 120, windowS: 60 },
  /** codes not accepted (wrong, expired, used) per client address and hour, across contacts */
  wrongCodesPerIpHour: { name: 'LIMIT_WRONG_CODES_PER_IP_HOUR', fallback: 20, windowS: 3600 },
  /** seat lookups and company lists per client address and expo, per minute */
  seatLookupsPerIpMinute: { name: 'LIMIT_SEAT_LOOKUPS_PER_IP_MIN', fallback: 30, windowS: 60 },
  /** seat lookups and company lists per expo and minute, all visitors together */
  seatLookupsPerExpoMinute: { name: 'LIMIT_SEAT_LOOKUPS_PER_EXPO_MIN', fallback: 1200, windowS: 60 },
  /** registrations (`POST /api/register` posts that reach the upstream) per verified contact and hour, across every expo */
  registersPerContactHour: { name: 'LIMIT_REGISTERS_PER_CONTACT_HOUR', fallback: 20, windowS: 3600 },
  /** registrations per client address and hour */
  registersPerIpHour: { name: 'LIMIT_REGISTERS_PER_IP_HOUR', fallback: 60, windowS: 3600 },
  /** orders (`POST /api/order`) per verified contact and hour */
  ordersPerContactHour: { name: 'LIMIT_ORDERS_PER_CONTACT_HOUR', fallback: 10, windowS: 3600 },
  /** orders per client address and hour */
  ordersPerIpHour: { name: 'LIMIT_ORDERS_PER_IP_HOUR', fallback: 30, windowS: 3600 },
  /** discount codes tried (`POST /api/discount`, or an order with a code) per verified contact and hour */
  discountTriesPerContactHour: { name: 'LIMIT_DISCOUNT_TRIES_PER_CONTACT_HOUR', fallback: 10, windowS: 3600 },
  /** discount codes tried per client address and hour */
  discountTriesPerIpHour: { name: 'LIMIT_DISCOUNT_TRIES_PER_IP_HOUR', fallback: 30, windowS: 3600 },
  /** credential pages whose code the upstream does not know, per client address and hour */
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

/** An address read from `CF-Connecting-IP`: IPv4 as 4 bytes, IPv6 as 8 groups (an IPv4-mapped one as its IPv4). */
export type Address = { v: 4; bytes: number[] } | { v: 6; groups: number[] };

/** The address of a `CF-Connecting-IP` header, or null when it is missing or unreadable. */
export function parseAddress(header: string | null | undefined): Address | null {
  const text = (header ?? '').trim();
  if (IPV4.test(text)) return { v: 4, bytes: text.split('.').map(Number) };
  if (!text.includes(':')) return null;
  const groups = ipv6Groups(text);
  if (!groups) return null;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [a = 0, b = 0] = groups.slice(6);
    return { v: 4, bytes: [a >> 8, a & 255, b >> 8, b & 255] };
  }
  return { v: 6, groups };
}

/** An IPv6 network of `bits` (a multiple of 8) as the limiter names it: `2001:db8:100::/56`. */
function v6Network(groups: number[], bits: 48 | 56 | 64): string {
  const kept = groups.map((g, i) => {
    const start = i * 16;
    if (start >= bits) return 0;
    return start + 16 <= bits ? g : g & (0xffff << (start + 16 - bits)) & 0xffff;
  });
  const head = kept.slice(0, Math.ceil(bits / 16)).map((g) => g.toString(16));
  return `${head.join(':')}::/${bits}`;
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
  const a = parseAddress(header);
  if (!a) return UNKNOWN_CLIENT;
  return a.v === 4 ? a.bytes.join('.') : v6Network(a.groups, 64);
}

/**
 * A client as every per-address limit counts it: its address (IPv4, or the
 * IPv6 /64), and for IPv6 also its /56 and /48, each with a limit of its own, so that one /48
 * (65,536 /64s) is not 65,536 budgets. `trusted`: the address is in a network the operator
 * named (TRUSTED_NETWORKS, the venue's Wi-Fi): its per-address limits are raised.
 */
export interface Client {
  key: string;
  net56: string | null;
  net48: string | null;
  trusted: boolean;
}

/** @example clientOfHeader('2001:db8:1:2::9').net48 // '2001:db8:1::/48' */
export function clientOfHeader(header: string | null | undefined, trusted: readonly Network[] = []): Client {
  const a = parseAddress(header);
  if (!a) return { key: UNKNOWN_CLIENT, net56: null, net48: null, trusted: false };
  const v6 = a.v === 6;
  return {
    key: v6 ? v6Network(a.groups, 64) : a.bytes.join('.'),
    net56: v6 ? v6Network(a.groups, 56) : null,
    net48: v6 ? v6Network(a.groups, 48) : null,
    trusted: inNetworks(a, trusted),
  };
}

/** A network the operator trusts: its address bits and prefix length. */
export interface Network {
  v: 4 | 6;
  /** the address as 16-bit groups (IPv4: two groups) */
  groups: number[];
  prefix: number;
}

/**
 * Reads TRUSTED_NETWORKS: CIDRs (v4 or v6) separated by commas or blanks. An entry that is
 * not a CIDR is left out and `warn` names it.
 * @example parseNetworks('198.51.100.0/24, 2001:db8:aa::/48').length // 2
 */
export function parseNetworks(text: string | null | undefined, warn: (message: string) => void = () => {}): Network[] {
  const out: Network[] = [];
  for (const entry of (text ?? '').split(/[\s,]+/).filter((e) => e !== '')) {
    const [addr = '', bits = '', extra] = entry.split('/');
    const a = parseAddress(addr);
    const max = a?.v === 4 ? 32 : 128;
    const prefix = /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
    if (!a || extra !== undefined || !(prefix >= 0 && prefix <= max) || (a.v === 4) !== IPV4.test(addr)) {
      warn(`TRUSTED_NETWORKS: "${entry}" is not a network like 198.51.100.0/24 or 2001:db8::/48; left out.`);
      continue;
    }
    out.push({ v: a.v, groups: groupsOf(a), prefix });
  }
  return out;
}

function groupsOf(a: Address): number[] {
  if (a.v === 6) return a.groups;
  const [b0 = 0, b1 = 0, b2 = 0, b3 = 0] = a.bytes;
  return [(b0 << 8) | b1, (b2 << 8) | b3];
}

/** True when the address lies in one of the networks. */
export function inNetworks(a: Address, networks: readonly Network[]): boolean {
  const groups = groupsOf(a);
  return networks.some((n) => {
    if (n.v !== a.v) return false;
    for (let bit = 0; bit < n.prefix; bit += 16) {
      const take = Math.min(16, n.prefix - bit);
      const mask = (0xffff << (16 - take)) & 0xffff;
      const i = bit / 16;
      if (((groups[i] ?? 0) & mask) !== ((n.groups[i] ?? 0) & mask)) return false;
    }
    return true;
  });
}

/** How much the per-address limits of a trusted network are raised (README "Abuse limits"). */
export const TRUSTED_FACTOR = 20;

/** Providers whose mailboxes ignore dots in the local part (so `a.b@` and `ab@` are one mailbox). */
const DOTLESS_DOMAINS: Readonly<Record<string, string>> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/** The calling codes the form offers (src/lib/form/country-list.ts), longest first, without `+`. */
const LISTED_CODES: readonly string[] = [...new Set(COUNTRIES.map((c) => c.code.slice(1)))].sort(
  (x, y) => y.length - x.length,
);

/** A phone as the limits read it: the E.164 number and the picker entry it belongs to. */
export interface PhoneDestination {
  /** `+` country code and national number, trunk `0` dropped (libphonenumber-js) */
  e164: string;
  /** the calling code of the form's entry the number falls in (`+44`, `+1242`): the area bucket */
  country: string;
}

/**
 * Where a phone number goes: the full number, whatever was typed as the
 * area code (`+4` and `47…`, `+44` and `7…`, `+447` and `…` are one number), read by
 * libphonenumber-js; null when it has no calling code the form offers (`+999`). The bucket
 * is the form's entry (one per calling code), the longest listed code that starts
 * the number, so the territories of one code (+44: United Kingdom, Guernsey, Jersey, Isle of
 * Man) are one bucket, while the NANP members the form lists alone (+1242) are their own.
 * @example phoneDestination('+4', '47911123456') // { e164: '+447911123456', country: '+44' }
 * @example phoneDestination('+999', '12345678') // null
 */
export function phoneDestination(areaCode: string, national: string): PhoneDestination | null {
  const typed = fullPhone(areaCode, normalizeNational(national));
  if (!/^\+\d{5,19}$/.test(typed)) return null;
  const parsed = parsePhoneNumberFromString(typed);
  if (!parsed) return null;
  const cc = parsed.countryCallingCode;
  const digits = `${cc}${parsed.nationalNumber}`;
  const entry = LISTED_CODES.find((code) => code.startsWith(cc) && digits.startsWith(code));
  return entry ? { e164: `+${digits}`, country: `+${entry}` } : null;
}

/**
 * One contact as the per-contact limits count it: the e-mail lower-cased without a `+tag`
 * (`a+x@…` is `a@…`) and, for Gmail, without dots; or the phone as E.164
 * with the trunk `0` dropped (`+44 07…` is `+44 7…`).
 * @example contactKey({ type: 'email', email: ' A.B+news@GMail.com ' }) // 'ab@gmail.com'
 * @example contactKey({ type: 'phone', areaCode: '+44', national: '07911 123456' }) // '+447911123456'
 */
export function contactKey(
  contact: { type: 'email'; email: string } | { type: 'phone'; areaCode: string; national: string },
): string {
  if (contact.type === 'phone') {
    return phoneDestination(contact.areaCode, contact.national)?.e164 ?? fullPhone(contact.areaCode, normalizeNational(contact.national));
  }
  const email = contact.email.trim().toLowerCase();
  const at = email.lastIndexOf('@');
  if (at <= 0) return email;
  const domain = email.slice(at + 1);
  let local = email.slice(0, at);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  const dotless = DOTLESS_DOMAINS[domain];
  return dotless ? `${local.replace(/\./g, '')}@${dotless}` : `${local}@${domain}`;
}

/**
 * One count a request is checked against: at most `limit` hits of `key` in the last `windowMs`.
 * `soft` (a shared budget: expo, area, country, contact): a full one asks the
 * sender for a challenge instead of refusing, and a sender who passed one is not held by it.
 * `alert`: the operator hears once per window when the count reaches half the limit.
 */
export interface LimitRule {
  key: string;
  limit: number;
  windowMs: number;
  soft?: boolean;
  alert?: boolean;
}

function rule(limits: Limits, name: LimitName, key: string, more: { factor?: number; soft?: boolean; alert?: boolean } = {}): LimitRule[] {
  const limit = limits[name] * (more.factor ?? 1);
  if (!(limit > 0)) return [];
  return [
    {
      key,
      limit: Math.min(limit, LIMIT_MAX),
      windowMs: LIMIT_SPECS[name].windowS * 1000,
      ...(more.soft ? { soft: true } : {}),
      ...(more.alert ? { alert: true } : {}),
    },
  ];
}

/** A per-address rule: raised for a trusted network (README "Abuse limits" > trusted networks). */
function perAddress(limits: Limits, name: LimitName, key: string, client: Client): LimitRule[] {
  return rule(limits, name, key, { factor: client.trusted ? TRUSTED_FACTOR : 1 });
}

/** The contact of a send, as the form posted it. */
export type SendContact = { type: 'email'; email: string } | { type: 'phone'; areaCode: string; national: string };

/** What a code send is counted under. */
export interface SendSubject {
  client: Client;
  expoId: number;
  contact: SendContact;
  /**
   * The nonce of this browser's binding when the contact's last code (on this expo) was sent
   * to this browser: its sends count against its own budget, not the
   * strangers' one; null for any other browser.
   */
  ownNonce: string | null;
}

/**
 * The rules a code send must pass, all at once (a refused send counts against none of them).
 * The per-minute and per-hour counts of one client share a key: they read the same hits.
 * Per address (hard): the address or /64, the /56, the /48. Shared (soft):
 * the contact's strangers, the expo's area (the destination country), the country across
 * expos, the expo; past one of them a sender must pass a challenge, never a refusal for all.
 */
export function sendRules(limits: Limits, s: SendSubject): LimitRule[] {
  const c = s.client;
  const ip = `send:ip:${c.key}`;
  const dest = s.contact.type === 'phone' ? phoneDestination(s.contact.areaCode, s.contact.national) : null;
  const contact = contactKey(s.contact);
  return [
    ...perAddress(limits, 'sendsPerIpMinute', ip, c),
    ...perAddress(limits, 'sendsPerIpHour', ip, c),
    ...(c.net56 ? perAddress(limits, 'sendsPerIp56Hour', `send:ip:${c.net56}`, c) : []),
    ...(c.net48 ? perAddress(limits, 'sendsPerIp48Hour', `send:ip:${c.net48}`, c) : []),
    ...(s.ownNonce
      ? rule(limits, 'sendsPerBrowserHour', `send:own:${s.ownNonce}`)
      : rule(limits, 'sendsPerContactHour', `send:contact:${contact}`, { soft: true })),
    ...(dest
      ? [
          ...rule(limits, 'sendsPerAreaHour', `send:area:${s.expoId}:${dest.country}`, { soft: true, alert: true }),
          ...rule(limits, 'sendsPerCountryHour', `send:country:${dest.country}`, { soft: true, alert: true }),
        ]
      : []),
    ...rule(limits, 'sendsPerExpoHour', `send:expo:${s.expoId}`, { soft: true, alert: true }),
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
export function lookupRules(limits: Limits, s: { client: Client; checksCode: boolean }): LimitRule[] {
  const c = s.client;
  return [
    ...perAddress(limits, 'lookupsPerIpMinute', `lookup:ip:${c.key}`, c),
    ...(c.net56 ? perAddress(limits, 'lookupsPerIp56Minute', `lookup:ip:${c.net56}`, c) : []),
    ...(c.net48 ? perAddress(limits, 'lookupsPerIp48Minute', `lookup:ip:${c.net48}`, c) : []),
    ...(s.checksCode ? perAddress(limits, 'wrongCodesPerIpHour', wrongCodeKey(c.key), c) : []),
  ];
}

/**
 * The rules a seat lookup or company list must pass: per client address and expo,
 * and per expo. Every seat call the visitor's request makes counts once, whichever endpoint.
 */
export function seatRules(limits: Limits, s: { client: Client; expoId: number }): LimitRule[] {
  return [
    ...perAddress(limits, 'seatLookupsPerIpMinute', `seat:ip:${s.expoId}:${s.client.key}`, s.client),
    ...rule(limits, 'seatLookupsPerExpoMinute', `seat:expo:${s.expoId}`),
  ];
}

/**
 * The rules a registration (`POST /api/register`) must pass before the upstream sees it (issue
 * 19 item 2): per verified contact (counted like a send's contact, across expos) and per client
 * address. They cap how many registrations one proven contact, or one network, can write: ID
 * numbers and phones typed into them no longer block anyone (docs/upstream.md), but each is a
 * row the organiser must look at.
 */
export function registerRules(limits: Limits, s: { client: Client; contact: SendSubject['contact'] }): LimitRule[] {
  return [
    ...rule(limits, 'registersPerContactHour', `register:contact:${contactKey(s.contact)}`),
    ...perAddress(limits, 'registersPerIpHour', `register:ip:${s.client.key}`, s.client),
  ];
}

/** What a purchase request is counted under: the verified contact and the address. */
export interface PurchaseSubject {
  client: Client;
  /** the contact the `vc` cookie proved: an e-mail, or a full phone (`+66812345678`) */
  contact: string;
  /** an order (with or without a discount code), or a discount check */
  kind: 'order' | 'discount';
  /** whether the request tries a discount code (an order with a code is a guess too) */
  triesCode: boolean;
}

/**
 * The rules a purchase request must pass before the upstream sees it: orders per contact and
 * per address (one contact made 100 orders in 0.9 s and held a ticket's whole stock), and
 * discount codes tried per contact and per address (266 guesses in 1.5 s found two codes).
 * An order that carries a code counts as a try too, so the order form is no way around it.
 */
export function purchaseRules(limits: Limits, s: PurchaseSubject): LimitRule[] {
  const contact = s.contact.includes('@') ? contactKey({ type: 'email', email: s.contact }) : s.contact.trim();
  return [
    ...(s.kind === 'order'
      ? [
          ...rule(limits, 'ordersPerContactHour', `order:contact:${contact}`),
          ...perAddress(limits, 'ordersPerIpHour', `order:ip:${s.client.key}`, s.client),
        ]
      : []),
    ...(s.triesCode
      ? [
          ...rule(limits, 'discountTriesPerContactHour', `discount:contact:${contact}`),
          ...perAddress(limits, 'discountTriesPerIpHour', `discount:ip:${s.client.key}`, s.client),
        ]
      : []),
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
export function credentialMissRules(limits: Limits, s: { client: Client }): LimitRule[] {
  return perAddress(limits, 'credentialMissesPerIpHour', credentialMissKey(s.client.key), s.client);
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
