/**
 * The screens' loaders, by route (src/lib/page/routes.ts): the page pipeline (src/middleware.ts)
 * runs the one of the matched route once, after the guard and the config, and the screen
 * renders its data (`locals.page.screen`). A table, not a chain of ifs: a new screen is a row.
 * Pure over the upstream ports.
 */
import type { RouteMatch } from '../page/routes';
import { loadApplyList, loadLvYunList, type ApplyListData } from './apply-list';
import { loadArticles, type ArticleListData } from './articles';
import { loadChannel, type ChannelData } from './channel';
import { loadBus, type BusData } from './bus';
import { loadForm, loadFormLink, type FormData, type FormLinkData } from './form';
import { loadHome, type HomeData } from './home';
import { loadIncomplete, type IncompleteData } from './incomplete';
import { loadGate, type GateScanData, type GateStatsData, type GateStatsPort } from './gate';
import type { GateStaff } from '../gate/keys';
import type { ScreenPage, ScreenPorts } from './page';
import { loadSearch, type SearchData } from './search';
import { loadSeat, loadSeatResult, type SeatData, type SeatResultData } from './seat';
import { loadSuccess, type CredentialRead, type SuccessData } from './success';
import {
  loadOrder,
  loadOrderEntry,
  loadOrderList,
  loadTicketForm,
  loadTicketList,
  type OrderData,
  type OrderEntryData,
  type OrderListData,
  type TicketFormData,
  type TicketListData,
} from './tickets';

export type ScreenData =
  | SearchData
  | SuccessData
  | ApplyListData
  | FormData
  | FormLinkData
  | HomeData
  | SeatData
  | SeatResultData
  | TicketListData
  | TicketFormData
  | OrderListData
  | OrderData
  | ArticleListData
  | ChannelData
  | OrderEntryData
  | BusData
  | IncompleteData
  | GateScanData
  | GateStatsData;

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

type Loaders = {
  [S in RouteMatch['screen']]: (
    match: Extract<RouteMatch, { screen: S }>,
    page: ScreenPage,
    ports: ScreenPorts,
    deps: ScreenDeps,
  ) => ScreenData | null | Promise<ScreenData | null>;
};

const TICKET_LOADERS = {
  ticket: loadTicketList,
  ticketForm: loadTicketForm,
  orderList: loadOrderList,
  order: loadOrderEntry,
  ticketSuccess: (page: ScreenPage, ports: ScreenPorts, params: Parameters<typeof loadOrder>[2]) => loadOrder(page, ports, params, 'ticketSuccess'),
  orderDetails: (page: ScreenPage, ports: ScreenPorts, params: Parameters<typeof loadOrder>[2]) => loadOrder(page, ports, params, 'orderDetails'),
} as const;

const LOADERS: Loaders = {
  search: (m, page) => loadSearch(page, { params: m.params, variant: m.variant, flavour: m.flavour ?? null }),
  success: async (m, page, ports, deps) => loadSuccess(page, ports, { params: m.params, variant: m.variant }, await deps.credential(), deps.secret),
  applyList: (m, page, ports) => (m.flavour ? loadLvYunList(page, ports, m.params) : loadApplyList(page, m.params)),
  article: (m, page, ports) => loadArticles(page, ports, m.params),
  channel: (m, page, ports) => loadChannel(page, ports, m.id),
  incomplete: (m, page) => loadIncomplete(page, m.route, m.missing),
  form: (m, page, ports) => {
    const input = { route: m.route, rest: m.rest, variant: m.variant };
    return loadFormLink(page, input) ?? loadForm(page, ports, input);
  },
  home: (m, page, ports) => loadHome(page, ports, m.params),
  landing: () => null,
  seat: (m, page, ports) => loadSeat(page, ports, m.params),
  seatResult: (m, page, ports, deps) => loadSeatResult(page, ports, m.which, deps.secret),
  ticket: (m, page, ports) => TICKET_LOADERS[m.which](page, ports, m.params),
  bus: (m, page, ports) => loadBus(page, ports, m.which, m.link),
  gate: (m, page, _ports, deps) =>
    loadGate(m.which, m, page, deps.gateStats ?? { checkInStats: async () => ({ ok: false, kind: 'refused', code: 0, msg: null }) }, deps.gateStaff ?? null),
};

/**
 * The data of the matched screen, or null (a landing, no route).
 * @example (await loadScreen(matchRoute('/ticket/21308/MTMwOA/visitor'), page, ports, deps))?.kind // 'ticketList'
 */
export async function loadScreen(match: RouteMatch | null, page: ScreenPage, ports: ScreenPorts, deps: ScreenDeps): Promise<ScreenData | null> {
  if (!match) return null;
  const load = LOADERS[match.screen] as (m: RouteMatch, page: ScreenPage, ports: ScreenPorts, deps: ScreenDeps) => ScreenData | null | Promise<ScreenData | null>;
  return load(match, page, ports, deps);
}

export type { ScreenPage, ScreenPorts } from './page';
