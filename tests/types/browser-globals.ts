/**
 * Checked by `tsc -p tsconfig.browser.json` (npm run typecheck), in the same program as the
 * islands and stores: each line names one Worker or Node global, and its only possible error is
 * that the name does not exist there. Should Worker or Node types ever reach the browser program
 * (a `types` entry, an island importing worker code), the expected error disappears and the
 * typecheck fails on the unused directive. Excluded from tsconfig.json, where these names exist.
 */

// @ts-expect-error D1Database is a Worker binding, not a browser type
export type NoD1 = D1Database;

// @ts-expect-error KVNamespace is a Worker binding, not a browser type
export type NoKv = KVNamespace;

// @ts-expect-error process is Node's (and nodejs_compat's), not the browser's
export const noProcess = (): unknown => process.env;

// @ts-expect-error Buffer is Node's, not the browser's
export const noBuffer = (): unknown => Buffer.from('x');

/** The browser's own globals are there. */
export const hasDocument = (): string => document.title;
