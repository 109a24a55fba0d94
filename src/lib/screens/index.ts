/**
 * The screens, declared once each (src/lib/screens/define.ts `defineScreen`), as one table by
 * the `screen` of a route match (src/lib/core/routes.ts): the page pipeline (src/middleware.ts)
 * prepares what a screen's declaration asks for and runs its loader once, after the guard and
 * the config; the page (src/pages/[route]/[...params].astro) applies its policy and renders
 * the component it names (src/components/screens/Screen.astro). A new screen is a row.
 * Pure over the upstream ports.
 */
import type { RouteMatch } from '../core/routes';
import { applyListScreen } from './apply-list';
import { articleScreen } from './articles';
import { busScreen } from './bus';
import { channelScreen } from './channel';
import { credentialScreen } from './credential';
import type { MatchOf, Screen, ScreenDeps, ScreenName } from './define';
import { formScreen } from './form';
import { gateScreen } from './gate';
import { homeScreen } from './home';
import { incompleteScreen } from './incomplete';
import { landingScreen } from './landing';
import type { ScreenPage, ScreenPorts } from './page';
import { searchScreen } from './search';
import { seatResultScreen, seatScreen } from './seat';
import { ticketScreen } from './tickets';

/** Every screen by name; the type refuses a route's screen without its row, and a row under another name. */
export const SCREENS = {
  search: searchScreen,
  credential: credentialScreen,
  applyList: applyListScreen,
  article: articleScreen,
  channel: channelScreen,
  incomplete: incompleteScreen,
  form: formScreen,
  home: homeScreen,
  landing: landingScreen,
  seat: seatScreen,
  seatResult: seatResultScreen,
  ticket: ticketScreen,
  bus: busScreen,
  gate: gateScreen,
} as const satisfies { [S in ScreenName]: Screen<S, { kind: string }> };

type Table = typeof SCREENS;
/** What a screen's loader gives (null aside). */
type DataOf<S extends ScreenName> = NonNullable<Awaited<ReturnType<Table[S]['load']>>>;

/** The data of any screen, from the table: a screen's component renders the member of its `kind`. */
export type ScreenData = { [S in ScreenName]: DataOf<S> }[ScreenName];

/** A screen's declaration, its types widened so generic steps may read any row. */
export type AnyScreen = Screen<ScreenName, ScreenData> & {
  prepare: {
    credential?: (match: RouteMatch) => MatchOf<'credential'>['params'];
    gateStaff?: (match: RouteMatch) => number;
  };
};

/**
 * The declaration of a match's screen.
 * @example screenOf(matchRoute('/gate/MTMwOA')!).missingIsNotFound // true
 */
export function screenOf(match: RouteMatch): AnyScreen {
  return SCREENS[match.screen] as unknown as AnyScreen;
}

/**
 * The data of the matched screen, or null (no route, or the loader found nothing).
 * @example (await loadScreen(matchRoute('/ticket/21308/MTMwOA/visitor'), page, ports, deps))?.kind // 'ticketList'
 */
export async function loadScreen(match: RouteMatch | null, page: ScreenPage, ports: ScreenPorts, deps: ScreenDeps): Promise<ScreenData | null> {
  if (!match) return null;
  return screenOf(match).load(match, page, ports, deps);
}

export { defineScreen, type ScreenDeps, type ScreenName } from './define';
export type { ScreenPage, ScreenPorts } from './page';
