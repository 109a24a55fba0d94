/**
 * What the isolate remembers between requests (a config, an unknown code): a map with a size
 * limit, the least recently written entry dropped first, so a flood of distinct keys never
 * grows memory.
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
  get size(): number {
    return this.#entries.size;
  }
}

/** One value per isolate (module state: it lives as long as the isolate, across requests), made on first use. */
export function perIsolate<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
