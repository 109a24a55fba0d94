/**
 * The abuse limits' table (README "Security" > "Abuse limits"): each limit's variable, default
 * and window, and reading the operator's variables into the limits in force. Pure.
 */

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
  // Per client address: hard caps set where no crowd reaches (issue 29). A venue's Wi-Fi or a
  // carrier's NAT is hundreds of visitors on one address, so an address is never the unit a
  // real visitor is refused by; these stop one machine flooding, nothing more.
  /** code sends per client address (an IPv4 address or an IPv6 /64) and minute */
  sendsPerIpMinute: { name: 'LIMIT_SENDS_PER_IP_MIN', fallback: 300, windowS: 60 },
  /** code sends per client address (an IPv4 address or an IPv6 /64) and hour */
  sendsPerIpHour: { name: 'LIMIT_SENDS_PER_IP_HOUR', fallback: 3000, windowS: 3600 },
  /** code sends per IPv6 /56 and hour (one subscriber often holds a /56) */
  sendsPerIp56Hour: { name: 'LIMIT_SENDS_PER_IP56_HOUR', fallback: 3000, windowS: 3600 },
  /** code sends per IPv6 /48 and hour (a carrier gives each phone a /64 of one /48: a crowd too) */
  sendsPerIp48Hour: { name: 'LIMIT_SENDS_PER_IP48_HOUR', fallback: 3000, windowS: 3600 },
  // Per destination: where abuse is.
  /**
   * code sends to one contact (normalised e-mail or phone) and hour, across every expo, from
   * browsers that were not sent its last code: past it a challenge, and past twice it a refusal.
   * Not spent by the contact's verified codes (README "Abuse limits": unverified sends).
   */
  sendsPerContactHour: { name: 'LIMIT_SENDS_PER_CONTACT_HOUR', fallback: 2, windowS: 3600 },
  /**
   * code sends to one contact from one client address and hour, whichever browser (issue 29: one
   * address cannot spend a contact's sends at the organiser, so its own browser, elsewhere, keeps some)
   */
  sendsPerContactIpHour: { name: 'LIMIT_SENDS_PER_CONTACT_IP_HOUR', fallback: 3, windowS: 3600 },
  /** unverified resends per hour of the browser a contact's code was sent to (its binding cookie; a verified code gives its hit back) */
  sendsPerBrowserHour: { name: 'LIMIT_SENDS_PER_BROWSER_HOUR', fallback: 1, windowS: 3600 },
  /** unverified SMS sends per number range (calling code and the next 4 digits) and hour, across expos: SMS pumping */
  sendsPerRangeHour: { name: 'LIMIT_SENDS_PER_RANGE_HOUR', fallback: 30, windowS: 3600 },
  /** unverified SMS sends per expo and destination country and hour */
  sendsPerAreaHour: { name: 'LIMIT_SENDS_PER_AREA_HOUR', fallback: 300, windowS: 3600 },
  /** unverified SMS sends per destination country and hour across every expo */
  sendsPerCountryHour: { name: 'LIMIT_SENDS_PER_COUNTRY_HOUR', fallback: 1000, windowS: 3600 },
  /** unverified code sends per expo and hour, all visitors together */
  sendsPerExpoHour: { name: 'LIMIT_SENDS_PER_EXPO_HOUR', fallback: 2000, windowS: 3600 },
  /** lookups (`POST /api/lookup`) per client address and minute */
  lookupsPerIpMinute: { name: 'LIMIT_LOOKUPS_PER_IP_MIN', fallback: 600, windowS: 60 },
  /** lookups per IPv6 /56 and minute */
  lookupsPerIp56Minute: { name: 'LIMIT_LOOKUPS_PER_IP56_MIN', fallback: 600, windowS: 60 },
  /** lookups per IPv6 /48 and minute */
  lookupsPerIp48Minute: { name: 'LIMIT_LOOKUPS_PER_IP48_MIN', fallback: 600, windowS: 60 },
  /** codes not accepted (wrong, expired, used) per client address and hour, across contacts */
  wrongCodesPerIpHour: { name: 'LIMIT_WRONG_CODES_PER_IP_HOUR', fallback: 1000, windowS: 3600 },
  /** codes not accepted per contact and hour in one browser its code was sent to (another browser's guesses never spend the visitor's tries) */
  wrongCodesPerContactHour: { name: 'LIMIT_WRONG_CODES_PER_CONTACT_HOUR', fallback: 10, windowS: 3600 },
  /** code-less lookups (spec §2.2 bypass, site 10542) per e-mail and expo and hour */
  bypassLookupsPerEmailHour: { name: 'LIMIT_BYPASS_LOOKUPS_PER_EMAIL_HOUR', fallback: 5, windowS: 3600 },
  /** seat lookups and company lists per client address and expo, per minute */
  seatLookupsPerIpMinute: { name: 'LIMIT_SEAT_LOOKUPS_PER_IP_MIN', fallback: 600, windowS: 60 },
  /** seat lookups and company lists per expo and minute, all visitors together */
  seatLookupsPerExpoMinute: { name: 'LIMIT_SEAT_LOOKUPS_PER_EXPO_MIN', fallback: 1200, windowS: 60 },
  /** registrations (`POST /api/register` posts that reach the upstream) per verified contact and hour, across every expo */
  registersPerContactHour: { name: 'LIMIT_REGISTERS_PER_CONTACT_HOUR', fallback: 20, windowS: 3600 },
  /** registrations per client address and hour */
  registersPerIpHour: { name: 'LIMIT_REGISTERS_PER_IP_HOUR', fallback: 1000, windowS: 3600 },
  /** orders (`POST /api/order`) per verified contact and hour */
  ordersPerContactHour: { name: 'LIMIT_ORDERS_PER_CONTACT_HOUR', fallback: 10, windowS: 3600 },
  /** orders per client address and hour */
  ordersPerIpHour: { name: 'LIMIT_ORDERS_PER_IP_HOUR', fallback: 1000, windowS: 3600 },
  /** discount codes tried (`POST /api/discount`, or an order with a code) per verified contact and hour */
  discountTriesPerContactHour: { name: 'LIMIT_DISCOUNT_TRIES_PER_CONTACT_HOUR', fallback: 10, windowS: 3600 },
  /** discount codes tried per client address and hour */
  discountTriesPerIpHour: { name: 'LIMIT_DISCOUNT_TRIES_PER_IP_HOUR', fallback: 300, windowS: 3600 },
  /** share-card signatures (`GET /api/share-signature`) per client address and minute */
  shareSignaturesPerIpMinute: { name: 'LIMIT_SHARE_SIGNATURES_PER_IP_MIN', fallback: 600, windowS: 60 },
  /** credential pages whose code the upstream does not know, per client address and hour */
  credentialMissesPerIpHour: { name: 'LIMIT_CREDENTIAL_MISSES_PER_IP_HOUR', fallback: 300, windowS: 3600 },
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
