/**
 * What the actions' ports answer, in the shapes of the upstream client (functions/upstream)
 * without importing it: a success with its data, or a refusal with its code and message
 * (spec §8). Transport faults are thrown, and the adapter answers them.
 */
import { displayText } from '../page/flash';

export type { Result } from '../util/result';

/** An upstream refusal's own message (cut to what a page shows), else the route's text. */
export function refusalText(msg: string | null, fallback: string, max?: number): string {
  return displayText(msg ?? '', max) || fallback;
}
