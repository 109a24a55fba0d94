/**
 * What a user agent says about where the page runs. Its own module with no imports: the small
 * browser scripts (mini-program back, the share card) use it without pulling the guard's tables
 * into the shared client chunk.
 */

/** The messaging app's in-app browser (spec §4: login only there). */
export function inMessagingApp(userAgent: string): boolean {
  return /MicroMessenger/i.test(userAgent);
}
