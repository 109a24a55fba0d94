/**
 * The share card inside the messaging app (spec §1 "A share configuration takes title,
 * description, link and image", §4 "Type admin triggers a share-signature fetch", §7 ajaxData):
 * when a page configures the app's JS-SDK share, and with what. The card is exactly the page's
 * share tags (src/lib/page/share.ts, read back from the `<meta>` tags by the script), signed by
 * the organiser's API through `GET /api/share-signature`. Pure: no Astro, React or Hono.
 */
import { inMessagingApp } from './user-agent';

/** The vendor's JS-SDK (overridable with WX_JSSDK_URL). */
export const WX_JSSDK_DEFAULT_URL = 'https://res.wx.qq.com/open/js/jweixin-1.6.0.js';

/** The JS-SDK share calls the page asks for (new and old names: older app versions know only the old). */
export const WX_JS_API_LIST = [
  'updateAppMessageShareData',
  'updateTimelineShareData',
  'onMenuShareAppMessage',
  'onMenuShareTimeline',
] as const;

/** The longest page URL the edge asks a signature for (a longer one is refused, 400). */
export const SHARE_URL_MAX = 2048;

/**
 * Whether a page gets the share card script (our reading of spec §4 "Type admin triggers a
 * share-signature fetch"): inside the messaging app for every visitor type, and for type
 * `admin` in any browser (the organiser's staff checking the card; outside the app the SDK
 * simply has no share menu to fill). Only with an app id from the organiser's API (getwxAppId).
 * @example wantsShareCard({ userAgent: 'Mozilla/5.0 … MicroMessenger/8.0', ty: '' }) // true
 */
export function wantsShareCard(p: { userAgent: string; ty: string }): boolean {
  return inMessagingApp(p.userAgent) || p.ty === 'admin';
}

/**
 * The JS-SDK's URL: WX_JSSDK_URL when it is an http(s) URL, else the vendor's.
 * @example jsSdkUrl(undefined) // 'https://res.wx.qq.com/open/js/jweixin-1.6.0.js'
 */
export function jsSdkUrl(value: string | undefined | null): string {
  const v = value?.trim() ?? '';
  try {
    const u = new URL(v);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : WX_JSSDK_DEFAULT_URL;
  } catch {
    return WX_JSSDK_DEFAULT_URL;
  }
}

/**
 * The URL the JS-SDK signs: the page's own, without its `#fragment` (the vendor's rule).
 * @example signedPageUrl('https://s.example/1/MTMwOA/v?x=1#top') // 'https://s.example/1/MTMwOA/v?x=1'
 */
export function signedPageUrl(href: string): string {
  const i = href.indexOf('#');
  return i === -1 ? href : href.slice(0, i);
}

/**
 * Whether `url` may be signed for a request to `origin`: an http(s) URL of this very site,
 * without a fragment and at most SHARE_URL_MAX characters. Never another site's page: the
 * signature would let it use the organiser's app.
 */
export function shareableUrl(url: string, origin: string): URL | null {
  if (url.length === 0 || url.length > SHARE_URL_MAX) return null;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.origin !== origin || u.hash !== '' || url.includes('#') || u.username !== '' || u.password !== '') return null;
  return u;
}

/** The share tags as the page carries them (og:title, og:description, og:url, og:image). */
export interface ShareTags {
  title: string;
  description: string;
  url: string;
  image: string;
}

/** The signature the edge answers. */
export interface ShareSignatureReply {
  appId: string;
  timestamp: string;
  nonceStr: string;
  signature: string;
}

/** `wx.config`'s argument. */
export function wxConfig(sig: ShareSignatureReply): {
  debug: false;
  appId: string;
  timestamp: number;
  nonceStr: string;
  signature: string;
  jsApiList: string[];
} {
  return {
    debug: false,
    appId: sig.appId,
    timestamp: Number(sig.timestamp),
    nonceStr: sig.nonceStr,
    signature: sig.signature,
    jsApiList: [...WX_JS_API_LIST],
  };
}

/** The card of a chat (`updateAppMessageShareData`): title, description, link, image = the share tags. */
export function appMessageShare(tags: ShareTags): { title: string; desc: string; link: string; imgUrl: string } {
  return { title: tags.title, desc: tags.description, link: tags.url, imgUrl: tags.image };
}

/** The card of the feed (`updateTimelineShareData`): the feed shows no description. */
export function timelineShare(tags: ShareTags): { title: string; link: string; imgUrl: string } {
  return { title: tags.title, link: tags.url, imgUrl: tags.image };
}
