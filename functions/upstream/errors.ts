/**
 * Transport faults of the upstream: the only things the client throws (business refusals are
 * values, see src/lib/contract/result.ts). Each kind maps to one entry of spec §8's error catalogue in the API.
 */

/** What went wrong on the way to or from the upstream. */
export type UpstreamErrorKind =
  /** no reply within the per-call timeout (`UPSTREAM_TIMEOUT_MS`) */
  | 'timeout'
  /** no reply at all: connection refused, DNS, reset (spec §8 "network not connected") */
  | 'network'
  /** the body is not JSON */
  | 'not-json'
  /** HTTP status other than 2xx (spec §8: 404, 405 and 500 have messages; 403 is silent) */
  | 'http'
  /** a reply that is not the `{code, msg, data}` envelope, data that does not decrypt, or data of the wrong shape */
  | 'bad-data'
  /** the expo has no aesKey (unknown expo, or selectAESKey refused) */
  | 'no-key';

/** Details of an UpstreamError. */
export interface UpstreamErrorInit {
  /** the call path relative to `/custom`, e.g. `/customFrom/getCustomerId` */
  path: string;
  /** HTTP status, for `http` */
  status?: number;
  /** HTTP status text, for `http` (spec §8 shows it for 405 and 500) */
  statusText?: string;
  /** reply code, when a refusal explains the fault (e.g. selectAESKey refused: `no-key`) */
  code?: number;
  /** reply msg, when there is one */
  msg?: string | null;
  cause?: unknown;
}

/** A transport fault calling the upstream; never a business refusal. */
export class UpstreamError extends Error {
  override name = 'UpstreamError';
  readonly kind: UpstreamErrorKind;
  readonly path: string;
  readonly status: number | undefined;
  readonly statusText: string | undefined;
  readonly code: number | undefined;
  readonly msg: string | null | undefined;

  constructor(kind: UpstreamErrorKind, message: string, init: UpstreamErrorInit) {
    super(`upstream ${init.path}: ${message}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = kind;
    this.path = init.path;
    this.status = init.status;
    this.statusText = init.statusText;
    this.code = init.code;
    this.msg = init.msg;
  }
}

/** True when `e` is an UpstreamError (of `kind`, when given). */
export function isUpstreamError(e: unknown, kind?: UpstreamErrorKind): e is UpstreamError {
  return e instanceof UpstreamError && (kind === undefined || e.kind === kind);
}

/** The reply code with which `selectAESKey` says an expo does not exist (the reference's `unknown expo`). */
export const UNKNOWN_EXPO_CODE = 404;

/**
 * Seconds an "unknown expo" answer is remembered: a storm of views of a dead
 * expo id costs about one `selectAESKey` per this time per isolate (and one per location through
 * the config cache), while a newly created expo shows within it. Faults (timeouts, HTTP 5xx,
 * any other refusal) are never remembered.
 */
export const UNKNOWN_EXPO_TTL_S = 30;

/**
 * True when `e` is the organiser's own answer that the expo does not exist: `selectAESKey`
 * refused with {@link UNKNOWN_EXPO_CODE}. A timeout, an HTTP error or another refusal code is not.
 */
export function isUnknownExpo(e: unknown): e is UpstreamError {
  return isUpstreamError(e, 'no-key') && e.code === UNKNOWN_EXPO_CODE;
}

/** The fault a remembered "unknown expo" answer is thrown as again (the same kind, code and msg as the first). */
export function unknownExpoError(path: string, code: number, msg: string | null): UpstreamError {
  return new UpstreamError('no-key', `selectAESKey refused (${code}), remembered`, { path, code, msg });
}
