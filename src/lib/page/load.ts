/**
 * What one page request needs before any screen renders ("one request-scoped loader"):
 * which config it loads (expo, customer url, type from the route match) and what that config
 * does to the page (spec §4 "Config application" and "Expo end time passed"): the language,
 * the document title, the image, the expo's name and the ended notice. src/middleware.ts runs
 * this once per request and puts the result on `Astro.locals.page`; the layout applies it, so
 * every screen (home, lookups, forms, credential, list, and later ones) applies it the same way.
 * Pure: no Astro, React or Hono.
 */
import { endedOutcome, pageImage, pageLang, type EndedOutcome, type LangDecision } from '../expo/config-apply';
import { expoName } from '../expo/view';
import { resolveFormPage } from '../form/page';
import type { Lang } from '../core/languages';
import { holdsFormWindow, matchRoute, type RouteMatch } from '../core/routes';
import { seatLookupOf } from '../seat/seats';
import { pageInfo, type PageInfo } from './guard';
import { lapsedContact, verifyContact, type VerifiedContact } from '../lookup/contact-cookie';
import { organiserTitle } from './titles';

/** The `getCustomerId` parameters of a page: expo, customer url id, visitor type. */
export interface ConfigKey {
  expoId: number;
  fId: number;
  ty: string;
}

/**
 * The config a route's screen shows. The credential's url id is its `urlId` (spec §2.1
 * `/{Variant}Success/{urlId}/{euCode}/{expoId}/{fId}`); a form's is its own path's; landings
 * load none.
 * @example configKey(matchRoute('/IEAESearch/21308/MTMwOA/visitor')!) // { expoId: 1308, fId: 21308, ty: 'visitor' }
 */
export function configKey(match: RouteMatch, query: URLSearchParams = new URLSearchParams()): ConfigKey | null {
  switch (match.screen) {
    case 'search':
    case 'applyList':
    case 'home':
    case 'seat':
    case 'ticket':
      return { expoId: match.params.expoId, fId: match.params.fId, ty: match.params.ty };
    case 'credential':
      return { expoId: match.params.expoId, fId: match.params.urlId, ty: '' };
    case 'form': {
      const page = resolveFormPage(match.route, match.rest, match.variant);
      return page && { expoId: page.params.expoId, fId: page.params.fId, ty: page.params.ty };
    }
    case 'article':
      return { expoId: match.params.expoId, fId: match.params.fId, ty: match.params.ty };
    case 'bus': {
      // the credential's url, like the credential page; an incomplete link: whatever url it names
      const { params, expoId, fId } = match.link;
      if (params) return { expoId: params.expoId, fId: params.urlId, ty: '' };
      return expoId !== null && fId !== null ? { expoId, fId, ty: '' } : null;
    }
    // a seat result carries its lookup's url (signed with it): the event's name and banner, as on the lookup
    case 'seatResult': {
      const lookup = seatLookupOf(query, match.which);
      return lookup && { expoId: lookup.expoId, fId: lookup.fId, ty: 'visitor' };
    }
    // spec §4: the channel page loads no form config; an incomplete link names no config.
    case 'channel':
    case 'incomplete':
    case 'landing':
    // the gate is staff's: no organiser config, no visitor page state
    case 'gate':
      return null;
  }
}

/** The config fields the application reads (customerWx and expoInfo of spec §3). */
export interface AppliedConfigInput {
  customerWx?: {
    id?: number | null;
    signType?: number | null;
    languageType?: number | null;
    formTitle?: string | null;
    pcBackground?: string | null;
    headImgUrl?: string | null;
  } | null;
  expoInfo?: {
    exhiName?: string | null;
    exhiNameEn?: string | null;
    showLogo?: string | null;
    endTime?: string | null;
  } | null;
}

/** What the config does to a page. */
export interface PageView {
  /** the language decision (forced or the visitor's) */
  lang: LangDecision;
  /** the organiser's document title (`formTitle`), or null: the screen's own title then */
  formTitle: string | null;
  /** the page image: pcBackground, else headImgUrl, else showLogo (spec §4) */
  image: string | null;
  /** the expo's name in the page language */
  name: string | null;
  /** the ended outcome (spec §4): a notice, 1042's form redirect (the guard's), or none */
  ended: EndedOutcome;
}

/**
 * Applies a loaded config (or none) to a page.
 * @param cookieLang the visitor's `_h5_lang`, or null when they have none
 * @example applyConfig({ key: { expoId: 1308, fId: 21308, ty: '' }, config: {}, cookieLang: 'en', now: 0, onFormPage: false }).lang.lang // 'zh'
 */
export function applyConfig(input: {
  key: ConfigKey | null;
  config: AppliedConfigInput | null;
  cookieLang: Lang | null;
  now: number;
  onFormPage: boolean;
  /** the language the route itself forces (spec §2.3 the haisi family: src/lib/expo/haisi.ts), or none */
  routeLang?: Lang | null | undefined;
  /**
   * the page skips the checks (src/lib/page/guard.ts PageInfo.skip: spec §4 "registration landing,
   * seat-query and urgent-query success pages skip checks"): the expo-ended check too, though a
   * seat result loads its lookup's config for the name and banner (issue 23 review)
   */
  skipsChecks?: boolean | undefined;
}): PageView {
  const { key, config, cookieLang } = input;
  const wx = config?.customerWx ?? null;
  const info = config?.expoInfo ?? null;
  const lang: LangDecision = input.routeLang
    ? { lang: input.routeLang, forced: true, reason: 'route' }
    : key
      ? pageLang({ expoId: key.expoId, wx, cookieLang })
      : { lang: cookieLang ?? 'zh', forced: false, reason: 'visitor' };
  return {
    lang,
    // spec §4 formTitle, only where the page is in its language (src/lib/page/titles.ts).
    formTitle: organiserTitle(wx, lang.lang),
    image: pageImage(wx, info),
    name: expoName(info, lang.lang),
    ended: key && input.skipsChecks !== true
      ? endedOutcome({ expoId: key.expoId, endTime: info?.endTime, now: input.now, onFormPage: input.onFormPage })
      : { kind: 'none' },
  };
}

/**
 * The first step of every page request, shared by the navigation guard and the screens: the
 * route matched once, the page read the way the guard reads it, and the verified contact
 * (cookie `vc`) checked once. A registration or ticket form reads the contact for its own, longer
 * window (src/lib/lookup/contact-cookie.ts); every other page for 10 minutes after the proof.
 */
export interface PageStart {
  match: RouteMatch | null;
  /** the config the page loads, or null (no config: root, landings, 404, an unknown form) */
  key: ConfigKey | null;
  /** the page as the guard's rules read it */
  info: PageInfo;
  /** the contact the visitor proved with a code, any expo; null when none or not valid */
  contact: VerifiedContact | null;
  /**
   * on a purchase page without a valid one: the contact of a genuine cookie whose window for
   * this page has passed (src/lib/lookup/contact-cookie.ts lapsedContact), so the lookup can say
   * why it needs a new code; it proves nothing
   */
  lapsed: VerifiedContact | null;
}

/**
 * @example (await startPage(new URL('https://x/ticket/21308/MTMwOA/visitor'), undefined, secret, Date.now())).info.kind // 'ticket'
 */
export async function startPage(url: URL, contactCookie: string | undefined, secret: string, now: number): Promise<PageStart> {
  const match = matchRoute(url.pathname);
  const use = holdsFormWindow(match) ? 'register' : 'read';
  const contact = contactCookie ? await verifyContact(contactCookie, secret, now, use).catch(() => null) : null;
  // only the purchase pages say so (the guard's ticket-needs-contact): no other page pays for a second check
  const lapsed = contactCookie && !contact && match?.screen === 'ticket' ? await lapsedContact(contactCookie, secret, now, use).catch(() => null) : null;
  return { match, key: match ? configKey(match, url.searchParams) : null, info: pageInfo(url, match), contact, lapsed };
}
