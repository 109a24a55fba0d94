/**
 * The isolate's shared credential views (issue 24; the rules: src/lib/credential/view-cache.ts):
 * a bounded memo of the reads a credential page makes, each answer shared for a few seconds by
 * every view of the same credential (or expo list) in this isolate, one read in flight at a time
 * (a refresh storm that arrives at once waits, in each request's own time, for one upstream
 * call; only settled answers are shared, never a promise), and dropped by the writes
 * that change it: `upstreamFor` wraps every client it makes (`dropsViewsOnWrite`), so a gate
 * scan, a booking or an upload in this isolate ends the sharing at once.
 *
 * The memo is the isolate's memory, not the Cache API: a record is a visitor's personal data,
 * and a colo-wide copy could not be dropped by a write in another isolate; a busy colo's isolates
 * each make their own call per TTL, which is still a bounded cost per credential.
 */
import type { Upstream } from './client';
import { perIsolate } from './memo';
import { SettledReads } from './settled-reads';
import {
  CREDENTIAL_VIEW_MAX_ENTRIES,
  CREDENTIAL_VIEW_TTL_MS,
  dropsEntry,
  keepsAnswer,
  SHARED_READS,
  VIEW_WRITES,
  viewKey,
  type SharedRead,
  type ViewKey,
  type ViewWrite,
} from '../../src/lib/credential/view-cache';

export interface CredentialViewsOptions {
  ttlMs?: number;
  max?: number;
  /** clock, ms */
  now?: () => number;
  /** waits `ms` in the caller's own request (a timer); tests pass their own */
  sleep?: (ms: number) => Promise<unknown>;
}

/** How a view waits for a read another request has in flight (./settled-reads.ts). */
export const IN_FLIGHT_WAIT = { pollMs: 10, waitMs: 3_000 } as const;

/** The shared reads of one isolate (or of one test): ./settled-reads.ts, tagged by their view key. */
export class CredentialViews {
  readonly #reads: SettledReads<ViewKey>;

  constructor(options: CredentialViewsOptions = {}) {
    this.#reads = new SettledReads<ViewKey>({
      ttlMs: options.ttlMs ?? CREDENTIAL_VIEW_TTL_MS,
      max: options.max ?? CREDENTIAL_VIEW_MAX_ENTRIES,
      wait: IN_FLIGHT_WAIT,
      ...(options.now ? { now: options.now } : {}),
      ...(options.sleep ? { sleep: options.sleep } : {}),
    });
  }

  /** The fresh answer of a read, if this isolate has one (not one still in flight). */
  peek<T>(k: ViewKey | null): Promise<T> | undefined {
    const hit = k ? this.#reads.peek<T>(k.key) : undefined;
    return hit ? Promise.resolve(hit.value) : undefined;
  }

  /** The shared answer of a read, or `load`'s (then shared while fresh, when it is an ok answer). */
  read<T>(k: ViewKey | null, load: () => Promise<T>): Promise<T> {
    return k ? this.#reads.read(k.key, k, load, keepsAnswer) : load();
  }

  /** Drops what a write changes; how many entries went. */
  drop(write: ViewWrite, scope: string, p: { expoId: number; euCode?: string | undefined }): number {
    return this.#reads.drop((at) => dropsEntry(write, scope, p, at));
  }

  get size(): number {
    return this.#reads.size;
  }
}

/** The one set of shared views of this isolate. */
export const isolateCredentialViews = perIsolate(() => new CredentialViews());

type SharedReads = Pick<Upstream, SharedRead>;
const shares = new WeakSet<object>();

/**
 * An upstream whose credential-view reads are shared through `views` (the reads it has of
 * `SHARED_READS`; every other call as it was). Wrapping twice would make a read wait for itself:
 * an upstream already wrapped is returned as it is.
 */
export function sharedViewReads<U extends Partial<SharedReads>>(up: U, views: CredentialViews, scope: string): U {
  if (shares.has(up)) return up;
  const out: U = { ...up };
  type Read = (p: { expoId: number; euCode?: string; typeId?: number }) => Promise<unknown>;
  const wrap = (read: SharedRead) => {
    const call = up[read] as Read | undefined;
    if (!call) return;
    const shared: Read = (p) => views.read(viewKey(scope, read, p), () => call(p));
    (out as Record<string, unknown>)[read] = shared;
  };
  for (const read of Object.keys(SHARED_READS) as SharedRead[]) wrap(read);
  shares.add(out);
  return out;
}

/** An upstream whose writes of `VIEW_WRITES` drop what they change from `views` once they are answered (or fail). */
export function dropsViewsOnWrite<U extends Partial<Pick<Upstream, ViewWrite>>>(up: U, views: CredentialViews, scope: string): U {
  const out: U = { ...up };
  for (const write of Object.keys(VIEW_WRITES) as ViewWrite[]) {
    const call = up[write] as ((p: { expoId: number; euCode?: string }) => Promise<unknown>) | undefined;
    if (!call) continue;
    (out as Record<string, unknown>)[write] = async (p: { expoId: number; euCode?: string }) => {
      try {
        return await call(p);
      } finally {
        views.drop(write, scope, p);
      }
    };
  }
  return out;
}
