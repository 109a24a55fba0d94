/**
 * The isolate's shared credential views (issue 24; the rules: src/lib/credential/view-cache.ts):
 * a bounded memo of the reads a credential page makes, each answer shared for a few seconds by
 * every view of the same credential (or expo list) in this isolate, one read in flight at a time
 * (a refresh storm that arrives at once waits for one upstream call), and dropped by the writes
 * that change it: `upstreamFor` wraps every client it makes (`dropsViewsOnWrite`), so a gate
 * scan, a booking or an upload in this isolate ends the sharing at once.
 *
 * The memo is the isolate's memory, not the Cache API: a record is a visitor's personal data,
 * and a colo-wide copy could not be dropped by a write in another isolate; a busy colo's isolates
 * each make their own call per TTL, which is still a bounded cost per credential.
 */
import type { Upstream } from './client';
import { perIsolate } from './memo';
import {
  CREDENTIAL_VIEW_MAX_ENTRIES,
  CREDENTIAL_VIEW_TTL_MS,
  dropsEntry,
  isFresh,
  keepsAnswer,
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
  value: Promise<unknown>;
}

export interface CredentialViewsOptions {
  ttlMs?: number;
  max?: number;
  /** clock, ms */
  now?: () => number;
}

/** The shared reads of one isolate (or of one test). */
export class CredentialViews {
  readonly #entries = new Map<string, Entry>();
  readonly #ttlMs: number;
  readonly #max: number;
  readonly #now: () => number;

  constructor(options: CredentialViewsOptions = {}) {
    this.#ttlMs = options.ttlMs ?? CREDENTIAL_VIEW_TTL_MS;
    this.#max = options.max ?? CREDENTIAL_VIEW_MAX_ENTRIES;
    this.#now = options.now ?? Date.now;
  }

  /** The fresh (or in-flight) answer of a read, if this isolate has one. */
  peek<T>(k: ViewKey | null): Promise<T> | undefined {
    if (!k) return undefined;
    const e = this.#entries.get(k.key);
    if (!e) return undefined;
    if (e.storedAt === null || isFresh(e.storedAt, this.#now(), this.#ttlMs)) return e.value as Promise<T>;
    this.#entries.delete(k.key);
    return undefined;
  }

  /** The shared answer of a read, or `load`'s (then shared while fresh, when it is an ok answer). */
  read<T>(k: ViewKey | null, load: () => Promise<T>): Promise<T> {
    if (!k) return load();
    const shared = this.peek<T>(k);
    if (shared) return shared;
    const entry: Entry = { at: k, storedAt: null, value: Promise.resolve() };
    const mine = () => this.#entries.get(k.key) === entry;
    const value = load().then(
      (r) => {
        // A write while the read was in flight dropped the entry: the answer is not shared.
        if (mine()) {
          if (keepsAnswer(r)) entry.storedAt = this.#now();
          else this.#entries.delete(k.key);
        }
        return r;
      },
      (e: unknown) => {
        if (mine()) this.#entries.delete(k.key);
        throw e;
      },
    );
    entry.value = value;
    this.#entries.set(k.key, entry);
    while (this.#entries.size > this.#max) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
    return value;
  }

  /** Drops what a write changes; how many entries went. */
  drop(write: ViewWrite, scope: string, p: { expoId: number; euCode?: string | undefined }): number {
    let n = 0;
    for (const [key, e] of this.#entries) {
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
  wrap('queryCustomerCode');
  wrap('selectExpoUserSiteId');
  wrap('selectSiteTypeList');
  wrap('selectSiteDateList');
  wrap('selectBusList');
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
