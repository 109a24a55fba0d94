/**
 * Checked by `tsc -p tsconfig.worker.json` (npm run typecheck), in the same program as
 * functions/ and src/lib: each line names one browser-only global, and its only possible error
 * is that the name does not exist there. Should the DOM library reach the Worker program, the
 * expected error disappears and the typecheck fails on the unused directive. Excluded from
 * tsconfig.json, where both worlds are typed together for Astro.
 */

// @ts-expect-error the Worker has no document
export const noDocument = (): unknown => document.title;

// @ts-expect-error the Worker has no window
export const noWindow = (): unknown => window.location;

// @ts-expect-error the Worker has no HTML elements
export type NoElement = HTMLElement;

/** The Worker's own types are there. */
export type HasD1 = D1Database;
