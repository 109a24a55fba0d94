/**
 * The seat lookup's data (spec §2.4 1128 and the seat-lookup variants, §2.5): the activity
 * types and the seat-map image of a seat expo (404 for any other), what a refused or answered
 * post flashed back (the typed name and company, one person's seats per activity type as
 * `p0`..`p9` rows) and the one notice. The seat result pages read the signed result
 * (src/lib/seat/seats.ts readSeatResult). src/components/screens/SeatScreen.astro and
 * SeatResultScreen.astro render them. Pure over the upstream ports.
 */
import { routePath, type PathParams } from '../core/routes';
import { readSeatResult, SEAT_EXPO_IDS, seatImageUrl, seatLookupOf, type ActivityType, type SeatLookupTarget, type SeatResult } from '../seat/seats';
import { configImageOrigins } from '../util/image-origins';
import { pageForm, type PageNotice } from './form-state';
import { available, selfPath, type ScreenPage, type ScreenPorts } from './page';
import { defineScreen } from './define';

export interface SeatData {
  kind: 'seat';
  params: PathParams;
  status: 200 | 404;
  pledge: boolean;
  name: string | null;
  back: string;
  types: ActivityType[];
  map: string | null;
  imageOrigins: string[];
  /** the typed name's seats, one `[type, seat, …]` row per activity type */
  people: [string, string, string][];
  typeId: string;
  values: { userName: string; companyName: string };
  error: { field: 'userName' | 'companyName'; message: string } | null;
  notice: Omit<PageNotice, 'key'> | null;
}

function peopleOf(values: Record<string, string>): [string, string, string][] {
  return Object.keys(values)
    .filter((k) => /^p\d$/.test(k))
    .sort()
    .flatMap((k) => {
      try {
        const row = JSON.parse(values[k] ?? '') as unknown;
        return Array.isArray(row) && row.length === 3 && row.every((x) => typeof x === 'string') ? [row as [string, string, string]] : [];
      } catch {
        return [];
      }
    });
}

/** @example (await loadSeat(page, ports, params)).status // 404 when the expo has no seats */
export async function loadSeat(page: ScreenPage, ports: ScreenPorts, params: PathParams): Promise<SeatData> {
  const seatExpo = SEAT_EXPO_IDS.has(params.expoId);
  const [types, image] = await Promise.all([
    seatExpo ? available(ports.pageActivityType({ expoId: params.expoId })) : null,
    seatExpo ? available(ports.getImage({ expoId: params.expoId, imageName: 'seat' })) : null,
  ]);
  const form = pageForm(page.pledge ? null : page.flash, page.t);
  const typeId = form.values['typeId'] ?? '';
  const field = page.pledge ? undefined : page.flash?.error?.field;
  const map = image ? seatImageUrl(image.url) : null;
  return {
    kind: 'seat',
    params,
    status: seatExpo ? 200 : 404,
    pledge: page.pledge,
    name: page.view.name,
    back: selfPath(page.url),
    types: types ?? [],
    map,
    imageOrigins: [...configImageOrigins(page.config), ...(map && /^https:/.test(map) ? [new URL(map).origin] : [])],
    people: peopleOf(form.values),
    typeId,
    values: { userName: form.values['userName'] ?? '', companyName: form.values['companyName'] ?? '' },
    error: field === 'userName' || field === 'companyName' ? { field, message: form.errors[0]?.message ?? '' } : null,
    notice: form.notice && !typeId ? { tone: form.notice.tone, message: form.notice.message } : null,
  };
}

/** What a found seat's page shows around it: the event, its seat map and the way back to its lookup. */
export interface SeatResultPage {
  name: string | null;
  map: string | null;
  imageOrigins: string[];
  /** the seat lookup this result came from ("look up another seat") */
  back: string;
}

export type SeatResultData =
  | ({ kind: 'seatResult'; result: SeatResult; status: 200 } & SeatResultPage)
  | { kind: 'seatResult'; result: null; status: 404; lookup: SeatLookupTarget | null };

/**
 * A result page shows only what the edge signed; an unsigned or altered one goes back to its
 * lookup (`lookup`). A signed one keeps the lookup's event name, banner (the page's config, read
 * for the lookup's url: src/lib/page/load.ts configKey) and seat map, and leads back to it.
 */
export async function loadSeatResult(page: ScreenPage, ports: ScreenPorts, which: 'zuowei' | 'yejinji', secret: string): Promise<SeatResultData> {
  const read = await readSeatResult(page.url.searchParams, which, secret);
  if (!read.ok) return { kind: 'seatResult', result: null, status: 404, lookup: read.lookup };
  const lookup = seatLookupOf(page.url.searchParams, which);
  const image = lookup ? await available(ports.getImage({ expoId: lookup.expoId, imageName: 'seat' })) : null;
  const map = image ? seatImageUrl(image.url) : null;
  return {
    kind: 'seatResult',
    result: read.result,
    status: 200,
    name: page.view.name,
    map,
    imageOrigins: [...configImageOrigins(page.config), ...(map && /^https:/.test(map) ? [new URL(map).origin] : [])],
    back: lookup ? routePath({ screen: 'seat', params: { fId: lookup.fId, expoId: lookup.expoId, ty: 'visitor' } }) : '/',
  };
}

/** The seat lookup (spec §2.4, §2.5): public; it may show the pledge gate. */
export const seatScreen = defineScreen({
  name: 'seat',
  components: { seat: 'SeatScreen' },
  load: (m, page, ports) => loadSeat(page, ports, m.params),
  personal: false,
  missingIsNotFound: false,
  prepare: { pledgeTicket: true },
});

/** A seat result (spec §2.3): personal; it shows only what the edge signed, an unsigned or altered one goes back to its lookup. */
export const seatResultScreen = defineScreen({
  name: 'seatResult',
  components: { seatResult: 'SeatResultScreen' },
  load: (m, page, ports, deps) => loadSeatResult(page, ports, m.which, deps.secret),
  personal: true,
  missingIsNotFound: false,
  prepare: {},
  redirect: (data) => (!data.result && data.lookup ? routePath({ screen: 'seat', params: { ...data.lookup, ty: '' } }) : null),
});
