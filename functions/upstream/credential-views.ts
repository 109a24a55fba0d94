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
import { BoundedMemo, perIsolate } from './memo';
import {
  CREDENTIAL_VIEW_MAX_ENTRIES,
  CREDENTIAL_VIEW_TTL_MS,
  dropsEntry,
  isFresh,
  keepsAnswer,
  SHARED_READS,
  VIEW_WRITES,
  viewKey,
  type SharedRead,
  type ViewKey,
  type ViewWrite,
} from '../../src/lib/credential/view-cache';

interface Entry {
  at: ViewKey;
  /** when the answer came (ms); null while the read is in flight */
  storedAt: number | null;
  /** when the read started (ms): one in flight longer than IN_FLIGHT_WAIT.waitMs is taken as lost */
  startedAt: number;
  /** the answer (plain data, parsed from the reply) once it came */
  value: unknown;
}

export interface CredentialViewsOptions {
  ttlMs?: number;
  max?: number;
  /** clock, ms */
  now?: () => number;
  /** waits `ms` in the caller's own request (a timer); tests pass their own */
  sleep?: (ms: number) => Promise<unknown>;
}

/**
 * How a view waits for a read another request has in flight: it looks at the entry every
 * `pollMs`, from its own request (a timer), for at most `waitMs`, then reads for itself.
 * A view never awaits another request's promise: workerd runs the continuations of a promise in
 * the request that settles it, so a waiter's page would be written from the other request and
 * fail ("Cannot perform I/O on behalf of a different request"; 16 of 4,664 credential views
 * answered 500 in the bench's load run when the in-flight promise itself was shared).
 */
export const IN_FLIGHT_WAIT = { pollMs: 10, waitMs: 3_000 } as const;

const timer = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The shared reads of one isolate (or of one test). */
export class CredentialViews {
  readonly #entries: BoundedMemo<Entry>;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<unknown>;

  constructor(options: CredentialViewsOptions = {}) {
    this.#ttlMs = options.ttlMs ?? CREDENTIAL_VIEW_TTL_MS;
    this.#entries = new BoundedMemo(options.max ?? CREDENTIAL_VIEW_MAX_ENTRIES);
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? timer;
  }

  /**
   * The entry of a key while it may answer (fresh, or in flight for less than the wait); a stale
   * one is dropped, and so is a read that never came back (its request was aborted: workerd
   * drops a cancelled request's pending work), so one aborted view cannot make every later view wait.
   */
  #live(k: ViewKey): Entry | undefined {
    const e = this.#entries.get(k.key);
    if (!e) return undefined;
    const now = this.#now();
    if (e.storedAt === null ? now - e.startedAt < IN_FLIGHT_WAIT.waitMs : isFresh(e.storedAt, now, this.#ttlMs)) return e;
    this.#entries.delete(k.key);
    return undefined;
  }

  /** The fresh answer of a read, if this isolate has one (not one still in flight). */
  peek<T>(k: ViewKey | null): Promise<T> | undefined {
    const e = k ? this.#live(k) : undefined;
    return e && e.storedAt !== null ? Promise.resolve(e.value as T) : undefined;
  }

  /**
   * The shared answer of a read, or `load`'s (then shared while fresh, when it is an ok answer).
   * A read another request has in flight is waited for (IN_FLIGHT_WAIT), never awaited.
   */
  async read<T>(k: ViewKey | null, load: () => Promise<T>): Promise<T> {
    if (!k) return load();
    let e = this.#live(k);
    for (let waited = 0; e && e.storedAt === null && waited < IN_FLIGHT_WAIT.waitMs; waited += IN_FLIGHT_WAIT.pollMs) {
      await this.#sleep(IN_FLIGHT_WAIT.pollMs);
      e = this.#live(k);
    }
    if (e && e.storedAt !== null) return e.value as T;
    // Nothing fresh (or the other read is slow, failed or was dropped by a write): read here.
    const entry: Entry = { at: k, storedAt: null, startedAt: this.#now(), value: undefined };
    const mine = () => this.#entries.get(k.key) === entry;
    if (!e) this.#entries.set(k.key, entry);
    try {
      const r = await load();
      // A write while the read was in flight dropped the entry: the answer is not shared.
      if (mine()) {
        if (keepsAnswer(r)) {
          entry.value = r;
          entry.storedAt = this.#now();
        } else this.#entries.delete(k.key);
      }
      return r;
    } catch (err) {
      if (mine()) this.#entries.delete(k.key);
      throw err;
    }
  }

  /** Drops what a write changes; how many entries went. */
  drop(write: ViewWrite, scope: string, p: { expoId: number; euCode?: string | undefined }): number {
    let n = 0;
    for (const [key, e] of this.#entries.entries()) {
      if (dropsEntry(write, scope, p, e.at)) {
        this.#entries.delete(key);
        n++;
      }
    }
    return n;
  }

  get size(): number {
    return this.#entries.size;
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
