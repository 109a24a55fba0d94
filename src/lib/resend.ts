/**
 * The send-code button's 60-second rule (spec §4, §9), kept by the server so that it
 * survives a reload: a cookie holds when the last code was sent (epoch seconds).
 */

/** Seconds between two sends (spec §9: resend countdown 60 s). */
export const RESEND_S = 60;
/** Cookie holding the time of the last successful send. */
export const SENT_COOKIE = 'sent';

/**
 * Seconds left before another code may be sent; 0 when it may be sent now.
 * @example resendWaitS(String(now/1000 - 45), now) // 15
 */
export function resendWaitS(cookieValue: string | null | undefined, nowMs: number): number {
  if (!cookieValue || !/^\d{1,12}$/.test(cookieValue)) return 0;
  const elapsed = Math.floor(nowMs / 1000) - Number(cookieValue);
  if (elapsed < 0) return 0; // a clock from the future is not a reason to lock the visitor out
  return Math.max(0, RESEND_S - elapsed);
}
