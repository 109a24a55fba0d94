/**
 * The app shell's rules (spec §2.5, §9): when the desktop banner and the footer's
 * technology-provider link show, the banner autoplay interval, the layout breakpoints.
 * The spec names "listed expo ids" without listing them; the lists below are our choice
 * and README.md "Choices where the spec is silent" says so.
 */
import { exposWith } from './expos';

/** Layout switches at 750 px (desktop above, mobile at or below); spec §2.5, §9. */
export const LAYOUT_BREAKPOINT_PX = 750;
/** Language menu breakpoint; spec §2.5, §9. */
export const LANG_MENU_BREAKPOINT_PX = 768;

/** Expos whose pages are a full-bleed image or landing of their own: no desktop banner. */
export const NO_DESKTOP_BANNER_EXPO_IDS: ReadonlySet<number> = exposWith('noDesktopBanner');
/** Expos whose organiser asked not to show the technology provider. */
export const NO_FOOTER_EXPO_IDS: ReadonlySet<number> = exposWith('noFooter');

/** Paths (first segment) on which the desktop banner is hidden: order, article, order details (spec §2.5). */
const NO_BANNER_SEGMENTS: ReadonlySet<string> = new Set(['order', 'orderList', 'orderDetails', 'article']);
/** Route names on which the desktop banner is hidden (spec §2.5): Auto and jjcz2024. */
const NO_BANNER_ROUTE_NAMES: ReadonlySet<string> = new Set(['auto', 'jjcz2024']);

/** Whether the desktop banner shows for this page (spec §2.5). */
export function showDesktopBanner(page: { expoId: number | null; pathname: string }): boolean {
  if (page.expoId !== null && NO_DESKTOP_BANNER_EXPO_IDS.has(page.expoId)) return false;
  const first = page.pathname.split('/').filter(Boolean)[0] ?? '';
  if (NO_BANNER_SEGMENTS.has(first)) return false;
  // /auto{path}: the Auto route is the prefix itself (spec §2.3 guard redirect).
  const lower = first.toLowerCase();
  return ![...NO_BANNER_ROUTE_NAMES].some((name) => lower === name || lower.startsWith(name));
}

/** The default technology-provider link of the footer. */
export const DEFAULT_PROVIDER = { href: 'https://github.com/', textKey: 'footer.provider' } as const;

export interface FooterLink {
  href: string;
  /** the organiser's own text (expoInfo.bottomInstructions), else null: use `footer.provider` */
  text: string | null;
}

/**
 * The footer's technology-provider link: expoInfo.bottomHref / bottomInstructions override
 * the default (spec §2.5); hidden (null) for the listed expos. Only http(s) links are used.
 */
export function footerLink(expoId: number | null, expoInfo: { bottomHref?: string | null; bottomInstructions?: string | null } | null): FooterLink | null {
  if (expoId !== null && NO_FOOTER_EXPO_IDS.has(expoId)) return null;
  const href = expoInfo?.bottomHref?.trim();
  const text = expoInfo?.bottomInstructions?.trim();
  return {
    href: href && /^https?:\/\//i.test(href) ? href : DEFAULT_PROVIDER.href,
    text: text ? text : null,
  };
}

/** The expo whose banner and footer carousel autoplay every 3000 ms (spec §2.5, §9). */
export const FAST_BANNER_EXPO_IDS: ReadonlySet<number> = exposWith('fastBanner');

/** Banner autoplay interval: 3000 ms for the special expo, 10000 ms for others (spec §9). */
export function bannerAutoplayMs(expoId: number | null): number {
  return expoId !== null && FAST_BANNER_EXPO_IDS.has(expoId) ? 3000 : 10000;
}
