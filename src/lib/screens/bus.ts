/**
 * The shuttle bus screens' data (spec §2.3 `/bus`, `/busInfo` with urlId, euCode, eid, fId,
 * euUserId; the screens are not shown, so this is our reading, modelled on the site booking):
 * the expo's lines for anyone holding the link; the holder's reservations, and the forms to
 * reserve and cancel, only for the contact whose own lookup found this code (the verified
 * contact cookie's codes, as for the site booking and the credential's personal details).
 * An incomplete legacy link is a page that names what is missing. src/components/screens/BusScreen.astro
 * renders it. Pure over the upstream ports.
 */
import { departureOffer, shownLines, type BusLine, type BusReservation, type DepartureOffer } from '../bus/bus';
import { variantByExpoId } from '../core/variants';
import { ownCodes, provenFor } from '../lookup/contact-cookie';
import { routePath, type BusLink, type BusPart, type BusScreen } from '../core/routes';
import { pageForm, type PageNotice } from './form-state';
import { available, selfPath, type ScreenPage, type ScreenPorts } from './page';
import { defineScreen } from './define';

export interface BusData {
  kind: 'bus';
  which: BusScreen;
  /** 400: an incomplete link (a page all the same, never a 404) */
  status: 200 | 400;
  /** the link's missing or unreadable parts (empty when whole) */
  missing: BusPart[];
  name: string | null;
  /** the lines with what each departure offers this visitor */
  lines: { line: BusLine; offers: DepartureOffer[] }[];
  /** the list could not be read */
  listFailed: boolean;
  /** the holder's reservations (empty for anyone else) */
  mine: BusReservation[];
  /** the contact whose own lookup found this code */
  owner: boolean;
  euCode: string | null;
  notice: Omit<PageNotice, 'key'> | null;
  /** this page (the forms' `back`) */
  self: string;
  paths: {
    bus: string | null;
    busInfo: string | null;
    /** the credential page of this code */
    credential: string | null;
    /** where the visitor proves the contact (and comes back to the credential) */
    lookup: string | null;
  };
}

/** @example (await loadBus(page, ports, 'bus', matchRoute('/bus')!.link)).missing // ['urlId', 'euCode', 'eid', 'fId', 'euUserId'] */
export async function loadBus(page: ScreenPage, ports: ScreenPorts, which: BusScreen, link: BusLink): Promise<BusData> {
  const { params } = link;
  const self = selfPath(page.url);
  const form = pageForm(page.flash?.path === self ? page.flash : null, page.t);
  const expoId = params?.expoId ?? link.expoId;
  const fId = params?.fId ?? link.fId;
  const variant = expoId !== null ? variantByExpoId(expoId) : null;
  const lookup = expoId !== null && fId !== null ? routePath({ screen: 'search', variant, params: { fId, expoId, ty: 'visitor' } }) : null;
  const base = {
    kind: 'bus' as const,
    which,
    name: page.view.name,
    notice: form.notice && form.notice.message !== '' ? { tone: form.notice.tone, message: form.notice.message } : null,
    self,
  };
  if (!params) {
    return {
      ...base,
      status: 400,
      missing: link.missing,
      lines: [],
      listFailed: false,
      mine: [],
      owner: false,
      euCode: null,
      paths: { bus: null, busInfo: null, credential: null, lookup },
    };
  }
  const owner = ownCodes(provenFor(page.contact, params.expoId)).includes(params.euCode);
  const [list, mine] = await Promise.all([
    available(ports.selectBusList({ expoId: params.expoId })),
    owner ? available(ports.selectBusUser({ expoId: params.expoId, euCode: params.euCode })) : null,
  ]);
  const held = mine ?? [];
  const lines = shownLines(list ?? []).map((line) => ({ line, offers: line.departures.map((d) => departureOffer(line, d, held)) }));
  const { euUserId: _euUserId, ...credential } = params;
  return {
    ...base,
    status: 200,
    missing: [],
    lines,
    listFailed: list === null,
    mine: held,
    owner,
    euCode: params.euCode,
    paths: {
      bus: routePath({ screen: 'bus', which: 'bus', params }),
      busInfo: routePath({ screen: 'bus', which: 'busInfo', params }),
      credential: routePath({ screen: 'credential', variant, params: credential }),
      lookup,
    },
  };
}

/** The shuttle bus (spec §2.3 `/bus`, `/busInfo`): personal (the holder's reservation). */
export const busScreen = defineScreen({
  name: 'bus',
  components: { bus: 'BusScreen' },
  load: (m, page, ports) => loadBus(page, ports, m.which, m.link),
  personal: true,
  missingIsNotFound: false,
  prepare: {},
});
