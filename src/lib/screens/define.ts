/**
 * One declared screen (issue 32), as src/lib/actions/outcome.ts `defineAction` is for posts:
 * everything the page pipeline and the page file need to know of a screen, in the screen's own
 * module. The table of them is src/lib/screens/index.ts `SCREENS`; src/middleware.ts and
 * src/pages/[route]/[...params].astro run generic steps driven by it and name no screen.
 * Adding a screen is one module here (its loader and this declaration), one component
 * (src/components/screens, named by the declaration), one route row (src/lib/core/routes.ts) and their tests.
 * Pure: no Astro, React or Hono.
 */
import type { RouteMatch, SuccessParams } from '../core/routes';
import type { Feature } from '../page/permissions-policy';
import type { GateStaff } from '../gate/keys';
import type { GateStatsPort } from './gate';
import type { CredentialRead } from './credential';
import type { ScreenPage, ScreenPorts } from './page';

/** A screen's name: the `screen` of its route matches (src/lib/core/routes.ts). */
export type ScreenName = RouteMatch['screen'];
/** The route match of one screen. */
export type MatchOf<S extends ScreenName> = Extract<RouteMatch, { screen: S }>;

/** What the pipeline gives the loaders beyond the page and the upstream. */
export interface ScreenDeps {
  /** the credential page's registration, read through the unknown-code cache and the miss limit */
  credential: () => Promise<CredentialRead>;
  /** the key the seat results are signed with */
  secret: string;
  /** the gate routes' staff key of the expo, checked (null: none, so the gate is not found) */
  gateStaff?: GateStaff | null;
  /** the gate's stats call (its refusal code) */
  gateStats?: GateStatsPort;
}

/**
 * What the page pipeline prepares for a screen before its loader runs (src/middleware.ts), each
 * only where declared: it costs an upstream call, a secret or a database read.
 */
export interface Prepare<S extends ScreenName> {
  /**
   * the credential this page shows, read through the unknown-code cache and the per-address miss
   * limit, its reads shared by every view of the same credential in the isolate (functions/credential-lookup.ts)
   */
  credential?: (match: MatchOf<S>) => SuccessParams;
  /** the messaging app's share card (spec §4 "Type admin triggers a share-signature fetch"): the page has share tags */
  shareCard?: true;
  /** the Turnstile widget for a visitor with a wait ticket (README "Security and limits") */
  challenge?: true;
  /** the expo whose staff key (its cookie, checked against the STAFF database) the screen needs (README "The gate") */
  gateStaff?: (match: MatchOf<S>) => number;
  /** the wallet links of a credential (README "Wallet passes"): Apple's pass path, Google's signed save link */
  wallet?: true;
  /** the pledge's signed ticket (spec §2.5), for a page that may show the pledge gate */
  pledgeTicket?: true;
}

/** One screen, declared once. */
export interface Screen<S extends ScreenName, D extends { kind: string }> {
  name: S;
  /** the screen's data for a match, or null (a loader's own "nothing here") */
  load(match: MatchOf<S>, page: ScreenPage, ports: ScreenPorts, deps: ScreenDeps): D | null | Promise<D | null>;
  /**
   * the page always shows personal data, or needs a verified contact to show anything: never
   * stored, never indexed (src/lib/page/policy.ts)
   */
  personal: boolean;
  /** features every other page denies that this screen's page allows to this origin, by its data (src/lib/page/permissions-policy.ts) */
  allow?(data: D): readonly Feature[];
  /**
   * the flash rule: request cookies that make the page count as showing flashed values (so it is
   * not stored, src/lib/page/policy.ts), beside the flash itself
   */
  flashCookies?: readonly string[];
  /** a match whose loader finds no data (null) is the not-found page, not an empty page */
  missingIsNotFound: boolean;
  /** the page is a registration form: an ended expo sends it on (spec §4 "Expo end time passed", src/lib/expo/config-apply.ts) */
  formPage?: true;
  /**
   * the component that renders each kind of its data: a file of src/components/screens, by name
   * (src/components/screens/Screen.astro renders it; tests/unit/screens-table.test.ts checks the files)
   */
  components: { readonly [K in D['kind']]: `${string}Screen` };
  /** what the pipeline prepares for it */
  prepare: Prepare<S>;
  /** a page whose data says it belongs elsewhere: the path to send it to (303), or null */
  redirect?(data: D): string | null;
}

/** Declares a screen (an identity function that keeps the types). */
export function defineScreen<S extends ScreenName, D extends { kind: string }>(screen: Screen<S, D>): Screen<S, D> {
  return screen;
}
