import type { Limiter } from './limits/limiter';

/**
 * The Worker's bindings and variables (wrangler.toml `[vars]`, secrets, D1).
 * Every variable is documented in README.md "Configuration". `Cloudflare.Env` is generated from
 * wrangler.toml by `npm run cf-typegen`; secrets are not in that file, so they are added here.
 */
export interface AppEnv extends Cloudflare.Env {
  /** Base URL of the organiser's API (without `/custom`); empty = the embedded reference upstream. */
  UPSTREAM_URL: string;
  /** Root of the organiser's auth host (seat calls go to `{UPSTREAM_AUTH_URL}/auth`); empty = UPSTREAM_URL. */
  UPSTREAM_AUTH_URL?: string;
  /** Per-call timeout for upstream requests in ms; default 15000. */
  UPSTREAM_TIMEOUT_MS?: string;
  /** Seconds the organiser's form config is cached at the edge (default 60; 0 turns the cache off). */
  CONFIG_CACHE_TTL_S?: string;
  /** Seconds after that a cached config is still answered while it is fetched again (default 600). */
  CONFIG_CACHE_STALE_S?: string;
  /** HMAC key for the verified-contact cookie. */
  SESSION_SECRET?: string;
  /** The fixed 4-digit bypass code of spec §5 (used only for configured sites, never sent to a browser). */
  BYPASS_CODE?: string;
  /** "1" turns on the reference upstream's development outbox (codes logged and listed at /dev/outbox). */
  DEV_OUTBOX?: string;
  /** "1" lets the reference upstream answer its HTTP face (/custom/*, /wx/*) on local runs (issue 9 hole 8). */
  REF_HTTP?: string;
  /** With REF_HTTP=1: the value of the `x-ref-secret` header the HTTP face requires (without it: loopback hosts only). */
  REF_HTTP_SECRET?: string;
  /** Webhook the reference upstream posts codes to for real delivery. */
  DELIVERY_WEBHOOK_URL?: string;
  /** OCR endpoint the reference upstream calls for business cards (issue 5). */
  OCR_URL?: string;
  /** Reference upstream: seconds between two sends to one contact (default 60). */
  REF_SEND_INTERVAL_S?: string;
  /** Reference upstream: sends per contact and hour (default 5). */
  REF_SENDS_PER_HOUR?: string;
  /** Reference upstream: seconds an unpaid order holds its tickets (default 1800, spec §9; tests shorten it). */
  REF_ORDER_HOLD_S?: string;
  /** "1" serves the reference's payment simulator (/dev/pay/*) without the outbox; DEV_OUTBOX=1 serves it too. */
  PAY_SIMULATOR?: string;
  /** Reference upstream: HMAC key of the payment notifications (default: the expo's aesKey, as the simulator signs). */
  REF_PAY_SECRET?: string;
  /** Google Wallet issuer id (issue 13): with the two below, the credential page offers "Save to Google Wallet". */
  GOOGLE_WALLET_ISSUER_ID?: string;
  /** The Google Wallet service account's client_email. */
  GOOGLE_WALLET_SA_EMAIL?: string;
  /** The service account's private_key (PKCS#8 PEM; `\n` escapes accepted). A secret: `wrangler secret put`. */
  GOOGLE_WALLET_SA_KEY?: string;
  /** Apple Wallet pass type identifier, `pass.…` (issue 13): with the four below, the credential page offers "Add to Apple Wallet". */
  APPLE_PASS_TYPE_ID?: string;
  /** The Apple developer account's team id (10 characters). */
  APPLE_TEAM_ID?: string;
  /** The pass type id certificate (PEM). */
  APPLE_PASS_CERT?: string;
  /** Its private key (PKCS#8 PEM, RSA; `\n` escapes accepted). A secret: `wrangler secret put`. */
  APPLE_PASS_KEY?: string;
  /** Apple's WWDR intermediate certificate, G4 (PEM). */
  APPLE_WWDR_CERT?: string;
  /** D1 database of the reference upstream. */
  DB: D1Database;
  // Abuse limits (README "Security" > "Abuse limits", src/lib/limits.ts): counts per window, 0 = off.
  /** The abuse limits' counter (functions/limits/limiter.ts). */
  LIMITS: DurableObjectNamespace<Limiter>;
  /** Code sends per client address and minute (default 5). */
  LIMIT_SENDS_PER_IP_MIN?: string;
  /** Code sends per client address and hour (default 20). */
  LIMIT_SENDS_PER_IP_HOUR?: string;
  /** Code sends to one contact and hour, across every expo (default 10). */
  LIMIT_SENDS_PER_CONTACT_HOUR?: string;
  /** SMS sends per expo and area code and hour (default 100). */
  LIMIT_SENDS_PER_AREA_HOUR?: string;
  /** Code sends per expo and hour (default 1000). */
  LIMIT_SENDS_PER_EXPO_HOUR?: string;
  /** Lookups per client address and minute (default 30). */
  LIMIT_LOOKUPS_PER_IP_MIN?: string;
  /** Codes not accepted per client address and hour (default 20). */
  LIMIT_WRONG_CODES_PER_IP_HOUR?: string;
  /** Seat lookups and company lists per client address and expo and minute (default 30). */
  LIMIT_SEAT_LOOKUPS_PER_IP_MIN?: string;
  /** Seat lookups and company lists per expo and minute (default 1200). */
  LIMIT_SEAT_LOOKUPS_PER_EXPO_MIN?: string;
  /** Credential pages of codes the upstream does not know, per client address and hour (default 30; issue 19 item 3). */
  LIMIT_CREDENTIAL_MISSES_PER_IP_HOUR?: string;
  /** Seconds a code the upstream answered as unknown is remembered at the edge (default 60; 0 turns it off; issue 19 item 13). */
  UNKNOWN_CODE_CACHE_TTL_S?: string;
}
