/**
 * Where a lookup links to (spec §2.1, §2.3): the credential page of a registration and its
 * inverse, and the registration form. Pure.
 */
import { decodeId, decodeNumericId } from '../util/ids';
import { routePath } from '../core/routes';
import type { Variant } from '../core/variants';

/** What a credential URL carries (spec §2.1, DESIGN.md "URL parameters"). */
export interface SuccessParams {
  /** the customer url id (encoded in the URL) */
  urlId: number;
  /** the registration code (encoded) */
  euCode: string;
  /** the expo id (encoded) */
  expoId: number;
  /** the customer url id again, as a plain decimal */
  fId: number;
  /** the lookup page's own `f` query, passed through; may be empty */
  f: string;
}

/** Input of successPath: ids as numbers or decimal text, `f` optional. */
export interface SuccessPathInput {
  variant: Variant | null;
  urlId: number;
  euCode: string;
  expoId: number;
  fId: number;
  f?: string | null | undefined;
}

/**
 * The credential page of a registration (spec §2.1, §2.3). Navigation to it replaces the
 * history entry (the caller's job).
 * - a variant: `/{Variant}Success/{enc urlId}/{enc euCode}/{enc expoId}/{fId}/?f={f}`, `f` URL-encoded, may be empty;
 * - generic: `/success/{enc urlId}/{enc euCode}/{enc expoId}/{fId}`.
 * @example successPath({ variant: ieae, urlId: 10542, euCode: 'A1', expoId: 1308, fId: 10542, f: '' })
 * // '/IEAESuccess/MTA1NDI/QTE/MTMwOA/10542/?f='
 */
export function successPath(input: SuccessPathInput): string {
  const { variant, urlId, euCode, expoId, fId } = input;
  const path = routePath({ screen: 'credential', variant, params: { urlId, euCode, expoId, fId } });
  return variant === null ? path : `${path}?f=${encodeURIComponent(input.f ?? '')}`;
}

/**
 * The registration form (spec §2.1 "/{Variant}Form/{optional stored path}"; generic `/form/{path}`, §2.3).
 * The stored path's segments are kept (empty, `.` and `..` segments dropped) and each is
 * percent-encoded, so the result always stays under the form route.
 * @example formPath(asia, '10887/MTMxMg/visitor') // '/AsiaForm/10887/MTMxMg/visitor'
 * @example formPath(asia) // '/AsiaForm/'
 */
export function formPath(variant: Variant | null, pathSuffix?: string | null): string {
  const segments = (pathSuffix ?? '')
    .split('/')
    .map(safeDecode)
    // Checked after decoding: `%2E%2E` is `..` to a browser too.
    .filter((s) => s !== '' && s !== '.' && s !== '..')
    .map(encodeURIComponent);
  return `/${variant ? variant.form : 'form'}/${segments.join('/')}`;
}

/** Decodes a path segment that may already be percent-encoded, so it is not encoded twice. */
function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The raw segments of a credential URL, as a router hands them over. */
export interface RawSuccessParams {
  urlId?: string | null | undefined;
  euCode?: string | null | undefined;
  expoId?: string | null | undefined;
  fId?: string | null | undefined;
  f?: string | null | undefined;
}

/**
 * Reads a credential URL, the inverse of successPath; null when any id is invalid, or when a
 * variant is given and the expo id is not the variant's (a link to one event's credential
 * page must not show another's).
 * @example parseSuccessParams({ urlId: 'MTA1NDI', euCode: 'QTE', expoId: 'MTMwOA', fId: '10542', f: '' })
 * // { urlId: 10542, euCode: 'A1', expoId: 1308, fId: 10542, f: '' }
 */
export function parseSuccessParams(raw: RawSuccessParams, variant?: Variant | null): SuccessParams | null {
  const urlId = decodeNumericId(raw.urlId);
  const euCode = decodeId(raw.euCode);
  const expoId = decodeNumericId(raw.expoId);
  const fIdText = raw.fId?.trim() ?? '';
  const fId = /^\d{1,12}$/.test(fIdText) ? Number(fIdText) : 0;
  if (urlId === null || euCode === null || expoId === null || fId <= 0) return null;
  if (variant && variant.expoId !== null && variant.expoId !== expoId) return null;
  return { urlId, euCode, expoId, fId, f: raw.f ?? '' };
}
