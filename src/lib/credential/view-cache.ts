/**
 * The credential page at scale (issue 24, "the credential page is the slowest page"): at the gate
 * everyone refreshes their credential at once, and each view used to cost the organiser's API a
 * record read plus the expo's site and bus lists, and the QR image a second record read. The rules
 * here say what a view may share, for how long, and which writes end the sharing. Pure: the
 * isolate's memo that applies them is functions/upstream/credential-views.ts.
 *
 * - **Usage stays live but cheap**: the record (`queryCustomerCode`: status, uses, the last
 *   admission) and the lists a view reads are shared for `CREDENTIAL_VIEW_TTL_MS`, so a refresh
 *   storm costs about one call per credential (and per expo list) per TTL and isolate.
 * - **Never across people**: a record's key is the upstream, the expo and the registration code:
 *   the code is the credential URL's secret, so whoever shares an entry already holds that URL.
 * - **Never after the visitor's own change**: a write on a code (a gate scan, a site or bus
 *   booking, a health upload) drops that code's entries in the isolate, and the expo's lists when
 *   it books; a registration (no code known beforehand) drops the expo's entries; a refund applied
 *   for or withdrawn (which voids or restores the order's e-tickets, named by the order's number,
 *   not by code: issue 30) drops every code's entries of the expo.
 * - Only answers are shared: a fault (thrown) is never kept, a refusal neither.
 */

/**
 * Seconds a credential view's reads are shared: short enough that a check-in at another gate's
 * isolate shows within a refresh or two, long enough that a refresh storm is one upstream call
 * per credential every 5 s (issue 24: "a few seconds").
 */
export const CREDENTIAL_VIEW_TTL_MS = 5_000;

/** Entries one isolate keeps at most (the least recently written dropped first): a flood of codes never grows memory. */
export const CREDENTIAL_VIEW_MAX_ENTRIES = 2_048;

/** QR images (PNG bytes, a pure function of the code) one isolate keeps at most; about 2 to 5 KB each. */
export const QR_IMAGE_MAX_ENTRIES = 256;

/** What an entry belongs to: one registration code, or the expo as a whole (its lists). */
export type ViewScope = 'code' | 'expo';

/** The reads a credential view shares, and whose they are (a table: src/lib/screens/credential.ts reads them). */
export const SHARED_READS = {
  queryCustomerCode: 'code',
  selectExpoUserSiteId: 'code',
  selectSiteTypeList: 'expo',
  selectSiteDateList: 'expo',
  selectBusList: 'expo',
} as const satisfies Record<string, ViewScope>;

export type SharedRead = keyof typeof SHARED_READS;

/**
 * What a write drops: `code` that code's entries, `code+lists` also the expo's lists (a booking
 * changes what is left), `codes` every code's entries of the expo, not its lists (an order's
 * refund: the call names the order, and the e-tickets it voids are not known to the write), `expo`
 * every entry of the expo (a registration: the code it changes is not known before the answer).
 */
export type WriteDrop = 'code' | 'code+lists' | 'codes' | 'expo';

/**
 * The upstream writes that change what a credential view shows. Order writes that change no
 * credential are not here: an order made, cancelled (unpaid: no e-ticket yet) or sent to the
 * cashier; a payment makes new e-tickets, whose codes no view has read before.
 */
export const VIEW_WRITES = {
  redeemCode: 'code',
  uploadHealth: 'code',
  deleteHealth: 'code',
  addExpoUserSite: 'code+lists',
  deleteExpoUserSite: 'code+lists',
  addBusUser: 'code+lists',
  cancelBusUser: 'code+lists',
  WxRefundJSAPIByOrderNo: 'codes',
  cancelRefundByOrderNo: 'codes',
  addUserInfo: 'expo',
  addExhiUserInfor: 'expo',
} as const satisfies Record<string, WriteDrop>;

export type ViewWrite = keyof typeof VIEW_WRITES;

/** An entry's identity: the upstream (its base URL), the read, the expo, the code (code scope), the rest of the params. */
export interface ViewKey {
  scope: string;
  read: SharedRead;
  expoId: number;
  euCode: string | null;
  key: string;
}

/**
 * The key of one read. A code-scoped read without a code, or an expo id that is not a positive
 * integer, is not shared (null): nothing is keyed on a guess.
 * @example viewKey('http://reference.invalid', 'queryCustomerCode', { expoId: 1308, euCode: 'AB12' })?.key
 *          // 'http://reference.invalid|queryCustomerCode|1308|AB12|'
 */
export function viewKey(scope: string, read: SharedRead, p: { expoId: number; euCode?: string; typeId?: number }): ViewKey | null {
  if (!Number.isSafeInteger(p.expoId) || p.expoId <= 0) return null;
  const euCode = SHARED_READS[read] === 'code' ? (p.euCode ?? '') : null;
  if (euCode === '') return null;
  const rest = p.typeId === undefined ? '' : `typeId=${p.typeId}`;
  return { scope, read, expoId: p.expoId, euCode, key: [scope, read, p.expoId, euCode ?? '', rest].join('|') };
}

/** Whether an entry written at `storedAt` (ms) may still answer at `now`. */
export function isFresh(storedAt: number, now: number, ttlMs = CREDENTIAL_VIEW_TTL_MS): boolean {
  return now >= storedAt && now - storedAt < ttlMs;
}

/**
 * Whether a write (on `expoId`, for `euCode` when it names one) drops an entry.
 * @example dropsEntry('redeemCode', 'S', { expoId: 1308, euCode: 'AB12' }, viewKey('S', 'queryCustomerCode', { expoId: 1308, euCode: 'AB12' })!) // true
 */
export function dropsEntry(write: ViewWrite, scope: string, p: { expoId: number; euCode?: string | undefined }, entry: ViewKey): boolean {
  if (entry.scope !== scope || entry.expoId !== p.expoId) return false;
  const drop = VIEW_WRITES[write];
  if (drop === 'expo') return true;
  if (entry.euCode === null) return drop === 'code+lists';
  if (drop === 'codes') return true;
  // A code write without its code (a malformed call) drops every code of the expo: never keep a stale answer.
  return p.euCode === undefined || entry.euCode === p.euCode;
}

/** Whether a read's answer is kept: only an upstream answer that is ok (a fault throws and is never kept). */
export function keepsAnswer(r: unknown): boolean {
  return typeof r === 'object' && r !== null && (r as { ok?: unknown }).ok === true;
}
