/**
 * The navigation guard of spec §4 ("Navigation guard") and §2.3 (the `/auto` entry guard), as
 * a list of small rules: each a predicate over what the request shows (`when`) and an outcome
 * (`then`), tried in order; the first outcome wins, and no outcome means the page renders.
 * The edge runs it before a page is rendered (functions/middleware/guard.ts); what it needs from
 * the upstream comes in as ports, so every rule is tested on its own (tests/unit/guard.test.ts).
 * Pure: no Astro, React or Hono.
 *
 * Spec §2.3: "a failed navigation is swallowed silently": a rule whose upstream call fails
 * lets the page render (except silent login, whose failure has its own outcome).
 */
import { inMessagingApp } from './user-agent';
import { decodeNumericId } from '../util/ids';
import { formPath, successPath } from '../lookup/lookup';
import { matchRoute, parsePathParams, type RouteMatch } from '../core/routes';
import { variantByExpoId } from '../core/variants';
import { endedOutcome } from '../expo/config-apply';
import { exposWith } from '../expo/expos';
import { lookupValues, type VerifiedContact } from '../lookup/contact-cookie';

// ---- What the guard knows about a page ----

/** How the guard sees a page. */
export type PageKind =
  /** `/{fId}/{eid}/{ty}` */
  | 'home'
  /** the generic lookup `/search/...` */
  | 'search'
  /** any registration form: `/form/...`, `/{Variant}Form/...` and the variants' extra forms */
  | 'form'
  /** ticket and order pages: they need the verified contact */
  | 'ticket'
  | 'other';

export interface PageInfo {
  /** the first path segment ('' for the root) */
  route: string;
  kind: PageKind;
  /** true for `/form/...` itself (not a variant's form) */
  genericForm: boolean;
  /** landing, seat-query and urgent-query success pages: no checks (spec §4) */
  skip: boolean;
  /** messaging-app pages that load no form config (spec §4: haisi, subyexhi, channel) */
  noConfig: boolean;
  expoId: number | null;
  fId: number | null;
  /** visitor type ('' when absent) */
  ty: string;
  /** the page's parameters as a path: `/{fId}/{eid}/{ty}` ('' when it has none) */
  basePath: string;
}

/** Landing, seat-query and urgent-query success pages skip every check (spec §4, §2.3). */
export const SKIP_ROUTES: ReadonlySet<string> = new Set(['CMEF', 'zuoweiSuccess', 'successYeJinJi']);
/** Staff pages (README "The gate"): none of the visitor rules apply (no login, no redirects, no config). */
export const STAFF_ROUTES: ReadonlySet<string> = new Set(['gate']);
/** Pages that load no form config (spec §4). */
export const NO_CONFIG_ROUTES: ReadonlySet<string> = new Set(['haisi', 'haisiEn', 'subyexhi', 'channel']);
/** Ticket and order pages (spec §2.3, §4): without the verified contact they go to the form. */
export const TICKET_ROUTES: ReadonlySet<string> = new Set([
  'ticket',
  'ticketForm',
  'order',
  'orderList',
  'orderDetails',
  'ticketSuccess',
]);

/**
 * Expos whose home (and generic lookup) goes to `/auto{path}` (spec §2.3 last bullet: "the
 * decoded expo id in eid is 380 on the home screen, or equals the expo id in one other
 * variant"). Our reading of "one other variant": the same expo's generic lookup
 * `/search/{path}`, the other screen a shared link of that expo opens.
 */
export const AUTO_EXPO_IDS: ReadonlySet<number> = exposWith('autoHome');
/** Expos whose pages go to the form once the expo has ended (spec §4: 1042). */
const ENDED_GOES_TO_FORM: ReadonlySet<number> = exposWith('endedGoesToForm');
/** Query values the `/auto` redirect drops (spec §2.3). */
const AUTO_DROPPED_QUERY = ['code', 'state'] as const;

function decodeSegments(pathname: string): string[] | null {
  try {
    return pathname
      .split('/')
      .filter(Boolean)
      .map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
}

/**
 * Reads a page URL the way the guard needs it (the route match given when the caller has it). The expo id comes from the path parameters
 * (channel: its id parameter), else from the query's `eid` (spec §4).
 */
export function pageInfo(url: URL, match: RouteMatch | null = matchRoute(url.pathname)): PageInfo {
  const segments = decodeSegments(url.pathname) ?? [];
  const [route = '', ...rest] = segments;
  const params =
    match?.screen === 'home'
      ? match.params
      : match?.screen === 'search' || match?.screen === 'applyList'
        ? match.params
        : parsePathParams(rest);
  let expoId: number | null = params?.expoId ?? (match?.screen === 'credential' ? match.params.expoId : null);
  // spec §4 names the channel's id param as its expo; our channel id names a channel (src/lib/core/routes.ts),
  // so the query's eid comes first and the id param stands in only for a legacy link without it.
  if (route === 'channel') expoId = decodeNumericId(url.searchParams.get('eid')) ?? decodeNumericId(rest[0]);
  expoId ??= decodeNumericId(url.searchParams.get('eid'));
  const kind: PageKind =
    match?.screen === 'home' && !match.auto
      ? 'home'
      : match?.screen === 'search' && match.variant === null && match.flavour === undefined
        ? 'search'
        : match?.screen === 'form'
          ? 'form'
          : TICKET_ROUTES.has(route)
            ? 'ticket'
            : 'other';
  const baseSegments = match?.screen === 'home' && !match.auto ? segments : rest;
  return {
    route,
    kind,
    genericForm: match?.screen === 'form' && match.route === 'form',
    skip: SKIP_ROUTES.has(route) || STAFF_ROUTES.has(route),
    noConfig: NO_CONFIG_ROUTES.has(route),
    expoId,
    fId: params?.fId ?? null,
    ty: params?.ty ?? url.searchParams.get('ty') ?? '',
    basePath: baseSegments.length > 0 ? `/${baseSegments.map(encodeURIComponent).join('/')}` : '',
  };
}

// ---- Facts, ports, outcomes ----

/** What the request shows. */
export interface GuardFacts {
  url: URL;
  page: PageInfo;
  userAgent: string;
  /** a valid verified-contact cookie (`vc`) for this expo */
  hasVerifiedContact: boolean;
  /** without one: the contact of a genuine proof of this expo whose window for the page has passed (it proves nothing) */
  lapsed?: VerifiedContact | null;
  /** the messaging-app openid kept in a cookie, or null */
  openId: string | null;
  /** the upstream has messaging-app calls (the reference upstream has none) */
  loginAvailable: boolean;
  /** a silent login failed a moment ago (no new authorisation round: it would loop) */
  loginFailedRecently: boolean;
  /** ms */
  now: number;
}

/** The form config fields the guard reads (spec §3). */
export interface GuardConfig {
  activity: boolean;
  /** customerWx.successfulUrl: where a visitor the silent login knows goes (spec §3 store value `succUrl`, §4) */
  successfulUrl?: string | null;
  isUserClass: number | null;
  endTime: string | null;
}

/** The silent-login exchange's answer (spec §3 "Silent-login response"). */
export interface SilentLogin {
  /** 1: the visitor has a registration (`user`) */
  code: number | null;
  openId: string | null;
  /** the registration code (euCode) */
  user: string | null;
  /** expo id */
  expo: number | null;
  /** customer url id (urlsId) */
  wx: number | null;
}

/** What the guard may ask the upstream; each may throw or answer null (then: see the rule). */
export interface GuardPorts {
  /** the page's form config (loaded at most once per request) */
  config(): Promise<GuardConfig | null>;
  /** the messaging app's app id for the expo, or null when it has none */
  appId(): Promise<string | null>;
  /** exchanges a login code (spec §4 silent login) */
  silentLogin(code: string): Promise<SilentLogin | null>;
}

/** What the guard decides. `openId`: a string sets the cookie, null clears it, absent leaves it. */
export type GuardOutcome =
  | { kind: 'proceed' }
  | {
      kind: 'redirect';
      location: string;
      openId?: string | null;
      loginFailed?: true;
      /** the organiser's own success URL (an absolute http(s) URL, checked by `successUrl`), not a path of this site */
      external?: true;
      /** what the target page says and fills in (the flash of src/lib/page/flash.ts, for `location` only) */
      notice?: { key: string; values: Record<string, string> };
    };

export interface GuardRule {
  /** a short name, for tests and logs */
  name: string;
  when(facts: GuardFacts): boolean;
  /** the outcome, or null: try the next rule */
  then(facts: GuardFacts, ports: GuardPorts): GuardOutcome | null | Promise<GuardOutcome | null>;
  /** the outcome when `then` throws; default: the page renders (spec §2.3) */
  onError?(facts: GuardFacts): GuardOutcome;
}

const PROCEED: GuardOutcome = { kind: 'proceed' };
const redirect = (
  location: string,
  more: Omit<Extract<GuardOutcome, { kind: 'redirect' }>, 'kind' | 'location'> = {},
): GuardOutcome => ({
  kind: 'redirect',
  location,
  ...more,
});

/**
 * The page's path and query without the given query values. The path is rebuilt from its
 * segments, never copied raw: a request for `//evil.com/x` must not come back as a redirect to
 * `//evil.com/x`, which a browser reads as another host.
 * @example pathWithout(new URL('https://s//evil.com/x?eid=1&code=2'), ['code']) // '/evil.com/x?eid=1'
 */
export function pathWithout(url: URL, drop: readonly string[]): string {
  const u = new URL(url.href);
  for (const k of drop) u.searchParams.delete(k);
  const segments = decodeSegments(u.pathname) ?? [];
  return `/${segments.map(encodeURIComponent).join('/')}${u.search}`;
}


/** The messaging app's OAuth page (spec §2.5 last bullet: scope base, current URL without `code`). */
export function oauthUrl(appId: string, returnTo: string): string {
  const q = new URLSearchParams({
    appid: appId,
    redirect_uri: returnTo,
    response_type: 'code',
    scope: 'snsapi_base',
    state: 'STATE',
  });
  return `https://open.weixin.qq.com/connect/oauth2/authorize?${q.toString()}#wechat_redirect`;
}

/** An app id is a short token; anything else from the upstream is not used in a URL. */
const APP_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The organiser's success URL (customerWx.successfulUrl, spec §3 `succUrl`) when it is an
 * absolute http(s) URL of at most 2048 characters (spec §4 "If status equals 1 the user is
 * pushed to the success URL"); anything else is null, and the visitor gets the credential page.
 * @example successUrl(' https://expo.example/thanks ') // 'https://expo.example/thanks'
 * @example successUrl('javascript:alert(1)') // null
 */
export function successUrl(value: string | null | undefined): string | null {
  const v = value?.trim() ?? '';
  if (v.length === 0 || v.length > 2048) return null;
  try {
    const u = new URL(v);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '' ? u.href : null;
  } catch {
    return null;
  }
}

const isExhibitor = (f: GuardFacts) => f.page.ty === 'exhibitor';
const loginCode = (f: GuardFacts) => f.url.searchParams.get('code')?.trim() ?? '';

// ---- The rules, in order ----

export const GUARD_RULES: readonly GuardRule[] = [
  {
    // spec §4: "registration landing, seat-query and urgent-query success pages skip checks"
    name: 'skip-page',
    when: (f) => f.page.skip,
    then: () => PROCEED,
  },
  {
    // Not an expo page (root, 404, static): nothing to check.
    name: 'no-expo',
    when: (f) => f.page.expoId === null,
    then: () => PROCEED,
  },
  {
    // spec §4: "Ticket and order pages without stored phone or e-mail redirect to the base form
    // path". Issue 11 (which stands over the spec, DESIGN.md): the visitor proves the contact
    // with the lookup's code step and comes back (`next`, src/lib/tickets/paths.ts).
    name: 'ticket-needs-contact',
    when: (f) => f.page.kind === 'ticket' && !f.hasVerifiedContact,
    // A proof that ran out (issue 30): the lookup says so, with the contact filled in.
    then: (f) =>
      redirect(
        `/search${f.page.basePath}?next=${encodeURIComponent(pathWithout(f.url, []))}`,
        f.lapsed ? { notice: { key: 'search.proofExpired', values: lookupValues(f.lapsed) } } : {},
      ),
  },
  {
    // spec §2.3: home of expo 380 (and its generic lookup) → /auto{path} ({path} = `/{fId}/{eid}/{ty}`), without code and state
    name: 'auto',
    when: (f) => (f.page.kind === 'home' || f.page.kind === 'search') && AUTO_EXPO_IDS.has(f.page.expoId ?? -1),
    then: (f) => {
      const kept = new URL(
        `${f.page.basePath}${new URL(pathWithout(f.url, AUTO_DROPPED_QUERY), f.url.origin).search}`,
        f.url.origin,
      );
      return redirect(`/auto${kept.pathname}${kept.search}`);
    },
  },
  {
    // spec §4: "query code without openid is exchanged; failure clears openid and code and
    // redirects to base path; result code 1 with a user goes to success page; openid without
    // user clears code and redirects". Visitor type exhibitor skips messaging-app login.
    // spec §4 "If status equals 1 the user is pushed to the success URL": our reading is that
    // `status` (spec §3 store value) is this reply's code 1 and `succUrl` the config's
    // successfulUrl: with an http(s) successfulUrl the visitor goes there instead.
    name: 'silent-login',
    when: (f) => f.loginAvailable && loginCode(f) !== '' && f.openId === null && !isExhibitor(f),
    then: async (f, ports) => {
      const clean = pathWithout(f.url, ['code', 'state']);
      const r = await ports.silentLogin(loginCode(f));
      if (!r?.openId) return redirect(clean, { openId: null, loginFailed: true });
      if (r.code === 1 && r.user && r.expo !== null && r.wx !== null) {
        const organiser = successUrl((await ports.config().catch(() => null))?.successfulUrl);
        if (organiser) return redirect(organiser, { openId: r.openId, external: true });
        const success = successPath({
          variant: variantByExpoId(r.expo),
          urlId: r.wx,
          euCode: r.user,
          expoId: r.expo,
          fId: f.page.fId ?? r.wx,
        });
        return redirect(success, { openId: r.openId });
      }
      return redirect(clean, { openId: r.openId });
    },
    onError: (f) => redirect(pathWithout(f.url, ['code', 'state']), { openId: null, loginFailed: true }),
  },
  {
    // spec §2.5, §4: inside the messaging app, without openid or code, start its OAuth (scope
    // base) when the upstream gives an app id; exhibitors skip it.
    name: 'oauth',
    when: (f) =>
      f.loginAvailable &&
      inMessagingApp(f.userAgent) &&
      f.openId === null &&
      loginCode(f) === '' &&
      !f.loginFailedRecently &&
      !isExhibitor(f),
    then: async (f, ports) => {
      const appId = (await ports.appId())?.trim() ?? '';
      if (!APP_ID.test(appId)) return null;
      const returnTo = new URL(pathWithout(f.url, ['code', 'state']), f.url.origin).href;
      return redirect(oauthUrl(appId, returnTo));
    },
  },
  {
    // spec §4 "Expo end time passed": expo 1042 goes to /form/{path} unless already on a form.
    name: 'ended-form',
    when: (f) => ENDED_GOES_TO_FORM.has(f.page.expoId ?? -1) && f.page.kind !== 'form' && !f.page.noConfig,
    then: async (f, ports) => {
      const config = await ports.config();
      const outcome = endedOutcome({ expoId: f.page.expoId ?? -1, endTime: config?.endTime, now: f.now, onFormPage: false });
      return outcome.kind === 'redirect-form' ? redirect(formPath(null, f.page.basePath)) : null;
    },
  },
  {
    // spec §4: for Home, Search, Form and similar, "/form if type is exhibitor".
    name: 'exhibitor-form',
    when: (f) => isExhibitor(f) && (f.page.kind === 'home' || f.page.kind === 'search'),
    then: (f) => redirect(formPath(null, f.page.basePath)),
  },
  {
    // spec §4: "go to /proving if activity set". Applied to the generic registration form
    // only: the lookup must stay reachable for visitors of an expo with an activity, and the
    // home's register button already leads to /proving (spec §2.4).
    name: 'activity-proving',
    when: (f) => f.page.genericForm && !f.page.noConfig && !isExhibitor(f),
    then: async (f, ports) => ((await ports.config())?.activity ? redirect(`/proving${f.page.basePath}`) : null),
  },
];

/**
 * Runs the rules in order; the first outcome wins. A rule that throws gives its `onError`
 * outcome, else the page renders.
 */
export async function runGuard(
  facts: GuardFacts,
  ports: GuardPorts,
  rules: readonly GuardRule[] = GUARD_RULES,
): Promise<GuardOutcome & { rule: string | null }> {
  for (const rule of rules) {
    if (!rule.when(facts)) continue;
    let outcome: GuardOutcome | null;
    try {
      outcome = await rule.then(facts, ports);
    } catch {
      outcome = rule.onError ? rule.onError(facts) : PROCEED;
    }
    if (outcome) return { ...outcome, rule: rule.name };
  }
  return { ...PROCEED, rule: null };
}

/** Memoises a port so a request asks the upstream at most once. */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= load());
}
