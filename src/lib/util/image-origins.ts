/**
 * The image hosts a page's CSP allows. The CSP's `img-src` is `'self' data:`
 * (astro.config.mjs); a page that shows an organiser's config adds the origins of that config's
 * image addresses (banner, background, logo, footer images, button images, share image),
 * through Astro's runtime CSP API (src/layouts/Layout.astro, `imageOrigins` prop). So an
 * organiser's CDN works on its own event's pages, and no page allows `https:` wholesale.
 */

/** The config fields that hold image addresses (spec §3; src/lib/contract). */
export interface ImageConfig {
  customerWx?:
    | {
        headImgUrl?: string | null | undefined;
        bottomUrl?: string | null | undefined;
        bottomUrlEn?: string | null | undefined;
        pcBackground?: string | null | undefined;
        registerButtonImage?: string | null | undefined;
        queryButtonImage?: string | null | undefined;
        shareLog?: string | null | undefined;
      }
    | null
    | undefined;
  customerUrls?: { headImgUrl?: string | null | undefined } | null | undefined;
  expoInfo?: { showLogo?: string | null | undefined } | null | undefined;
}

/**
 * Most origins one page adds. Organisers use one or two image hosts; the cap keeps a broken
 * or hostile config from growing the header without bound (images on further hosts are blocked).
 */
export const MAX_IMAGE_ORIGINS = 16;

/** A host name as a CSP source may carry it: letters, digits, dots and hyphens (no `*`, no IPv6 brackets). */
const HOST = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*$/;

/** Every image address of a config, comma-separated lists split; blanks dropped. */
export function configImageUrls(config: ImageConfig | null | undefined): string[] {
  const wx = config?.customerWx;
  const values = [
    wx?.headImgUrl,
    wx?.pcBackground,
    wx?.bottomUrl,
    wx?.bottomUrlEn,
    wx?.registerButtonImage,
    wx?.queryButtonImage,
    wx?.shareLog,
    config?.customerUrls?.headImgUrl,
    config?.expoInfo?.showLogo,
  ];
  return values.flatMap((v) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  );
}

/**
 * The http(s) origins of image addresses: deduplicated, in order of first appearance, at most
 * `max`. Paths on this site, data: and any other scheme add nothing (`'self' data:` covers
 * what is allowed of them); an address that is not a plain host name is skipped.
 * @example imageOrigins(['/logo.jpg', 'https://cdn.example/a.jpg', 'https://CDN.example/b.jpg']) // ['https://cdn.example']
 */
export function imageOrigins(urls: readonly string[], max = MAX_IMAGE_ORIGINS): string[] {
  const origins: string[] = [];
  for (const raw of urls) {
    if (origins.length >= max) break;
    const text = raw.trim();
    if (!/^https?:\/\//i.test(text)) continue;
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      continue;
    }
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !HOST.test(url.hostname)) continue;
    if (!origins.includes(url.origin)) origins.push(url.origin);
  }
  return origins;
}

/** The origins of a config's images (configImageUrls, then imageOrigins). */
export function configImageOrigins(config: ImageConfig | null | undefined): string[] {
  return imageOrigins(configImageUrls(config));
}

/**
 * The `img-src` directive to add for `origins`, or null when there is none to add.
 * Astro merges it with the configured `img-src 'self' data:` (deduplicated).
 */
export function imgSrcDirective(origins: readonly string[]): `img-src ${string}` | null {
  return origins.length > 0 ? `img-src ${origins.join(' ')}` : null;
}
