/**
 * A gate route's body limit is staff's (issue 23 review): the edge reads a gate request's body up
 * to the larger of the route's own limit and the limit of an API path that does not exist
 * (functions/api/gate.ts gateBodyRead), then answers by who asks. A holder of the expo's key meets
 * the route's limit; anyone else meets the unknown path's, so that a request without a key gets
 * exactly what the same request to a path that does not exist gets (413 over that limit, else the 404).
 */

/**
 * The limit a gate request's body is over (answer 413 naming it), or null when it is within.
 * @example gateBodyLimit({ staff: false, size: 20_000, own: 32_768, other: 16_384 }) // 16384
 * @example gateBodyLimit({ staff: true, size: 20_000, own: 32_768, other: 16_384 }) // null
 * @example gateBodyLimit({ staff: false, size: 3_000, own: 2_048, other: 16_384 }) // null
 */
export function gateBodyLimit(input: { staff: boolean; size: number; own: number; other: number }): number | null {
  const limit = input.staff ? input.own : input.other;
  return input.size > limit ? limit : null;
}
