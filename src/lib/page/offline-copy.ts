/**
 * How long the service worker may keep a credential page for a visit without a network
 * ("offline copies have a lifetime"). The page tells the worker, in a response
 * header, until when its copy may be served; the worker stores nothing past that instant, serves
 * no stored copy after it, and deletes it (src/lib/page/sw-script.ts).
 *
 * The lifetime is the expo's end (`expoInfo.endTime`, expo-local, read as UTC+8 by
 * src/lib/expo/config-apply.ts endInstant) plus {@link OFFLINE_GRACE_S}: the last evening, the trip
 * home, a late badge check. An expo whose config gives no end keeps the copy
 * {@link OFFLINE_NO_END_S} from the moment it was stored.
 */
import { endInstant } from '../expo/config-apply';

/** Response header of a credential page: the instant (ms since the epoch, decimal) its copy expires. */
export const OFFLINE_UNTIL_HEADER = 'x-offline-until';

/** A day after the expo's end: the copy still opens on the last evening and the way home. */
export const OFFLINE_GRACE_S = 24 * 60 * 60;

/** Without an end in the config: a week from the visit (long enough for a multi-day expo). */
export const OFFLINE_NO_END_S = 7 * 24 * 60 * 60;

/**
 * Until when (ms) a copy of a credential page made at `now` may be served offline.
 * @example offlineUntil('2026-12-03 18:00:00', 0) // Date.UTC(2026, 11, 3, 10) + 86_400_000
 * @example offlineUntil(null, 1000) // 1000 + 604_800_000
 */
export function offlineUntil(endTime: string | null | undefined, now: number): number {
  const end = endInstant(endTime);
  return end === null ? now + OFFLINE_NO_END_S * 1000 : end + OFFLINE_GRACE_S * 1000;
}

/**
 * Whether a stored copy may still be served at `now`: its header names an instant after `now`.
 * A copy without the header, or with anything but a decimal instant, is not served (copies
 * stored before the rule existed carry none). Self-contained: the service worker's script
 * embeds its source (src/lib/page/sw-script.ts), so it may use nothing outside its body.
 * @example offlineCopyAlive('2000', 1999) // true
 * @example offlineCopyAlive(null, 0) // false
 */
export function offlineCopyAlive(header: string | null | undefined, now: number): boolean {
  if (typeof header !== 'string' || !/^\d{1,16}$/.test(header)) return false;
  return Number(header) > now;
}
