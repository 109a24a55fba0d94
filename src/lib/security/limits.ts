/**
 * Abuse limits at the edge (README "Security" > "Abuse limits"), as pure rules: the rules
 * each request is counted under and the message a refused visitor sees. The table and the
 * operator's variables are ./limit-specs.ts; who a request is from, ./client.ts; which contact,
 * ./contact-key.ts. The counting itself is the Durable Object in functions/limits.
 * Pure: no Astro, React or Hono.
 *
 * Why at the edge: the organiser's API sees every request coming from Cloudflare, never the
 * visitor's address, so per-visitor limits can only live here.
 */
import { TRUSTED_FACTOR, type Client } from './client';
import { contactKey, phoneDestination, type SendContact } from './contact-key';
import { LIMIT_MAX, LIMIT_SPECS, type LimitName, type Limits } from './limit-specs';

// The limits' face: the table (./limit-specs.ts) and what a request is counted under
// (./client.ts, ./contact-key.ts) come with the rules, so a caller imports one module.
export * from './limit-specs';
export * from './client';
export * from './contact-key';

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

/** The rules a share-card signature (`GET /api/share-signature`) must pass: per client address. */
export function shareRules(limits: Limits, s: { client: Client }): LimitRule[] {
  return perAddress(limits, 'shareSignaturesPerIpMinute', `share:ip:${s.client.key}`, s.client);
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
 * The rule a credential page view must pass before the upstream is asked for its code (a guessed
 * code costs the guesser, not the organiser): the view takes one miss slot up front, given back when the upstream knows the code,
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
