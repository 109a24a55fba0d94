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
import { REDACTED } from '../ops/redact';

// The limits' face: the table (./limit-specs.ts) and what a request is counted under
// (./client.ts, ./contact-key.ts) come with the rules, so a caller imports one module.
export * from './limit-specs';
export * from './client';
export * from './contact-key';

/**
 * What a refusal tells the visitor to do (the `limit.*` catalogue keys, {@link limitMessage}):
 * `network`, try again in a moment or from another network (a per-address cap: one machine's
 * flood, never a crowd); `contact`, use the code already sent (a contact's own caps);
 * `destination`, codes to there are paused, try the other contact mode (a shared budget's
 * ceiling); `attempts`, too many tries of one thing (registrations, orders, discount codes).
 */
export type LimitReason = 'network' | 'contact' | 'destination' | 'attempts';

/**
 * One count a request is checked against: at most `limit` hits of `key` in the last `windowMs`.
 * `ceiling` (a shared budget: contact, range, area, country, expo): full at `limit`, it asks the
 * sender for a challenge instead of refusing; a sender who passed one is held at `ceiling`,
 * which nothing passes (issue 29). `alert`: the operator hears once per window at half the
 * limit. `unverified`: the hit is given back when the send's code is verified, or when the
 * upstream sent nothing, so a budget counts only codes that went out and were never used.
 */
export interface LimitRule {
  key: string;
  limit: number;
  windowMs: number;
  reason: LimitReason;
  ceiling?: number;
  alert?: boolean;
  unverified?: boolean;
}

/** A shared budget's hard ceiling, as a multiple of the budget (README "Abuse limits"). */
export const CEILING_FACTOR = 2;
/**
 * The share of a budget that senders may pass with a wait ticket per window (the no-JavaScript
 * challenge: a wait a script can take, so it gets its own small ceiling), at least one.
 */
export const TICKET_SHARE = 0.1;

interface RuleOptions {
  factor?: number;
  alert?: boolean;
  unverified?: boolean;
}

function rule(limits: Limits, name: LimitName, key: string, reason: LimitReason, more: RuleOptions = {}): LimitRule[] {
  const limit = limits[name] * (more.factor ?? 1);
  if (!(limit > 0)) return [];
  return [
    {
      key,
      limit: Math.min(limit, LIMIT_MAX),
      windowMs: LIMIT_SPECS[name].windowS * 1000,
      reason,
      ...(more.alert ? { alert: true } : {}),
      ...(more.unverified ? { unverified: true } : {}),
    },
  ];
}

/** A per-address rule: raised for a trusted network (README "Abuse limits" > trusted networks). */
function perAddress(limits: Limits, name: LimitName, key: string, client: Client): LimitRule[] {
  return rule(limits, name, key, 'network', { factor: client.trusted ? TRUSTED_FACTOR : 1 });
}

/** How a sender passed a challenge before this count: Turnstile, a matured wait ticket, or not at all. */
export type ChallengePass = 'turnstile' | 'ticket' | null;

/**
 * A shared budget: its challenge threshold, its hard ceiling, given back when verified. On a
 * destination budget (`share`), a sender who passed with a wait ticket is also counted under the
 * budget's ticket share. The contact's strangers' budget has none: its ceiling and the cap per
 * contact and address already bound it, and a share one attacker could spend would lock the
 * contact's own no-JavaScript browser out.
 */
function budget(limits: Limits, name: LimitName, key: string, reason: LimitReason, pass: ChallengePass, share: boolean): LimitRule[] {
  return rule(limits, name, key, reason, { alert: share }).flatMap((r) => [
    { ...r, ceiling: Math.min(r.limit * CEILING_FACTOR, LIMIT_MAX), unverified: true },
    ...(share && pass === 'ticket' ? [{ key: `ticketed:${key}`, limit: Math.max(1, Math.floor(r.limit * TICKET_SHARE)), windowMs: r.windowMs, reason }] : []),
  ]);
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
  /** the challenge the sender passed before this count */
  pass: ChallengePass;
}

/**
 * The rules a code send must pass, all at once (a refused send counts against none of them),
 * narrowest first. Per address (hard, set above any crowd): the address or /64, the /56, the
 * /48. Per contact: from this address (hard), and the strangers' budget or this browser's own.
 * Shared budgets of unverified sends: the number's range, the expo's area (destination
 * country), the country across expos, the expo; past one a challenge, past its ceiling nothing.
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
    // Hard, but given back when verified: a visitor who looks themselves up again and again
    // from the venue's Wi-Fi is not refused; an attacker's sends, never verified, stay counted.
    ...rule(limits, 'sendsPerContactIpHour', `send:contact-ip:${contact}:${c.key}`, 'contact', { unverified: true }),
    ...(s.ownNonce
      ? rule(limits, 'sendsPerBrowserHour', `send:own:${s.ownNonce}`, 'contact', { unverified: true })
      : budget(limits, 'sendsPerContactHour', `send:contact:${contact}`, 'contact', s.pass, false)),
    ...(dest
      ? [
          ...budget(limits, 'sendsPerRangeHour', `send:range:${dest.range}`, 'destination', s.pass, true),
          ...budget(limits, 'sendsPerAreaHour', `send:area:${s.expoId}:${dest.country}`, 'destination', s.pass, true),
          ...budget(limits, 'sendsPerCountryHour', `send:country:${dest.country}`, 'destination', s.pass, true),
        ]
      : []),
    ...budget(limits, 'sendsPerExpoHour', `send:expo:${s.expoId}`, 'destination', s.pass, true),
  ];
}

/**
 * The keys of the wrong-code counts a lookup with a code takes a slot of (given back when the code
 * is accepted): its address's, and the contact's in this browser (`browser`: the nonce of the
 * browser's binding of the contact's code; null: a browser the code was not sent to, which has none).
 */
export function wrongCodeKeys(client: string, contact: string, browser: string | null): string[] {
  return [`wrong:ip:${client}`, ...(browser ? [`wrong:contact:${contact}:${browser}`] : [])];
}

/**
 * The rules a lookup must pass before the upstream sees it. With a code to check, the lookup
 * also takes one wrong-code slot of its address and of its contact in this browser up front
 * (given back when the code is accepted), so that concurrent guesses cannot all pass before the
 * first is counted. The contact's count is per browser the code was sent to (`browser`, its
 * binding's nonce): a guess from anywhere else is refused before the organiser sees it, and an
 * attacker who had a code sent to its own browser spends only that browser's tries, never the
 * visitor's own (the rehearsal's guesser locked its targets out both ways). A code-less lookup
 * (spec §2.2's bypass) is counted per e-mail and expo: the e-mail alone gives the credential,
 * so it is the key a harvester has to repeat.
 */
export function lookupRules(
  limits: Limits,
  s: { client: Client; expoId: number; contact: SendContact; checksCode: boolean; browser: string | null },
): LimitRule[] {
  const c = s.client;
  const contact = contactKey(s.contact);
  const [wrongIp = '', wrongContact = ''] = wrongCodeKeys(c.key, contact, s.browser);
  return [
    ...perAddress(limits, 'lookupsPerIpMinute', `lookup:ip:${c.key}`, c),
    ...(c.net56 ? perAddress(limits, 'lookupsPerIp56Minute', `lookup:ip:${c.net56}`, c) : []),
    ...(c.net48 ? perAddress(limits, 'lookupsPerIp48Minute', `lookup:ip:${c.net48}`, c) : []),
    ...(s.checksCode
      ? [...perAddress(limits, 'wrongCodesPerIpHour', wrongIp, c), ...(wrongContact ? rule(limits, 'wrongCodesPerContactHour', wrongContact, 'contact') : [])]
      : rule(limits, 'bypassLookupsPerEmailHour', `bypass:email:${s.expoId}:${contact}`, 'contact')),
  ];
}

/**
 * The rules a seat lookup or company list must pass: per client address and expo,
 * and per expo. Every seat call the visitor's request makes counts once, whichever endpoint.
 */
export function seatRules(limits: Limits, s: { client: Client; expoId: number }): LimitRule[] {
  return [
    ...perAddress(limits, 'seatLookupsPerIpMinute', `seat:ip:${s.expoId}:${s.client.key}`, s.client),
    ...rule(limits, 'seatLookupsPerExpoMinute', `seat:expo:${s.expoId}`, 'attempts'),
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
    ...rule(limits, 'registersPerContactHour', `register:contact:${contactKey(s.contact)}`, 'attempts'),
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
          ...rule(limits, 'ordersPerContactHour', `order:contact:${contact}`, 'attempts'),
          ...perAddress(limits, 'ordersPerIpHour', `order:ip:${s.client.key}`, s.client),
        ]
      : []),
    ...(s.triesCode
      ? [
          ...rule(limits, 'discountTriesPerContactHour', `discount:contact:${contact}`, 'attempts'),
          ...perAddress(limits, 'discountTriesPerIpHour', `discount:ip:${s.client.key}`, s.client),
        ]
      : []),
  ];
}

/** The scopes of a limiter key that name nobody: a number's range (four digits), an area, a country, an expo. */
const SHARED_SCOPES: ReadonlySet<string> = new Set(['range', 'area', 'country', 'expo']);

/**
 * A limiter key as a log line may write it (issue 30: no contact in any log line): a shared
 * budget's key whole, any other key's kind only, its contact, address or browser {@link REDACTED}.
 * The ceiling and half-budget lines (functions/limits/index.ts) write keys through it.
 * @example limitKeyForLog('send:range:+44 7911') // 'send:range:+44 7911'
 * @example limitKeyForLog('send:contact:one@demo.test') // 'send:contact:*'
 */
export function limitKeyForLog(key: string): string {
  const ticketed = key.startsWith('ticketed:');
  const inner = ticketed ? key.slice('ticketed:'.length) : key;
  const [kind = '', scope = ''] = inner.split(':');
  const shown = SHARED_SCOPES.has(scope) ? inner : `${kind}:${scope}:${REDACTED}`;
  return ticketed ? `ticketed:${shown}` : shown;
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
export type LimitMessageKey = `limit.${LimitReason}${'Seconds' | 'Minutes'}` | 'limit.busy';

/**
 * The message of a refusal: what the visitor can do now (by the refusing rule's reason) and how
 * long to wait, in seconds below a minute and whole minutes from there (rounded up, so the
 * visitor never retries too early); `limit.busy` when the wait is not known (the counter could
 * not be reached).
 * @example limitMessage('network', 42_100) // { key: 'limit.networkSeconds', vars: { n: 43 } }
 * @example limitMessage('contact', 600_000) // { key: 'limit.contactMinutes', vars: { n: 10 } }
 */
export function limitMessage(reason: LimitReason, retryAfterMs: number | null): { key: LimitMessageKey; vars: { n: number } } {
  if (retryAfterMs === null || !Number.isFinite(retryAfterMs)) return { key: 'limit.busy', vars: { n: 0 } };
  const s = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return s < 60 ? { key: `limit.${reason}Seconds`, vars: { n: s } } : { key: `limit.${reason}Minutes`, vars: { n: Math.ceil(s / 60) } };
}

/** What a sender is asked for past a shared budget (README "Abuse limits" > challenges). */
export type ChallengeKind = 'turnstile' | 'ticket';

/**
 * Which challenge a sender past a shared budget meets: with Turnstile configured, a JSON
 * caller (JavaScript runs) must pass Turnstile; the wait ticket is the no-JavaScript form's,
 * or everyone's when no Turnstile is configured (issue 29: a wait a script can take is no
 * challenge for a script that can run JavaScript).
 */
export function challengeKind(s: { json: boolean; turnstile: boolean }): ChallengeKind {
  return s.json && s.turnstile ? 'turnstile' : 'ticket';
}

/** Whether a matured wait ticket counts as a pass for this caller ({@link challengeKind}). */
export function ticketAccepted(s: { json: boolean; turnstile: boolean }): boolean {
  return challengeKind(s) === 'ticket';
}

/** The longest wait a ticket asks (seconds): a ticket stays redeemable for its life after it. */
export const MAX_TICKET_WAIT_S = 300;

/**
 * A new wait ticket's wait: the base wait doubled for each ticket this address or this contact
 * has already taken in the hour (issue 29: the wait grows when it is taken again and again),
 * at most {@link MAX_TICKET_WAIT_S}. A visitor meets one ticket and waits the base.
 * @example ticketWait(20, 0) // 20
 * @example ticketWait(20, 3) // 160
 */
export function ticketWait(baseS: number, issuedBefore: number): number {
  const n = Math.max(0, Math.min(10, Math.floor(issuedBefore)));
  return Math.min(MAX_TICKET_WAIT_S, Math.max(baseS, baseS * 2 ** n));
}

/** A count's answer, as the objects gave it (functions/limits hitLimits). */
export type CountAnswer =
  | { ok: true }
  | { ok: false; retryAfterMs: number; friction: boolean; reason: LimitReason }
  | { ok: 'unreachable' };

/** What a code send meets: it goes on, it is refused (with why and how long), or a challenge first. */
export type SendDecision =
  | { kind: 'ok' }
  | { kind: 'refused'; reason: LimitReason; retryAfterMs: number | null }
  | { kind: 'challenge'; via: ChallengeKind };

/**
 * The decision of a send from its count: the one place a count becomes an answer. A full
 * shared budget asks a sender who has not passed a challenge for the one that fits its caller;
 * a sender who passed one was counted against the ceilings, so a refusal then is final.
 */
export function decideSend(count: CountAnswer, s: { pass: ChallengePass; json: boolean; turnstile: boolean }): SendDecision {
  if (count.ok === true) return { kind: 'ok' };
  if (count.ok === 'unreachable') return { kind: 'refused', reason: 'network', retryAfterMs: null };
  if (count.friction && s.pass === null) return { kind: 'challenge', via: challengeKind(s) };
  return { kind: 'refused', reason: count.reason, retryAfterMs: count.retryAfterMs };
}
