/**
 * What a log line may say of a path or a URL (issue 30 item 2, docs/deploy.md "Logs"). Our
 * paths carry registration codes (`/{Variant}Success/{urlId}/{euCode}/…`, `/qr/…`, `/pass/…`,
 * `/bus/…`), gate links carry a staff key (`/gate/{eid}?key=`), queries carry contacts and codes
 * (`?f=`, `?to=`, `?euCode=`): every line that names a path or a URL writes it through
 * {@link redactPath}, never as it came. Pure: no framework, no I/O.
 *
 * What is kept is what we chose, never what a visitor typed: the scheme and host of an absolute
 * http(s) URL (never its user and password), the path's first segment when it names one of our
 * routes (a page route of src/lib/core/routes.ts or one of the Worker's own mounts below), and
 * the name of each query parameter when it is shaped like ours. Every other segment and every
 * query value is {@link REDACTED}; a fragment is too.
 */
import { isRouteName } from '../core/routes';

/** What stands for a segment, a query value or a fragment that is not written. */
export const REDACTED = '*';

/**
 * The Worker's own first segments that are not page routes (functions/app.ts mounts them, and the
 * guard passes over Astro's own). One missing here costs a log line its readability, not a secret:
 * its first segment is written as {@link REDACTED}.
 */
const WORKER_SEGMENTS: ReadonlySet<string> = new Set([
  'api',
  'qr',
  'pass',
  'healthz',
  'sw.js',
  'custom',
  'auth',
  'wx',
  'dev',
  '_astro',
  '_image',
  '_server-islands',
]);

/**
 * A query parameter's name as our links spell them (`f`, `key`, `save`, `orderNo`, `ticketId`):
 * a lower-case letter, then letters only. A contact (`@`, `.`, digits) or a registration code
 * (capitals first, or digits) never has this shape.
 */
const QUERY_NAME = /^[a-z][A-Za-z]{0,23}$/;

/** Segments written before the rest is cut to one `**` (a line stays short whatever the path). */
const MAX_SEGMENTS = 16;
/** Query parameters written before the rest is cut to one `**`. */
const MAX_PARAMS = 16;

/** A segment percent-decoded, or null when it does not decode. */
function decoded(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The path part (no query, no fragment) with only the first segment kept, and that only when it is ours. */
function redactSegments(path: string): string {
  const parts = path.split('/');
  const first = parts.findIndex((p) => p !== '');
  const out = parts.slice(0, MAX_SEGMENTS + 1).map((segment, i) => {
    if (segment === '') return '';
    const name = i === first ? decoded(segment) : null;
    return name !== null && (isRouteName(name) || WORKER_SEGMENTS.has(name)) ? name : REDACTED;
  });
  return out.join('/') + (parts.length > MAX_SEGMENTS + 1 ? '/**' : '');
}

/** The query (without `?`) with each name kept when shaped like ours, every value {@link REDACTED}. */
function redactQuery(query: string): string {
  const pairs = query.split('&');
  const out = pairs.slice(0, MAX_PARAMS).map((pair) => {
    const eq = pair.indexOf('=');
    const name = decoded((eq < 0 ? pair : pair.slice(0, eq)).replace(/\+/g, ' '));
    const shown = name !== null && QUERY_NAME.test(name) ? name : REDACTED;
    return eq < 0 ? shown : `${shown}=${REDACTED}`;
  });
  return out.join('&') + (pairs.length > MAX_PARAMS ? '&**' : '');
}

/**
 * A path or URL as a log line may write it.
 * @example redactPath('/gate/MTMwOA?key=Zq3kP9vX') // '/gate/*?key=*'
 * @example redactPath('https://expo.example/IEAESuccess/MjEzMDg?f=one%40demo.test') // 'https://expo.example/IEAESuccess/*?f=*'
 * @example redactPath('/IWHBZIMYEOZETLFI') // '/*'
 */
export function redactPath(pathOrUrl: string): string {
  const text = pathOrUrl.trim();
  if (text === '') return '';
  let origin = '';
  let rest = text;
  if (!text.startsWith('/') && /^[A-Za-z][A-Za-z0-9+.-]*:/.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return REDACTED;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${url.protocol}${REDACTED}`;
    origin = `${url.protocol}//${url.host}`;
    rest = `${url.pathname}${url.search}${url.hash}`;
  }
  const hashAt = rest.indexOf('#');
  const fragment = hashAt < 0 ? '' : `#${REDACTED}`;
  if (hashAt >= 0) rest = rest.slice(0, hashAt);
  const queryAt = rest.indexOf('?');
  const path = queryAt < 0 ? rest : rest.slice(0, queryAt);
  const query = queryAt < 0 ? '' : `?${redactQuery(rest.slice(queryAt + 1))}`;
  return `${origin}${redactSegments(path)}${query}${fragment}`;
}
