/** The catalogue keys the toast can show (spec §8); pages pass their texts to ToastHost. */
export const TOAST_KEYS = ['error.generic', 'error.offline', 'error.notFoundMethod', 'error.server', 'error.timeout'] as const;

/** Picks `keys` out of a translation function into the plain object an island takes as props. */
export function strings<K extends string>(t: (key: K) => string, keys: readonly K[]): Record<K, string> {
  return Object.fromEntries(keys.map((k) => [k, t(k)])) as Record<K, string>;
}
