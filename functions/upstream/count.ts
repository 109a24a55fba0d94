/**
 * How many upstream calls a request made, for its log line (functions/middleware/request-log.ts,
 * issue 24). core.ts notes every call it sends; the request log opens a count around the
 * request. AsyncLocalStorage (nodejs_compat) carries the count through every await of the
 * request without handing it to each of the many places that build an upstream; outside a
 * counted request (a test calling the client, the Cron Trigger) noting is a no-op.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** One request's tally. */
export interface CallCount {
  calls: number;
}

const current = new AsyncLocalStorage<CallCount>();

/** Runs `fn` with a fresh tally that every upstream call inside it adds to. */
export function countUpstreamCalls<T>(tally: CallCount, fn: () => T): T {
  return current.run(tally, fn);
}

/** Notes one upstream call in the current request's tally, if any (core.ts). */
export function noteUpstreamCall(): void {
  const tally = current.getStore();
  if (tally) tally.calls += 1;
}
