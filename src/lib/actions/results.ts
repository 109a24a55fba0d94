/**
 * How actions word what the upstream refused (spec §8). What a call answers is the contract's
 * one result type (src/lib/contract/result.ts `UpstreamResult`).
 */
import { displayText } from '../page/flash';


/** An upstream refusal's own message (cut to what a page shows), else the route's text. */
export function refusalText(msg: string | null, fallback: string, max?: number): string {
  return displayText(msg ?? '', max) || fallback;
}
