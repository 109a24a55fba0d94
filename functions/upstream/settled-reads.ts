/**
 * Reads shared by the requests of one isolate, settled answers only (issue 24's credential views,
 * issue 29's health probe): an answer is reused while fresh; a request that finds a read of the
 * same key in flight looks for its answer every `wait.pollMs`, from its own request (a timer), for
 * at most `wait.waitMs`, then reads for itself. It never awaits another request's promise: workerd
 * runs a promise's continuations in the request that settles it, so a waiter's page would be
 * written from the other request and fail ("Cannot perform I/O on behalf of a different request";
 * 16 of 4,664 credential views answered 500 in the bench's load run when the promise was shared).
 * A read in flight longer than the wait is taken as lost (its request was aborted: workerd drops a
 * cancelled request's pending work), so one aborted request cannot make every later one wait.
 */
import { BoundedMemo } from './memo';
import { isFresh } from '../../src/lib/credential/view-cache';

export interface SettledReadsOptions {
  /** how long a settled answer is reused (ms) */
  ttlMs: number;
  /** most keys kept (the oldest go first) */
  max: number;
  /** how a request waits for a read in flight elsewhere */
  wait: { readonly pollMs: number; readonly waitMs: number };
  /** clock, ms; default Date.now */
  now?: () => number;
  /** waits `ms` in the caller's own request; default a timer */
  sleep?: (ms: number) => Promise<unknown>;
}

interface Entry<Tag> {
  /** what the owner tells entries apart by when it drops some ({@link SettledReads.drop}) */
  tag: Tag;
  /** when the answer came (ms); null while the read is in flight */
  storedAt: number | null;
  /** when the read started (ms) */
  startedAt: number;
  /** the answer (plain data) once it came */
  value: unknown;
}

const timer = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The shared reads of one isolate (or of one test), each entry tagged by its owner. */
export class SettledReads<Tag> {
  readonly #entries: BoundedMemo<Entry<Tag>>;
  readonly #ttlMs: number;
  readonly #wait: SettledReadsOptions['wait'];
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<unknown>;

  constructor(options: SettledReadsOptions) {
    this.#entries = new BoundedMemo(options.max);
    this.#ttlMs = options.ttlMs;
    this.#wait = options.wait;
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? timer;
  }

  /** The entry of a key while it may answer (fresh, or in flight for less than the wait); any other is dropped. */
  #live(key: string): Entry<Tag> | undefined {
    const e = this.#entries.get(key);
    if (!e) return undefined;
    const now = this.#now();
    const live = e.storedAt === null ? now - e.startedAt < this.#wait.waitMs : isFresh(e.storedAt, now, this.#ttlMs);
    if (live) return e;
    this.#entries.delete(key);
    return undefined;
  }

  /** The fresh settled answer of a key, if there is one (not one still in flight). */
  peek<T>(key: string): { value: T } | undefined {
    const e = this.#live(key);
    return e && e.storedAt !== null ? { value: e.value as T } : undefined;
  }

  /**
   * The shared answer of a key, or `load`'s, then shared while fresh when `keep` says so. A read
   * another request has in flight is waited for, never awaited.
   */
  async read<T>(key: string, tag: Tag, load: () => Promise<T>, keep: (answer: T) => boolean = () => true): Promise<T> {
    let e = this.#live(key);
    for (let waited = 0; e && e.storedAt === null && waited < this.#wait.waitMs; waited += this.#wait.pollMs) {
      await this.#sleep(this.#wait.pollMs);
      e = this.#live(key);
    }
    if (e && e.storedAt !== null) return e.value as T;
    // Nothing fresh (or the other read is slow, failed or was dropped): read here.
    const entry: Entry<Tag> = { tag, storedAt: null, startedAt: this.#now(), value: undefined };
    const mine = () => this.#entries.get(key) === entry;
    if (!e) this.#entries.set(key, entry);
    try {
      const answer = await load();
      // A drop while the read was in flight removed the entry: the answer is not shared.
      if (mine()) {
        if (keep(answer)) {
          entry.value = answer;
          entry.storedAt = this.#now();
        } else this.#entries.delete(key);
      }
      return answer;
    } catch (err) {
      if (mine()) this.#entries.delete(key);
      throw err;
    }
  }

  /** Drops the entries whose tag `drops` names; how many went. */
  drop(drops: (tag: Tag) => boolean): number {
    let n = 0;
    for (const [key, e] of this.#entries.entries()) {
      if (drops(e.tag)) {
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
