/**
 * Share previews (spec §1 "A share configuration takes title, description, link and image"):
 * what a chat app or feed shows for a page's link. Rendered on the server as Open Graph tags and
 * the messaging app's own `itemprop` tags (Layout `share` prop), so a crawler that runs no
 * JavaScript sees them in the first bytes. Pure: no Astro, React or Hono.
 */
import { safeImageUrl } from '../expo/view';
import { interpolate } from '../util/interpolate';
import { mac } from '../util/signer';

/** The share tags of a page (the Layout's `share` prop). */
export interface ShareMeta {
  title: string;
  description: string;
  /** absolute http(s) URL */
  url: string;
  /** absolute http(s) URL */
  image: string;
}

/** The config fields a share reads (customerWx, spec §3 "Share settings"). */
export interface ShareConfig {
  wechatShare?: string | null;
  wecharDescription?: string | null;
  shareLog?: string | null;
}

/** Query values of a personal share (spec §1): who shares. */
export const PERSONAL_SHARE_PARAMS = ['defineName', 'shareUserId'] as const;

/** Query values never put into a shared link: the one-time login code and its state (spec §2.3, §4). */
const PRIVATE_PARAMS: readonly string[] = ['code', 'state', 'openid'];

/** The product's own share image (public/logo.jpg): a share card always has an image. */
export const DEFAULT_SHARE_IMAGE = '/logo.jpg';

/** Longest name put into a title; a longer one is cut (a share title is one line). */
const MAX_NAME = 40;

/**
 * The link to share for a page: absolute, without the login code; a personal share keeps
 * defineName and shareUserId.
 */
export function shareUrl(pageUrl: URL): string {
  const u = new URL(pageUrl.href);
  u.hash = '';
  for (const p of PRIVATE_PARAMS) u.searchParams.delete(p);
  return u.href;
}

/**
 * A personal share link (spec §1): the page's link with defineName and shareUserId appended.
 * @example personalShareUrl(new URL('https://x.example/1/MQ/v'), 'Ann', '7') // 'https://x.example/1/MQ/v?defineName=Ann&shareUserId=7'
 */
export function personalShareUrl(pageUrl: URL, name: string, userId: string): string {
  const u = new URL(shareUrl(pageUrl));
  u.searchParams.set('defineName', name);
  u.searchParams.set('shareUserId', userId);
  return u.href;
}

/** An absolute http(s) image URL for a config value (relative paths resolve against the page). */
export function absoluteImage(value: string | null | undefined, origin: string): string | null {
  const first = value?.split(',')[0];
  const safe = safeImageUrl(first);
  if (!safe) return null;
  try {
    return new URL(safe, origin).href;
  } catch {
    return null;
  }
}

/**
 * The share tags of a page.
 * - title: customerWx.wechatShare, else `fallback.title`; a personal share (defineName and
 *   shareUserId in the URL) is titled with `invites` ('{{name}} invites you to visit') plus the title;
 * - description: wecharDescription, else `fallback.description`;
 * - image: shareLog, else `fallback.image` (the page image), else the product's logo
 *   (DEFAULT_SHARE_IMAGE), made absolute: chat apps show a card without an image as a bare link.
 */
export function shareMeta(input: {
  config: ShareConfig | null;
  pageUrl: URL;
  fallback: { title: string; description: string; image: string | null };
  /** the share.invites text of the page's language, with `{{name}}` */
  invites: string;
}): ShareMeta {
  const { config, pageUrl, fallback } = input;
  const base = config?.wechatShare?.trim() || fallback.title;
  const name = pageUrl.searchParams.get('defineName')?.trim().slice(0, MAX_NAME) ?? '';
  const personal = name !== '' && (pageUrl.searchParams.get('shareUserId')?.trim() ?? '') !== '';
  const title = personal ? `${interpolate(input.invites, { name })} · ${base}` : base;
  return {
    title,
    description: config?.wecharDescription?.trim() || fallback.description,
    url: shareUrl(pageUrl),
    image:
      absoluteImage(config?.shareLog, pageUrl.origin) ??
      absoluteImage(fallback.image, pageUrl.origin) ??
      new URL(DEFAULT_SHARE_IMAGE, pageUrl.origin).href,
  };
}

/** Characters of a shareUserId: 12 base64url characters (72 bits) of its MAC. */
const SHARE_USER_ID_LENGTH = 12;

/**
 * The `shareUserId` of a personal share (spec §1; our reading of a value the spec leaves not
 * shown): who shared, as a short id signed with SESSION_SECRET over the expo and the
 * registration code. The same registration always gives the same id, so an organiser can count
 * a sharer's visits, but the id tells no one the code, the name or the contact behind it, and no
 * one can make the id of another registration without the secret.
 * @example await shareUserId('a-secret-of-16-chars-or-more', 1308, 'IWHBZIMY') // 12 base64url characters
 */
export async function shareUserId(secret: string, expoId: number, euCode: string): Promise<string> {
  return (await mac(secret, `${expoId}:${euCode}`, { text: 'share:' })).slice(0, SHARE_USER_ID_LENGTH);
}
