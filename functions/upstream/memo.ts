/**
 * What the isolate remembers between requests: the bounded map (src/lib/util/bounded-memo.ts),
 * and one value per isolate.
 */
export { BoundedMemo } from '../../src/lib/util/bounded-memo';

/** One value per isolate (module state: it lives as long as the isolate, across requests), made on first use. */
export function perIsolate<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
