/**
 * The reference upstream's own numbers, each written from docs/upstream.md (never imported
 * from the edge, so a wrong number on one side shows as a failing test instead of agreeing with
 * itself). tests/edge/reference.rules.worker.test.ts pins each one by its contract value.
 */

/** "Tickets and orders": one order takes 1 to 20 tickets. */
export const MAX_QUANTITY = 20;

/** "Tickets and orders" (spec §9): an unpaid order holds its tickets 30 minutes from the first doUnifiedOrder. */
export const ORDER_HOLD_MINUTES = 30;

/** "Open orders": an unpaid order not yet sent to pay holds its tickets 10 minutes. */
export const CHECKOUT_HOLD_MINUTES = 10;

/** "Open orders": unpaid orders a contact may have open, per ticket and per expo (REF_OPEN_ORDERS_PER_* override them). */
export const OPEN_ORDERS_PER_TICKET = 1;
export const OPEN_ORDERS_PER_EXPO = 3;

/**
 * "Open orders" (our reading, issue 29): of a ticket with limited stock, one contact's unpaid
 * orders may hold at most a third of what is not held by others (at least 1; see holds.ts).
 */
export const HOLD_SHARE_DIVISOR = 3;

/**
 * "Open orders" (our reading, issue 29): after a contact's unpaid order of a ticket with limited
 * stock stops holding (cancelled, or its hold ran out), that contact waits this long before it
 * may order that ticket again.
 */
export const HOLD_COOLDOWN_MINUTES = 15;

/** "Health upload": a file is a JPEG or PNG of at most 5 MB. */
export const HEALTH_MAX_BYTES = 5 * 1024 * 1024;

/** "Health upload": a registration keeps at most 3 uploads of each kind. */
export const HEALTH_MAX_PER_KIND = 3;

/** What a file is, by its magic numbers ("Health upload": JPEG or PNG); a declared type is never trusted. */
export function imageType(bytes: Uint8Array): 'image/jpeg' | 'image/png' | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'image/png';
  return null;
}

/** "Articles": a page holds 10 articles unless asked otherwise, at most 50 (a larger pageSize is answered with 50). */
export const ARTICLE_PAGE_SIZE_DEFAULT = 10;
export const ARTICLE_PAGE_SIZE_MAX = 50;
/** "Articles": pages past 1000 are not served (the page is read as 1000). */
export const ARTICLE_PAGE_MAX = 1000;
/** "Shuttle bus": the calls' JSON bodies are a few ids; anything larger is not one of ours. */
export const BUS_MAX_BODY = 2048;
/**
 * "Messaging app" ajaxData: the reference has no messaging-app account, so it signs with this
 * demo jsapi_ticket (a real organiser's API signs with the ticket its app's token gives).
 */
export const DEMO_JSAPI_TICKET = 'reference-demo-jsapi-ticket';

/** "Messaging app" ajaxData: the longest page URL it signs. */
export const SHARE_URL_MAX = 2048;

/**
 * "Messaging app" getForm (spec §3 euDefine, §2.1): a custom label is one the list shows, so
 * shorter than this many characters (code points); a longer `define` is no label of any url.
 */
export const DEFINE_MAX_CHARS = 20;

/** "Check-in (the gate)": a gate's name is at most this many characters. */
export const GATE_MAX_CHARS = 40;
/** "Check-in (the gate)": redeemCode's body is a code, a gate and a time; anything larger is not one of ours. */
export const CHECKIN_MAX_BODY = 1024;
/** "Check-in (the gate)": a scan time later than now by more than this (clock skew) is refused. */
export const CHECKIN_FUTURE_SKEW_MS = 5 * 60_000;
/** "Check-in (the gate)": a scan older than this many days is refused (an offline queue is synced within the show). */
export const CHECKIN_MAX_AGE_DAYS = 30;
/** "Check-in (the gate)": the admission list's page size unless asked, and its largest. */
export const CHECKIN_PAGE_SIZE_DEFAULT = 500;
export const CHECKIN_PAGE_SIZE_MAX = 1000;
