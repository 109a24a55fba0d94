/**
 * Spec §8 "Chunk load failure: ChunkLoadError after 120000 ms", §9 "chunk load timeout 120 s":
 * an island whose JavaScript did not load. Astro hydrates an island by a dynamic import of its
 * chunk; when that import fails (Astro retries once, then dispatches `astro:hydration-error`) or
 * has not hydrated the island this long after the page started, the shell shows the catalogue
 * message `error.chunkLoad` with a retry link that loads the page again (src/scripts/zoom-guard.ts,
 * the shell's one inline script; the message is in src/layouts/Layout.astro). Meanwhile the
 * server-rendered form works as a plain form post. Its own module, with no imports: the inline
 * script bundles it and nothing else.
 */

/** spec §9: chunk load timeout 120 s. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/**
 * Islands that should have hydrated by now: those that start at once or on idle. A
 * `client:visible` island starts only when scrolled into view, so its waiting is not a failure
 * (its import failing still is, through `astro:hydration-error`).
 */
export const EAGER_ISLANDS = 'astro-island[ssr][client=idle],astro-island[ssr][client=load]';

/**
 * The timeout the page uses: spec §9's, unless a browser test set a shorter one on `window`
 * before the page ran (`chunkLoadTimeoutMs`, with Playwright's `addInitScript`: README "Tests").
 * @example chunkTimeoutMs({}) // 120000
 */
export function chunkTimeoutMs(w: { chunkLoadTimeoutMs?: unknown }): number {
  const v = w.chunkLoadTimeoutMs;
  return typeof v === 'number' && v > 0 ? v : CHUNK_LOAD_TIMEOUT_MS;
}
