/**
 * What a screen's loader works over (the page pipeline: src/middleware.ts runs the loader of
 * the matched screen once, before the screen renders, and puts its data on `locals.page.screen`).
 * A loader is `load(page, ports)`: pure over these values and the upstream calls it is given,
 * so every screen's data is tested in node (tests/unit/screens-*.test.ts). A call that fails or
 * throws is "unavailable" (null), typed, never an exception that reaches a screen.
 * Pure: no Astro, React or Hono.
 */
import type { VerifiedContact } from '../lookup/contact-cookie';
import type { Flash } from '../page/flash';
import type { Lang } from '../core/languages';
import type { PageView } from '../page/load';
import type { ShareConfig } from '../page/share';
import type { HealthKind } from '../seat/health';
import type { ImageConfig } from '../util/image-origins';
import type { Upstream, UpstreamResult } from '../contract';

/** The config fields the screens read (getCustomerId's data, spec §3). */
export interface ScreenConfig extends ImageConfig {
  customerForm?: unknown;
  customerUrls?: { longUrl?: string | null | undefined; headImgUrl?: string | null | undefined } | null | undefined;
  customerWx?:
    | (ShareConfig &
        NonNullable<ImageConfig['customerWx']> &
        HomeWx & {
          id?: number | null | undefined;
          signType?: number | null | undefined;
          queryMethod?: number | null | undefined;
          isOpenBusinessCard?: number | null | undefined;
          healthPledge?: number | null | undefined;
          headjumpUrl?: string | null | undefined;
          /** the payment methods' names (src/lib/tickets/pay-names.ts) */
          payName1?: string | null | undefined;
          payName2?: string | null | undefined;
        })
    | null
    | undefined;
  expoInfo?:
    | {
        endTime?: string | null | undefined;
        address?: string | null | undefined;
        showLogo?: string | null | undefined;
        /** the visit block (src/lib/expo/visit.ts) */
        startTime?: string | null | undefined;
        hall?: string | null | undefined;
        contactPhone?: string | null | undefined;
        contactEmail?: string | null | undefined;
      }
    | null
    | undefined;
  activity?: object | null | undefined;
}

/** The customerWx texts and images the home screens show (spec §2.4). */
export interface HomeWx {
  registrationName?: string | null;
  buttonName?: string | null;
  registerButtonImage?: string | null;
  queryButtonImage?: string | null;
  copywriting1?: string | null;
  copywriting2?: string | null;
  h_explain?: string | null;
  button1?: string | null;
  button2?: string | null;
}

/** Who bought (the verified contact, as the ticket calls take it). */
export interface Buyer {
  checkType: 1 | 2;
  contact: string;
}

/** A site booking's slot type, date and booking (spec §1 site booking, §7 `from/site`). */
export interface SiteType {
  id: number;
  name: string;
  note: string;
}
export interface SiteDate {
  id: number;
  date: string;
  timeRange: string;
  capacity: number;
  booked: number;
}
export interface SiteBooking {
  id: number;
  typeId: number;
  typeName: string;
  date: string;
  timeRange: string;
}

/** A health upload as the list reads it (spec §2.5, §7). */
export interface HealthItem {
  id: number;
  kind: HealthKind;
  url: string;
  createTime: string;
}

/** The upstream calls the screens make (functions/upstream's client has them all). */
export type ScreenPorts = Pick<
  Upstream,
  | 'getForm'
  | 'getCustomerId'
  | 'queryFromUserExpoId'
  | 'queryCustomerCode'
  | 'selectUrlsTicketList'
  | 'checkSurplusTicket'
  | 'findUserBuyOrderNumByPhoneExpoId'
  | 'findOrderListByPhone'
  | 'ifOpenRefund'
  | 'pageActivityType'
  | 'getImage'
  | 'selectSiteTypeList'
  | 'selectSiteDateList'
  | 'selectExpoUserSiteId'
  | 'listHealth'
  | 'getArticleList'
  | 'queryCustomerChannelId'
  | 'selectBusList'
  | 'selectBusUser'
>;

/** A channel as the upstream client reads it (spec §7 `queryCustomerChannelId`; src/lib/contract/pages.ts). */
export interface ChannelIn {
  name: string;
  /** the customer url the channel leads to */
  urlsId: number | null;
  longUrl: string;
  /** comma-separated image list */
  headImgUrl: string;
}

/** A translator over catalogue keys (src/i18n's `t`, its key type widened). */
export type Tr = (key: string, vars?: Record<string, string | number>) => string;

/** What the page pipeline knows before a screen loads. */
export interface ScreenPage {
  url: URL;
  now: number;
  lang: Lang;
  t: Tr;
  /** a request cookie's value */
  cookie(name: string): string | undefined;
  config: ScreenConfig | null;
  configFailed: boolean;
  view: PageView;
  flash: Flash | null;
  contact: VerifiedContact | null;
  pledge: boolean;
  challenge: { siteKey: string; scriptUrl: string } | null;
  /** spec §2.2's code-less e-mail lookup is on in this deployment (EXHIBITOR_BYPASS) */
  bypass: boolean;
  /** the request's User-Agent ('' without one): which browser the page opens in (the buyer form's payment method) */
  userAgent: string;
}

/**
 * The data of an upstream call, or null when it was refused, failed or threw: the one place a
 * screen's call turns into its "unavailable" state.
 * @example await available(Promise.reject(new Error('down'))) // null
 */
export async function available<T>(call: Promise<UpstreamResult<T>> | null): Promise<T | null> {
  if (!call) return null;
  try {
    const r = await call;
    return r.ok ? r.data : null;
  } catch {
    return null;
  }
}

/** The page's own path and query (a form's `back`, a flash's page). */
export const selfPath = (url: URL): string => `${url.pathname}${url.search}`;
