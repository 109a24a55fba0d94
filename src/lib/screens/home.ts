/**
 * A home's data (`/{fId}/{eid}/{ty}` and `/auto{path}`, spec §2.3, §2.4): the screen the expo's
 * row names (src/lib/expo/home.ts), its links, the banner and footer carousels, the share tags
 * (spec §1) and, for variant homes and the generic lookups, the lookup screen's own data (for
 * the seat expos the seat lookup's): they render the lookup at the home URL rather than redirect
 * (a shared link keeps its URL and tags).
 * The ticket lookup shows when the url's ticket list is non-empty (null: unknown).
 * src/components/screens/HomeScreen.astro renders it. Pure over the upstream ports.
 */
import { bannerAutoplayMs, bannerSlides, footerAutoplayMs, footerImages, type BannerSlide } from '../expo/carousel';
import { homeLinks, homeScreenFor, showTicketLookup, type HomeLinks, type HomeScreen } from '../expo/home';
import { routePath, type PathParams } from '../core/routes';
import { shareMeta, type ShareMeta } from '../page/share';
import { isHttpUrl } from '../util/safe-redirect';
import { available, type ScreenConfig, type ScreenPage, type ScreenPorts } from './page';
import { loadSearch, type SearchData } from './search';
import { loadSeat, type SeatData } from './seat';
import { defineScreen } from './define';
import { SENT_TO_COOKIE } from '../lookup/resend';

export interface HomeData {
  kind: 'home';
  params: PathParams;
  screen: HomeScreen;
  /** variant homes and generic lookups: the lookup screen, rendered here */
  lookup: SearchData | null;
  /** 1128 and the seat-lookup variants (spec §2.4): the seat lookup screen, rendered here */
  seat: SeatData | null;
  wx: NonNullable<ScreenConfig['customerWx']> | null;
  title: string;
  share: ShareMeta;
  links: HomeLinks;
  slides: BannerSlide[];
  bannerAutoplayMs: number;
  footerSlides: { src: string; jump: string }[];
  footerAutoplayMs: number;
  camera: boolean;
  showTicket: boolean;
  onlineExpo: string | null;
  permit: string;
}

/** @example (await loadHome(page, ports, params)).screen.kind // 'buttons' */
export async function loadHome(page: ScreenPage, ports: ScreenPorts, params: PathParams): Promise<HomeData> {
  const cfg = page.config;
  const wx = cfg?.customerWx ?? null;
  const screen = homeScreenFor({ expoId: params.expoId, wxId: wx?.id ?? null, signType: wx?.signType ?? null });
  const [tickets, seat] = await Promise.all([
    screen.kind === 'buttons' ? available(ports.selectUrlsTicketList({ expoId: params.expoId, urlsId: params.fId })) : null,
    // spec §2.4: the seat expos' home is the seat lookup (its name field), not a link to it.
    screen.kind === 'seat' ? loadSeat(page, ports, params) : null,
  ]);
  const name = page.view.name;
  const title = page.view.formTitle ?? name ?? page.t('app.title');
  const share = shareMeta({ config: wx, pageUrl: page.url, fallback: { title, description: name ?? title, image: page.view.image }, invites: page.t('share.invites') });
  const variant = screen.kind === 'variant' ? screen.variant : null;
  const longUrl = cfg?.customerUrls?.longUrl?.trim() ?? '';
  return {
    kind: 'home',
    params,
    screen,
    // The banner carousel shows the organiser's images: no second hero image above it.
    lookup: screen.kind === 'variant' || screen.kind === 'lookup' ? loadSearch(page, { params, variant, share, image: null }) : null,
    seat,
    wx,
    title,
    share,
    links: homeLinks(params, { activity: cfg?.activity != null, variant }),
    slides: bannerSlides({ wxHeadImgUrl: wx?.headImgUrl, urlsHeadImgUrl: cfg?.customerUrls?.headImgUrl, headjumpUrl: wx?.headjumpUrl }),
    bannerAutoplayMs: bannerAutoplayMs(params.expoId),
    // The footer carousel (spec §2.5): the organiser's footer images (bottomUrl / bottomUrlEn).
    footerSlides: footerImages({ bottomUrl: wx?.bottomUrl ?? null, bottomUrlEn: wx?.bottomUrlEn ?? null }, page.lang).map((src) => ({ src, jump: '' })),
    footerAutoplayMs: footerAutoplayMs(params.expoId),
    camera: wx?.isOpenBusinessCard === 1,
    // spec §2.4: the ticket lookup shows when the url's ticket list is non-empty (null: unknown).
    showTicket: showTicketLookup(params.expoId, tickets ? tickets.length > 0 : null),
    onlineExpo: isHttpUrl(longUrl) ? longUrl : null,
    permit: routePath({ screen: 'form', route: 'form', params: { ...params, ty: 'permit' } }),
  };
}

/** An expo's home (spec §2.4): public, with share tags and the lookup's challenge; the lookup's flash rule; the pledge's ticket (it shows the lookup or the seat lookup, each behind the pledge where the expo asks one). */
export const homeScreen = defineScreen({
  name: 'home',
  components: { home: 'HomeScreen' },
  load: (m, page, ports) => loadHome(page, ports, m.params),
  personal: false,
  flashCookies: [SENT_TO_COOKIE],
  missingIsNotFound: false,
  prepare: { shareCard: true, challenge: true, pledgeTicket: true },
});
