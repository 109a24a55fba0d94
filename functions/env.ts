import type { Limiter } from './limits/limiter';

/**
 * The Worker's bindings and variables (wrangler.toml `[vars]`, secrets, D1).
 * Every variable is documented in README.md "Configuration". `Cloudflare.Env` is generated from
 * wrangler.toml by `npm run cf-typegen`; secrets are not in that file, so they are added here.
 */
export interface AppEnv extends Cloudflare.Env {
  /** Base URL of the organiser's API (without `/custom`); empty = the embedded reference upstream. */
  UPSTREAM_URL?: string;
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
  /** The operator's token for `/healthz`'s details (`Authorization: Bearer …`, at least 16 characters); unset: nobody gets them. A secret. */
  HEALTH_TOKEN?: string;
  /** The fixed 4-digit bypass code of spec §5 (used only for configured sites, never sent to a browser). */
  BYPASS_CODE?: string;
  /** `off`: spec §2.2's code-less e-mail lookup (site 10542) is off, its site asks for a code (README "Abuse limits"). */
  EXHIBITOR_BYPASS?: string;
  /** "0" turns off the request log's JSON line per request (functions/middleware/request-log.ts); anything else or unset: on. */
  REQUEST_LOG?: string;
  /** "1" turns on the reference upstream's development outbox (codes logged and listed at /dev/outbox). */
  DEV_OUTBOX?: string;
  /** "1" lets the reference upstream answer its HTTP face (/custom/*, /wx/*) on local runs. */
  REF_HTTP?: string;
  /** With REF_HTTP=1: the value of the `x-ref-secret` header the HTTP face requires (without it: loopback hosts only). */
  REF_HTTP_SECRET?: string;
  /** Webhook the reference upstream posts codes to for real delivery. */
  DELIVERY_WEBHOOK_URL?: string;
  /** OCR endpoint the reference upstream calls for business cards. */
  OCR_URL?: string;
  /** Reference upstream: seconds between two sends to one contact (default 60). */
  REF_SEND_INTERVAL_S?: string;
  /** Reference upstream: sends per contact and hour (default 5). */
  REF_SENDS_PER_HOUR?: string;
  /** Reference upstream: seconds an unpaid order holds its tickets (default 1800, spec §9; tests shorten it). */
  REF_ORDER_HOLD_S?: string;
  /** "1" serves the reference's payment simulator (/dev/pay/*) without the outbox; DEV_OUTBOX=1 serves it too. */
  PAY_SIMULATOR?: string;
  /** Reference upstream: HMAC key of the payment notifications; required (without it every notification is refused). */
  REF_PAY_SECRET?: string;
  /** Reference upstream: the cashier doUnifiedOrder hands out (a provider on another origin); unset: the simulator's /dev/pay. */
  REF_CASHIER_URL?: string;
  /** Reference upstream: the messaging app's app id `/wx/getwxAppId` answers for every expo; unset: none (404), so no share card. */
  REF_WX_APP_ID?: string;
  /** The messaging app's JS-SDK the share card loads (default the vendor's https URL, src/lib/page/wx-share.ts). */
  WX_JSSDK_URL?: string;
  /** Reference upstream: open unpaid orders per contact (mailbox) and expo (default 3). */
  REF_OPEN_ORDERS_PER_CONTACT?: string;
  /** Reference upstream: open unpaid orders per contact (mailbox) and ticket (default 1). */
  REF_OPEN_ORDERS_PER_TICKET?: string;
  /** Google Wallet issuer id: with the two below, the credential page offers "Save to Google Wallet". */
  GOOGLE_WALLET_ISSUER_ID?: string;
  /** The Google Wallet service account's client_email. */
  GOOGLE_WALLET_SA_EMAIL?: string;
  /** The service account's private_key (PKCS#8 PEM; `\n` escapes accepted). A secret: `wrangler secret put`. */
  GOOGLE_WALLET_SA_KEY?: string;
  /** Apple Wallet pass type identifier, `pass.…`: with the four below, the credential page offers "Add to Apple Wallet". */
  APPLE_PASS_TYPE_ID?: string;
  /** The Apple developer account's team id (10 characters). */
  APPLE_TEAM_ID?: string;
  /** The pass type id certificate (PEM). */
  APPLE_PASS_CERT?: string;
  /** Its private key (PKCS#8 PEM, RSA; `\n` escapes accepted). A secret: `wrangler secret put`. */
  APPLE_PASS_KEY?: string;
  /** Apple's WWDR intermediate certificate, G4 (PEM). */
  APPLE_WWDR_CERT?: string;
  /** `full`: the gate's scan export (`/gate/{eid}/scans.csv`) shows every code whole; unset or anything else: masked, `PF4R…HR` (docs/gate.md). */
  GATE_CSV_CODES?: string;
  /** D1 database of the reference upstream. */
  DB: D1Database;
  /** D1 database of the edge itself (README "The gate"): staff gate keys, hashed (functions/staff/migrations). */
  STAFF: D1Database;
  // Abuse limits (README "Security" > "Abuse limits", src/lib/security/limits.ts): counts per window, 0 = off.
  /** The abuse limits' counter (functions/limits/limiter.ts). */
  LIMITS: DurableObjectNamespace<Limiter>;
  /** Where new limiter objects are created: a Durable Object location hint, or `none` (default `apac`; issue 24). */
  LIMITS_LOCATION_HINT?: string;
  /** Code sends per client address (an IPv4 address or an IPv6 /64) and minute (default 300). */
  LIMIT_SENDS_PER_IP_MIN?: string;
  /** Code sends per client address (an IPv4 address or an IPv6 /64) and hour (default 3000). */
  LIMIT_SENDS_PER_IP_HOUR?: string;
  /** Code sends per IPv6 /56 and hour (one subscriber often holds a /56) (default 3000). */
  LIMIT_SENDS_PER_IP56_HOUR?: string;
  /** Code sends per IPv6 /48 and hour (a carrier gives each phone a /64 of one /48: a crowd too) (default 3000). */
  LIMIT_SENDS_PER_IP48_HOUR?: string;
  /** Code sends to one contact (normalised e-mail or phone) and hour, across every expo, from browsers that were not sent its last code: past it a challenge, and past twice it a refusal. Not spent by the contact's verified codes (README "Abuse limits": unverified sends). (default 2). */
  LIMIT_SENDS_PER_CONTACT_HOUR?: string;
  /** Code sends to one contact from one client address and hour, whichever browser (issue 29: one address cannot spend a contact's sends at the organiser, so its own browser, elsewhere, keeps some) (default 3). */
  LIMIT_SENDS_PER_CONTACT_IP_HOUR?: string;
  /** Resends per hour of the browser a contact's code was sent to (its binding cookie) (default 1). */
  LIMIT_SENDS_PER_BROWSER_HOUR?: string;
  /** Unverified SMS sends per number range (calling code and the next 4 digits) and hour, across expos: SMS pumping (default 30). */
  LIMIT_SENDS_PER_RANGE_HOUR?: string;
  /** Unverified SMS sends per expo and destination country and hour (default 300). */
  LIMIT_SENDS_PER_AREA_HOUR?: string;
  /** Unverified SMS sends per destination country and hour across every expo (default 1000). */
  LIMIT_SENDS_PER_COUNTRY_HOUR?: string;
  /** Unverified code sends per expo and hour, all visitors together (default 2000). */
  LIMIT_SENDS_PER_EXPO_HOUR?: string;
  /** Lookups (`POST /api/lookup`) per client address and minute (default 600). */
  LIMIT_LOOKUPS_PER_IP_MIN?: string;
  /** Lookups per IPv6 /56 and minute (default 600). */
  LIMIT_LOOKUPS_PER_IP56_MIN?: string;
  /** Lookups per IPv6 /48 and minute (default 600). */
  LIMIT_LOOKUPS_PER_IP48_MIN?: string;
  /** Codes not accepted (wrong, expired, used) per client address and hour, across contacts (default 1000). */
  LIMIT_WRONG_CODES_PER_IP_HOUR?: string;
  /** Codes not accepted per contact and hour, wherever they come from (default 10). */
  LIMIT_WRONG_CODES_PER_CONTACT_HOUR?: string;
  /** Code-less lookups (spec §2.2 bypass, site 10542) per e-mail and expo and hour (default 5). */
  LIMIT_BYPASS_LOOKUPS_PER_EMAIL_HOUR?: string;
  /** Seat lookups and company lists per client address and expo, per minute (default 600). */
  LIMIT_SEAT_LOOKUPS_PER_IP_MIN?: string;
  /** Seat lookups and company lists per expo and minute, all visitors together (default 1200). */
  LIMIT_SEAT_LOOKUPS_PER_EXPO_MIN?: string;
  /** Registrations (`POST /api/register` posts that reach the upstream) per verified contact and hour, across every expo (default 20). */
  LIMIT_REGISTERS_PER_CONTACT_HOUR?: string;
  /** Registrations per client address and hour (default 1000). */
  LIMIT_REGISTERS_PER_IP_HOUR?: string;
  /** Orders (`POST /api/order`) per verified contact and hour (default 10). */
  LIMIT_ORDERS_PER_CONTACT_HOUR?: string;
  /** Orders per client address and hour (default 1000). */
  LIMIT_ORDERS_PER_IP_HOUR?: string;
  /** Discount codes tried (`POST /api/discount`, or an order with a code) per verified contact and hour (default 10). */
  LIMIT_DISCOUNT_TRIES_PER_CONTACT_HOUR?: string;
  /** Discount codes tried per client address and hour (default 300). */
  LIMIT_DISCOUNT_TRIES_PER_IP_HOUR?: string;
  /** Share-card signatures (`GET /api/share-signature`) per client address and minute (default 600). */
  LIMIT_SHARE_SIGNATURES_PER_IP_MIN?: string;
  /** Credential pages whose code the upstream does not know, per client address and hour (default 300). */
  LIMIT_CREDENTIAL_MISSES_PER_IP_HOUR?: string;
  /** Networks whose per-address limits are raised 20 times (the venue's Wi-Fi): CIDRs, v4 and v6, comma-separated. */
  TRUSTED_NETWORKS?: string;
  /** Seconds a sender without JavaScript waits before a send past a shared budget (default 20, 1-300). */
  CHALLENGE_WAIT_S?: string;
  /** Cloudflare Turnstile site key (public); with TURNSTILE_SECRET, the challenge where JavaScript runs. */
  TURNSTILE_SITE_KEY?: string;
  /** Cloudflare Turnstile secret, for siteverify at the edge. A secret: `wrangler secret put`. */
  TURNSTILE_SECRET?: string;
  /** siteverify URL (default Cloudflare's; tests point it at a fake verifier). */
  TURNSTILE_VERIFY_URL?: string;
  /** The widget's script URL (default Cloudflare's; tests point it at a fake widget). */
  TURNSTILE_SCRIPT_URL?: string;
  /** Where a half-budget alert is POSTed as JSON (optional; the structured console line is always written). */
  ALERT_WEBHOOK_URL?: string;
  /** Seconds a code the upstream answered as unknown is remembered at the edge (default 60; 0 turns it off). */
  UNKNOWN_CODE_CACHE_TTL_S?: string;
}
