/**
 * The error toast rules of spec §8, as data: which message, how long, or silence.
 * Every island shows errors through this one rule set (src/stores/toast.ts, src/islands/ToastHost.tsx).
 */

/** Toast durations of spec §9: 3000 ms, 5000 ms for HTTP 500 and offline. */
export const TOAST_MS = 3000;
export const TOAST_LONG_MS = 5000;

export interface ToastSpec {
  /** translation key of the message, or null when `text` is the server's own message */
  key: string | null;
  /** the server's message, shown as is (spec §8: "server msg") */
  text?: string;
  vars?: Record<string, string | number>;
  durationMs: number;
}

/** What a failed call looked like from the browser. */
export type CallFailure =
  | { kind: 'offline' }
  | { kind: 'network' }
  | { kind: 'http'; status: number; statusText: string; url: string }
  | { kind: 'body'; code: number; msg: string | null };

/**
 * The toast for a failed call, or null when the spec says to stay silent (403).
 * @example toastFor({ kind: 'http', status: 500, statusText: 'Internal Server Error', url: '/api/x' })
 *   // { key: 'error.server', vars: { status: 'Internal Server Error' }, durationMs: 5000 }
 */
export function toastFor(failure: CallFailure): ToastSpec | null {
  switch (failure.kind) {
    case 'offline':
      return { key: 'error.offline', durationMs: TOAST_LONG_MS };
    case 'network':
      return { key: 'error.generic', durationMs: TOAST_MS };
    case 'http':
      return httpToast(failure.status, failure.statusText, failure.url);
    case 'body': {
      const msg = failure.msg?.trim();
      return msg ? { key: null, text: msg, durationMs: TOAST_MS } : { key: 'error.generic', durationMs: TOAST_MS };
    }
  }
}

/** spec §8: 404 names the url; 405 and 500 are server errors with the status text; 403 is silent. */
const HTTP_RULES: ReadonlyArray<{ match: (status: number) => boolean; toast: (statusText: string, url: string) => ToastSpec | null }> = [
  { match: (s) => s === 403, toast: () => null },
  { match: (s) => s === 404, toast: (_t, url) => ({ key: 'error.notFoundMethod', vars: { url }, durationMs: TOAST_MS }) },
  { match: (s) => s === 405, toast: (t) => ({ key: 'error.server', vars: { status: t || '405' }, durationMs: TOAST_MS }) },
  { match: (s) => s >= 500, toast: (t) => ({ key: 'error.server', vars: { status: t || '500' }, durationMs: TOAST_LONG_MS }) },
];

function httpToast(status: number, statusText: string, url: string): ToastSpec | null {
  const rule = HTTP_RULES.find((r) => r.match(status));
  return rule ? rule.toast(statusText, url) : { key: 'error.generic', durationMs: TOAST_MS };
}

/** Space between the toast and what it must not cover (px). */
export const TOAST_GAP_PX = 8;

/**
 * Where the toast's top goes (px from the viewport's top): just below the page header while the
 * header is on screen, so the toast never covers the language menu; at the
 * top once the header has scrolled away.
 * @param headerBottom the header's bottom edge in viewport px, or null without a header
 * @example toastTop(48) // 56
 * @example toastTop(-120) // 8 (scrolled past the header)
 */
export function toastTop(headerBottom: number | null): number {
  return Math.max(TOAST_GAP_PX, Math.ceil(headerBottom ?? 0) + TOAST_GAP_PX);
}
