/**
 * The banner carousel's rules (spec §2.5, §5, §9): which images it shows, what a tap on one
 * does, and how fast it turns. Pure: the Banner island (src/islands/Banner.tsx) and the home
 * page call these.
 */
import { safeImageUrl } from './view';
import type { Lang } from '../core/languages';
import { isHttpUrl } from '../util/safe-redirect';
import { bannerAutoplayMs } from './shell';

export { bannerAutoplayMs };

/** The default image when the list is empty (spec §2.5: logo.jpg under the public path). */
export const DEFAULT_BANNER = '/logo.jpg';

/** Splits a comma-separated config list; blanks dropped. */
export function splitList(value: string | null | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * The banner images (spec §2.5 "store images"; §7 queryCustomerChannelId gives the customer
 * url's comma-separated headImgUrl): customerWx.headImgUrl, else customerUrls.headImgUrl.
 * Only safe image addresses are kept (http(s) or this site); an empty result holds the default
 * logo. The jump link list (headjumpUrl) stays aligned with the ORIGINAL positions.
 */
export function bannerSlides(input: {
  wxHeadImgUrl?: string | null | undefined;
  urlsHeadImgUrl?: string | null | undefined;
  headjumpUrl?: string | null | undefined;
}): BannerSlide[] {
  const listed = splitList(input.wxHeadImgUrl);
  const images = listed.length > 0 ? listed : splitList(input.urlsHeadImgUrl);
  // headjumpUrl is comma-separated too, one per image; an empty entry means "no link".
  const jumps = (input.headjumpUrl ?? '').split(',').map((s) => s.trim());
  const slides: BannerSlide[] = [];
  images.forEach((src, i) => {
    const safe = safeImageUrl(src);
    if (safe) slides.push({ src: safe, jump: jumps[i] ?? '' });
  });
  return slides.length > 0 ? slides : [{ src: DEFAULT_BANNER, jump: '' }];
}

/** One banner image and its jump link ('' = none). The link is kept as given: tapTarget judges it. */
export interface BannerSlide {
  src: string;
  jump: string;
}

/** What a tap on a banner image does (spec §2.5). */
export type TapAction =
  /** open the full-screen preview at this image */
  | { kind: 'preview'; index: number }
  /** open the link in a new window (noopener) */
  | { kind: 'open'; href: string }
  /** show the banner.jumpError toast; the link is never followed */
  | { kind: 'jump-error' };

/**
 * The action of a tap on slide `index`.
 * @example tapAction([{ src: '/a.jpg', jump: 'javascript:alert(1)' }], 0) // { kind: 'jump-error' }
 */
export function tapAction(slides: readonly BannerSlide[], index: number): TapAction {
  const jump = slides[index]?.jump.trim() ?? '';
  if (jump === '') return { kind: 'preview', index };
  return isHttpUrl(jump) ? { kind: 'open', href: jump } : { kind: 'jump-error' };
}

/** The next slide index, wrapping. */
export function nextIndex(current: number, count: number): number {
  return count > 0 ? (current + 1) % count : 0;
}

/** The previous slide index, wrapping. */
export function prevIndex(current: number, count: number): number {
  return count > 0 ? (current - 1 + count) % count : 0;
}

/**
 * The footer carousel's images (spec §2.5, §3 footImg/footImgEn): customerWx.bottomUrl, or
 * bottomUrlEn for every language but Chinese; only safe image addresses.
 */
export function footerImages(
  wx: { bottomUrl?: string | null; bottomUrlEn?: string | null } | null,
  lang: Lang,
): string[] {
  const chinese = lang === 'zh' || lang === 'tw';
  const list = splitList(chinese ? wx?.bottomUrl : (wx?.bottomUrlEn ?? wx?.bottomUrl));
  return list.flatMap((src) => {
    const safe = safeImageUrl(src);
    return safe ? [safe] : [];
  });
}

/**
 * The footer carousel's autoplay (spec §2.5): only for the expo configured for 3000 ms; the
 * others show their footer images without turning.
 */
export function footerAutoplayMs(expoId: number | null): number {
  return bannerAutoplayMs(expoId) === 3000 ? 3000 : 0;
}
