/**
 * What an isolate remembers between requests (a config, an unknown code, a formatter, a QR's
 * size): a map with a size limit, the least recently written entry dropped first, so a flood of
 * distinct keys never grows memory. Keep plain data (or objects that hold no request's I/O) in
 * it, never a promise another request would await (functions/upstream/credential-views.ts).
 */
export class BoundedMemo<V> {
  readonly #entries = new Map<string, V>();
  constructor(readonly max: number) {}
  get(key: string): V | undefined {
    return this.#entries.get(key);
  }
  set(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.max) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }
  delete(key: string): void {
    this.#entries.delete(key);
  }
  /** The entries, oldest written first. */
  entries(): IterableIterator<[string, V]> {
    return this.#entries.entries();
  }
  get size(): number {
    return this.#entries.size;
  }
}

/** `memo`'s value for `key`, made by `make` and kept when it is not there (a throw keeps nothing). */
export function remembered<V>(memo: BoundedMemo<V>, key: string, make: () => V): V {
  const kept = memo.get(key);
  if (kept !== undefined) return kept;
  const made = make();
  memo.set(key, made);
  return made;
}
