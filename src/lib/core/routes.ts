/**
 * The page routes of spec §2.3 as one table: a pathname resolves to the screen it names and
 * its parameters, or to null (the not-found page). Variant routes come from the variants
 * table (src/lib/core/variants.ts); this file adds the generic ones. Pages stay thin: they match,
 * then render the screen.
 */
import { decodeId, decodeNumericId, encodeId } from '../util/ids';
import { VARIANT_ROUTE_NAMES, variantByRoute, type Variant } from './variants';
import { NAMED_FORMS } from './named-forms';
import { SEAT_RESULT_PATHS } from './seat-paths';

export { SEAT_RESULT_PATHS };

/** The purchase screens (spec §2.3), by their first path segment. */
export type TicketScreen = 'ticket' | 'ticketForm' | 'ticketSuccess' | 'orderList' | 'orderDetails' | 'order';

/** The gate's screens (README "The gate"), for staff with a key: the scanner, the stats, the scans' CSV. */
export type GateScreen = 'scan' | 'stats' | 'csv';
const GATE_TAILS: Readonly<Record<string, GateScreen>> = { '': 'scan', stats: 'stats', 'scans.csv': 'csv' };

/** The shuttle bus screens (spec §2.3 `/bus`, `/busInfo`): the lines, and the holder's reservation. */
export type BusScreen = 'bus' | 'busInfo';

/** Lookup, list and home parameters: `/{name}/{fId}/{eid}/{ty}` (DESIGN.md "URL parameters"). */
export interface PathParams {
  /** customer url id, plain decimal */
  fId: number;
  /** expo id, decoded from the encoded `eid` segment */
  expoId: number;
  /** the encoded segment as it came (kept for links back) */
  eid: string;
  /** visitor type, passed through ('' when absent) */
  ty: string;
}

/** Credential parameters: `/{Variant}Success/{urlId}/{euCode}/{expoId}/{fId}` (spec §2.1). */
export interface SuccessParams {
  urlId: number;
  euCode: string;
  expoId: number;
  fId: number;
}

/**
 * The lvYun flavour of the generic lookup and its list (spec §2.3 `/lvYunSearch`, `/lvYunList`):
 * the same screens and proof by code; several matches go to `/lvYunList`, which shows each
 * registration's state.
 */
export type Flavour = 'lvYun';

/** Routes that answer a page saying what a legacy link lacks instead of a 404 (spec §2.3 "Others"). */
export type IncompleteRoute = 'lvYunSearch' | 'lvYunList' | 'article' | 'channel' | 'order' | FamilyRoute;
/** The haisi family's routes (src/lib/core/variants.ts), which answer without parameters too. */
export type FamilyRoute = `haisi${'' | 'Search' | 'Form' | 'Success'}${'' | 'En'}`;
/** What such a link lacks: the customer url id, the encoded expo id, the channel id. */
export type MissingPart = 'fId' | 'eid' | 'id';

/**
 * Shuttle bus parameters: `/{bus|busInfo}/{urlId}/{euCode}/{eid}/{fId}/{euUserId}` (spec §2.3): the
 * credential's four segments (urlId, euCode and eid encoded, fId plain) and the registration's
 * id, `euUserId` (plain decimal; an encoded one is read too).
 */
export interface BusParams extends SuccessParams {
  euUserId: number;
}

/** The parts of a bus link, in path order: a legacy link's missing ones are named on the page. */
export const BUS_PARTS = ['urlId', 'euCode', 'eid', 'fId', 'euUserId'] as const;
export type BusPart = (typeof BUS_PARTS)[number];

/** A bus link as read: its parameters when whole, else the parts missing or unreadable and the ids it did carry. */
export interface BusLink {
  params: BusParams | null;
  /** missing or unreadable parts, in path order (empty when `params` is set) */
  missing: BusPart[];
  /** the expo and customer url the link names, when readable (a lookup link for an incomplete one) */
  expoId: number | null;
  fId: number | null;
}

export type RouteMatch =
  | { screen: 'search'; variant: Variant | null; params: PathParams; flavour?: Flavour }
  | { screen: 'applyList'; variant: null; params: PathParams; flavour?: Flavour }
  /** the expo's articles (spec §2.3 `/article/{fId}/{eid}/{ty}`; `?page=` pages them) */
  | { screen: 'article'; variant: null; params: PathParams }
  /** a channel landing (spec §2.3 `/channel/{id}`; the expo comes from `?eid=`, spec §4) */
  | { screen: 'channel'; variant: null; id: number }
  /** a route of spec §2.3 reached by a link without its parameters: a page that says so */
  | { screen: 'incomplete'; /** a route family's row (its language), else null */ variant: Variant | null; route: IncompleteRoute; missing: MissingPart[] }
  | { screen: 'credential'; variant: Variant | null; params: SuccessParams }
  | { screen: 'form'; variant: Variant | null; route: string; rest: string[] }
  | { screen: 'home'; variant: null; params: PathParams; /** `/auto{path}`: the home reached through the §2.3 entry guard */ auto?: true }
  /** fixed landings of spec §2.3/§2.4: `/CMEF` (registration) and the Asia fashion show (src/lib/expo/home.ts FASHION_SHOW) */
  | { screen: 'landing'; variant: null; which: 'register' | 'fashion' }
  /** the seat lookup of 1128 and the seat-lookup variants (spec §2.4, §2.5; src/lib/seat/seats.ts): `/seat/{fId}/{eid}/{ty}` */
  | { screen: 'seat'; variant: null; params: PathParams }
  /** the seat results of spec §2.3: `/zuoweiSuccess?userName,companyName,seat` and `/successYeJinJi?…,expoId` */
  | { screen: 'seatResult'; variant: null; which: 'zuowei' | 'yejinji' }
  /** the purchase screens of spec §2.3: `/ticket`, `/ticketForm`, `/ticketSuccess`, `/orderList`, `/orderDetails` */
  | { screen: 'ticket'; variant: null; which: TicketScreen; params: PathParams }
  /** the shuttle bus of spec §2.3: `/bus/…` and `/busInfo/…`; an incomplete legacy link is a page that names what is missing */
  | { screen: 'bus'; variant: null; which: BusScreen; link: BusLink }
  /**
   * the gate (README "The gate"): `/gate/{eid}`, `/gate/{eid}/stats`, `/gate/{eid}/scans.csv`; a
   * family never shown to visitors (no guard rules, no share tags, never stored or indexed), and
   * without a valid staff key of the expo the not-found page
   */
  | { screen: 'gate'; variant: null; which: GateScreen; expoId: number; eid: string };

const DECIMAL = /^\d{1,12}$/;
/** Visitor types are short words; anything else in the segment is not one of our links. */
const TY = /^[A-Za-z0-9_-]{0,32}$/;

/** Parses `fId/eid[/ty]`; null when a part is invalid. */
export function parsePathParams(segments: readonly string[]): PathParams | null {
  const [fIdText, eid, ty = '', ...extra] = segments;
  if (extra.length > 0 || !fIdText || !eid || !DECIMAL.test(fIdText) || !TY.test(ty)) return null;
  const fId = Number(fIdText);
  const expoId = decodeNumericId(eid);
  if (fId <= 0 || expoId === null) return null;
  return { fId, expoId, eid, ty };
}

/** Parses `urlId/euCode/expoId/fId` (the first three encoded, fId plain); null when invalid. */
export function parseSuccessParams(segments: readonly string[]): SuccessParams | null {
  const [u, e, x, f, ...extra] = segments;
  if (extra.length > 0 || !u || !e || !x || !f || !DECIMAL.test(f)) return null;
  const urlId = decodeNumericId(u);
  const expoId = decodeNumericId(x);
  const euCode = decodeEuCode(e);
  const fId = Number(f);
  if (urlId === null || expoId === null || euCode === null || fId <= 0) return null;
  return { urlId, euCode, expoId, fId };
}

/**
 * Reads `urlId/euCode/eid/fId/euUserId`; more than five segments is not a bus link (null).
 * @example parseBusLink(['MjEzMDg', 'QUJD', 'MTMwOA', '21308']).missing // ['euUserId']
 */
export function parseBusLink(segments: readonly string[]): BusLink | null {
  if (segments.length > BUS_PARTS.length) return null;
  const [u, e, x, f, id] = segments;
  const urlId = u ? decodeNumericId(u) : null;
  const euCode = e ? decodeEuCode(e) : null;
  const expoId = x ? decodeNumericId(x) : null;
  const fId = f && DECIMAL.test(f) && Number(f) > 0 ? Number(f) : null;
  const euUserId = id ? decodeNumericId(id) : null;
  const read: Record<BusPart, unknown> = { urlId, euCode, eid: expoId, fId, euUserId };
  const missing = BUS_PARTS.filter((part) => read[part] === null);
  const whole = urlId !== null && euCode !== null && expoId !== null && fId !== null && euUserId !== null && euUserId > 0;
  return {
    params: whole ? { urlId, euCode, expoId, fId, euUserId } : null,
    missing: whole ? [] : missing.length > 0 ? missing : ['euUserId'],
    expoId,
    fId: fId ?? urlId,
  };
}

/** A registration code is short printable text; anything else is not one of our links. */
function decodeEuCode(segment: string): string | null {
  const text = decodeId(segment);
  return text !== null && /^[A-Za-z0-9_-]{1,64}$/.test(text) ? text : null;
}

/** Generic routes of spec §2.3 whose first segment is fixed. */
const GENERIC: Readonly<Record<string, (rest: string[]) => RouteMatch | null>> = {
  search: (rest) => withParams(rest, (params) => ({ screen: 'search', variant: null, params })),
  applyList: (rest) => withParams(rest, (params) => ({ screen: 'applyList', variant: null, params })),
  success: (rest) => {
    const params = parseSuccessParams(rest);
    return params && { screen: 'credential', variant: null, params };
  },
  form: (rest) => ({ screen: 'form', variant: null, route: 'form', rest }),
  // spec §2.3: /proving (verification first, when an activity is set) and /repairForm (expos 785, 1074).
  proving: (rest) => ({ screen: 'form', variant: null, route: 'proving', rest }),
  repairForm: (rest) => ({ screen: 'form', variant: null, route: 'repairForm', rest }),
  // spec §2.3: the entry guard sends expo 380's home to /auto{path} (src/lib/page/guard.ts).
  auto: (rest) => withParams(rest, (params) => ({ screen: 'home', variant: null, params, auto: true })),
  CMEF: (rest) => (rest.length === 0 ? { screen: 'landing', variant: null, which: 'register' } : null),
  AsiaFashionShow: (rest) => (rest.length === 0 ? { screen: 'landing', variant: null, which: 'fashion' } : null),
  seat: (rest) => withParams(rest, (params) => ({ screen: 'seat', variant: null, params })),
  zuoweiSuccess: (rest) => (rest.length === 0 ? { screen: 'seatResult', variant: null, which: 'zuowei' } : null),
  successYeJinJi: (rest) => (rest.length === 0 ? { screen: 'seatResult', variant: null, which: 'yejinji' } : null),
  // spec §2.3 "Others": the lvYun lookup and list (the generic screens, flavoured), the articles, the channel.
  lvYunSearch: orIncomplete('lvYunSearch', (params) => ({ screen: 'search', variant: null, params, flavour: 'lvYun' })),
  lvYunList: orIncomplete('lvYunList', (params) => ({ screen: 'applyList', variant: null, params, flavour: 'lvYun' })),
  article: orIncomplete('article', (params) => ({ screen: 'article', variant: null, params })),
  channel: (rest) => {
    const [id = '', ...extra] = rest;
    return DECIMAL.test(id) && Number(id) > 0 && extra.length === 0
      ? { screen: 'channel', variant: null, id: Number(id) }
      : { screen: 'incomplete', variant: null, route: 'channel', missing: DECIMAL.test(id) && Number(id) > 0 ? [] : ['id'] };
  },
  // spec §2.3: the named per-event forms (src/lib/core/named-forms.ts); a legacy link without any
  // path still matches, and its screen says what the link is missing.
  ...Object.fromEntries(NAMED_FORMS.map(({ route }) => [route, (rest: string[]): RouteMatch => ({ screen: 'form', variant: null, route, rest })])),
  ...Object.fromEntries(
    (['ticket', 'ticketForm', 'ticketSuccess', 'orderList', 'orderDetails', 'order'] as const).map((which) => [
      which,
      // spec §2.3: `/order` is where a verified buyer is sent; a link without its ids still answers a page.
      which === 'order'
        ? orIncomplete('order', (params) => ({ screen: 'ticket', variant: null, which, params }))
        : (rest: string[]) => withParams(rest, (params) => ({ screen: 'ticket', variant: null, which, params })),
    ]),
  ),
  gate: (rest) => {
    const [eid = '', tail = '', ...extra] = rest;
    const expoId = decodeNumericId(eid);
    const which = Object.hasOwn(GATE_TAILS, tail) ? GATE_TAILS[tail] : undefined;
    return expoId !== null && which !== undefined && extra.length === 0 ? { screen: 'gate', variant: null, which, expoId, eid } : null;
  },
  // spec §2.3: /bus and /busInfo (urlId, euCode, eid, fId, euUserId); an incomplete link still answers a page.
  ...Object.fromEntries(
    (['bus', 'busInfo'] as const).map((which) => [
      which,
      (rest: string[]) => {
        const link = parseBusLink(rest);
        return link && { screen: 'bus', variant: null, which, link };
      },
    ]),
  ),
};

/** Every first path segment with a route of its own (a decimal first segment is a home: `/{fId}/{eid}/{ty}`). */
export const ROUTE_NAMES: readonly string[] = [...Object.keys(GENERIC), ...VARIANT_ROUTE_NAMES];

/**
 * Whether a path's first segment names a page route of the site (a generic route or a variant's),
 * whatever the segments after it: what a log line may keep of a path (src/lib/ops/redact.ts).
 * @example isRouteName('IEAESuccess') // true
 * @example isRouteName('IWHBZIMYEOZETLFI') // false
 */
export function isRouteName(segment: string): boolean {
  return Object.hasOwn(GENERIC, segment) || variantByRoute(segment) !== null;
}

function withParams(rest: string[], make: (p: PathParams) => RouteMatch): RouteMatch | null {
  const params = parsePathParams(rest);
  return params && make(params);
}

/**
 * What a `fId/eid[/ty]` link lacks: the parts that are missing or unreadable (none when only
 * something else is wrong, e.g. a segment too many).
 * @example missingParts(['21308']) // ['eid']
 */
export function missingParts(segments: readonly string[]): MissingPart[] {
  const [fIdText = '', eid = ''] = segments;
  const missing: MissingPart[] = [];
  if (!DECIMAL.test(fIdText) || Number(fIdText) <= 0) missing.push('fId');
  if (decodeNumericId(eid) === null) missing.push('eid');
  return missing;
}

/** A route of spec §2.3 that answers a page whatever its link lacks (never a 404). */
function orIncomplete(route: IncompleteRoute, make: (p: PathParams) => RouteMatch): (rest: string[]) => RouteMatch {
  return (rest) => withParams(rest, make) ?? { screen: 'incomplete', variant: null, route, missing: missingParts(rest) };
}

/**
 * Whether a page holds the verified contact for the form's own, longer window (src/lib/lookup/
 * contact-cookie.ts FORM_WINDOW_S) rather than the 10 minutes after the proof: the registration
 * forms and the ticket buyer form, the two pages a visitor may need a while to fill in.
 * @example holdsFormWindow(matchRoute('/ticketForm/21216/MTIxNg/visitor')) // true
 */
export function holdsFormWindow(match: RouteMatch | null): boolean {
  return match?.screen === 'form' || (match?.screen === 'ticket' && match.which === 'ticketForm');
}

/**
 * Resolves a pathname to its screen; null means not found (404).
 * @example matchRoute('/IEAESearch/10542/MTMwOA/visitor')?.screen // 'search'
 */
export function matchRoute(pathname: string): RouteMatch | null {
  let segments: string[];
  try {
    segments = pathname.split('/').filter(Boolean).map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
  const [first, ...rest] = segments;
  if (!first) return null;
  const generic = GENERIC[first];
  if (generic) return generic(rest);
  if (DECIMAL.test(first)) return withParams(segments, (params) => ({ screen: 'home', variant: null, params }));
  const named = variantByRoute(first);
  if (!named) return null;
  // spec §2.3: a family's home, lookup and form also answer a link without parameters.
  if (named.variant.family && rest.length === 0) {
    // a credential link names its own four ids (not fId/eid/ty): the page lists none by name
    return { screen: 'incomplete', variant: named.variant, route: first as FamilyRoute, missing: named.kind === 'success' ? [] : missingParts(rest) };
  }
  switch (named.kind) {
    case 'home':
    case 'search':
      return withParams(rest, (params) => ({ screen: 'search', variant: named.variant, params }));
    case 'success': {
      const params = parseSuccessParams(rest);
      return params && { screen: 'credential', variant: named.variant, params };
    }
    case 'form':
    case 'extra':
      return { screen: 'form', variant: named.variant, route: first, rest };
  }
}

// ---- The inverse: every link of the site is built here (one place for URL shapes) ----

/** The ids a `/{name}/{fId}/{eid}/{ty}` path carries; `eid` is the canonical encoding of `expoId`. */
export interface PathIds {
  fId: number;
  expoId: number;
  /** '' for none */
  ty: string;
}

/** A page to link to: what {@link matchRoute} gives back for the path {@link routePath} builds. */
export type RouteTarget =
  | { screen: 'search'; variant: Variant | null; params: PathIds; flavour?: Flavour }
  | { screen: 'applyList'; params: PathIds; flavour?: Flavour }
  /** the articles; the caller adds `?page=` */
  | { screen: 'article'; params: PathIds }
  /** a channel landing of an expo: `/channel/{id}?eid=` */
  | { screen: 'channel'; id: number; expoId: number }
  | { screen: 'home'; params: PathIds; auto?: true }
  | { screen: 'credential'; variant: Variant | null; params: SuccessParams }
  /** a form route: `form`, `proving`, `repairForm`, or a variant's form and extra form routes */
  | { screen: 'form'; route: string; params: PathIds }
  | { screen: 'landing'; which: 'register' | 'fashion' }
  | { screen: 'seat'; params: PathIds }
  /** a purchase screen; the caller adds `?ticketId=` or `?orderNo=` */
  | { screen: 'ticket'; which: TicketScreen; params: PathIds }
  /** the caller adds the query (`userName`, `companyName`, `seat`, and `expoId` for yejinji) */
  | { screen: 'seatResult'; which: 'zuowei' | 'yejinji' }
  | { screen: 'bus'; which: BusScreen; params: BusParams }
  /** a route without its parameters (spec §2.3): the route's own name */
  | { screen: 'incomplete'; route: IncompleteRoute }
  /** a route family's home (spec §2.3 `/haisi`, `/haisiEn`): the family's lookup screen */
  | { screen: 'familyHome'; variant: Variant; params: PathIds }
  /** a gate screen of an expo (staff only) */
  | { screen: 'gate'; which: GateScreen; expoId: number };

const LANDINGS = { register: '/CMEF', fashion: '/AsiaFashionShow' } as const;

/** `{fId}/{eid}/{ty}`, each segment encoded; an empty type leaves no trailing segment. */
function idsPath(p: PathIds): string {
  return `/${p.fId}/${encodeId(p.expoId)}${p.ty ? `/${encodeURIComponent(p.ty)}` : ''}`;
}

/**
 * The path of a page: the inverse of {@link matchRoute}, so `matchRoute(routePath(t))` names
 * `t` again (tests/unit/routes.test.ts round-trips every variant and screen).
 * - a variant's credential ends in `/` (spec §2.1 `/{Variant}Success/…/{fId}/?f=`; the caller adds `?f=`).
 * @example routePath({ screen: 'search', variant: null, params: { fId: 21216, expoId: 1216, ty: 'visitor' } }) // '/search/21216/MTIxNg/visitor'
 */
export function routePath(target: RouteTarget): string {
  switch (target.screen) {
    case 'search':
      return `/${target.flavour ? `${target.flavour}Search` : (target.variant?.search ?? 'search')}${idsPath(target.params)}`;
    case 'applyList':
      return `/${target.flavour ? `${target.flavour}List` : 'applyList'}${idsPath(target.params)}`;
    case 'article':
      return `/article${idsPath(target.params)}`;
    case 'channel':
      return `/channel/${target.id}?eid=${encodeId(target.expoId)}`;
    case 'home':
      return `${target.auto ? '/auto' : ''}${idsPath(target.params)}`;
    case 'credential': {
      const { urlId, euCode, expoId, fId } = target.params;
      const ids = `/${encodeId(urlId)}/${encodeId(euCode)}/${encodeId(expoId)}/${fId}`;
      return target.variant ? `/${target.variant.success}${ids}/` : `/success${ids}`;
    }
    case 'form':
      return `/${encodeURIComponent(target.route)}${idsPath(target.params)}`;
    case 'landing':
      return LANDINGS[target.which];
    case 'seat':
      return `/seat${idsPath(target.params)}`;
    case 'ticket':
      return `/${target.which}${idsPath(target.params)}`;
    case 'seatResult':
      return SEAT_RESULT_PATHS[target.which];
    case 'bus': {
      const { urlId, euCode, expoId, fId, euUserId } = target.params;
      return `/${target.which}/${encodeId(urlId)}/${encodeId(euCode)}/${encodeId(expoId)}/${fId}/${euUserId}`;
    }
    case 'incomplete':
      return `/${encodeURIComponent(target.route)}`;
    case 'familyHome':
      return `/${target.variant.family?.home ?? target.variant.search}${idsPath(target.params)}`;
    case 'gate': {
      const tail = Object.entries(GATE_TAILS).find(([, w]) => w === target.which)?.[0] ?? '';
      return `/gate/${encodeId(target.expoId)}${tail ? `/${tail}` : ''}`;
    }
  }
}

// ---- The credential's QR image: the same encoded segments as the credential ----

/**
 * The path of a credential's QR code as a PNG: `/qr/{urlId}/{euCode}/{expoId}/{fId}.png`, the
 * credential's own segments and nothing else; `save` adds `?save=1` (an attachment download).
 * Its inverse is {@link matchQrImagePath}.
 * @example qrImagePath({ urlId: 21308, euCode: 'ABC', expoId: 1308, fId: 21308 }) // '/qr/MjEzMDg/QUJD/MTMwOA/21308.png'
 */
export function qrImagePath(params: SuccessParams, opts: { save?: boolean } = {}): string {
  const { urlId, euCode, expoId, fId } = params;
  return `/qr/${encodeId(urlId)}/${encodeId(euCode)}/${encodeId(expoId)}/${fId}.png${opts.save ? '?save=1' : ''}`;
}

/** The credential a QR image path names (a pathname, no query), or null when it is not one. */
export function matchQrImagePath(pathname: string): SuccessParams | null {
  const m = /^\/qr\/([^/]+)\/([^/]+)\/([^/]+)\/(\d{1,12})\.png$/.exec(pathname);
  return m ? parseSuccessParams(m.slice(1)) : null;
}

/**
 * The path of a credential's Apple Wallet pass: `/pass/{urlId}/{euCode}/{expoId}/{fId}.pkpass`,
 * the same segments as the QR image and nothing else. Its inverse is {@link matchPassPath}.
 * @example passPath({ urlId: 21308, euCode: 'ABC', expoId: 1308, fId: 21308 }) // '/pass/MjEzMDg/QUJD/MTMwOA/21308.pkpass'
 */
export function passPath(params: SuccessParams): string {
  const { urlId, euCode, expoId, fId } = params;
  return `/pass/${encodeId(urlId)}/${encodeId(euCode)}/${encodeId(expoId)}/${fId}.pkpass`;
}

/** The credential a pass path names (a pathname, no query), or null when it is not one. */
export function matchPassPath(pathname: string): SuccessParams | null {
  const m = /^\/pass\/([^/]+)\/([^/]+)\/([^/]+)\/(\d{1,12})\.pkpass$/.exec(pathname);
  return m ? parseSuccessParams(m.slice(1)) : null;
}
