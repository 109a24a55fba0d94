/**
 * Which organiser addresses a page may use (README "Security": only http/https links from
 * organiser data): an article's link, an article's cover, a channel's images. Pure.
 */

/**
 * An absolute http(s) address, normalised; null for any other scheme (`javascript:`, `data:`…),
 * a relative address, credentials in the address or something that is not a URL.
 * @example httpUrl(' https://expo.example/news/1 ') // 'https://expo.example/news/1'
 * @example httpUrl('javascript:alert(1)') // null
 */
export function httpUrl(raw: string | null | undefined): string | null {
  const text = (raw ?? '').trim();
  if (!/^https?:\/\//i.test(text) || text.length > 2048) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '') return null;
  return url.href;
}

/**
 * An image address a page may show: an absolute http(s) address, or a path on this site (`/logo.jpg`,
 * never `//host`); null for anything else. The page's CSP still admits only the hosts it names
 * (src/lib/util/image-origins.ts).
 * @example imageSrc('/logo.jpg') // '/logo.jpg'
 * @example imageSrc('data:image/png;base64,AAAA') // null
 */
export function imageSrc(raw: string | null | undefined): string | null {
  const text = (raw ?? '').trim();
  if (/^\/(?!\/)[^\s\\]*$/.test(text) && text.length <= 2048) return text;
  return httpUrl(text);
}

/** Most images a comma-separated list shows. */
export const MAX_LIST_IMAGES = 10;

/**
 * The images of a comma-separated list (spec §3 "comma-separated image lists"), those a page may
 * show, in order, at most {@link MAX_LIST_IMAGES}.
 * @example imageList('/a.jpg, javascript:x ,https://cdn.example/b.png') // ['/a.jpg', 'https://cdn.example/b.png']
 */
export function imageList(raw: string | null | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => imageSrc(s))
    .filter((s): s is string => s !== null)
    .slice(0, MAX_LIST_IMAGES);
}
