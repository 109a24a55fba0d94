import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_FLAGS, e2eServer, e2eWorkers } from './scripts/lib.mjs';

/**
 * Browser specs in Debian's Chromium (STACK.md: a test tool's own browser download fails
 * here) against the built Worker, served by `npm start --no-build`.
 *
 * Parallel: E2E_WORKERS Playwright workers (default 2), and each worker its own server and
 * database: worker slot i (its parallel index) talks to port E2E_PORT + i, whose fresh D1 lives
 * in `.wrangler/e2e-state-<port>`. So specs may use the seeded demo contacts, send codes and
 * register without meeting another worker's state. Playwright loads this file again in every
 * worker process, after setting TEST_PARALLEL_INDEX there: that picks the worker's baseURL, so
 * `page`, `request`, `baseURL` and `test.info().project.use.baseURL` all point at its own server.
 * Change the worker count with E2E_WORKERS, not `--workers` (the servers are started for
 * E2E_WORKERS). `npm test` picks free ports (E2E_PORT).
 *
 * Projects: `js` and `nojs` run every browser spec with JavaScript on and off; `http` runs, once,
 * the tests tagged `@http`: those that only use `request` (or no fixture at all), whose result
 * cannot depend on the browser's JavaScript setting.
 */
const workers = e2eWorkers();
const servers = Array.from({ length: workers }, (_, slot) => e2eServer(slot));
const slot = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
const own = servers[slot];
if (!own) {
  throw new Error(`Playwright worker slot ${slot} has no server: set E2E_WORKERS (${workers} now) instead of --workers`);
}

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers,
  retries: 0,
  reporter: [['list']],
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL: own.baseURL,
    viewport: { width: 390, height: 844 },
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_FLAGS },
  },
  projects: [
    // Tests tagged @http run only in the `http` project (once, not in js and in nojs).
    // Tests tagged @nojs check a step that exists only without JavaScript (e.g. a no-JS choice page).
    { name: 'js', use: { javaScriptEnabled: true }, grepInvert: [/@http\b/, /@nojs\b/] },
    // Tests tagged @js check what only JavaScript can do (e.g. a network failure seen by an island).
    { name: 'nojs', use: { javaScriptEnabled: false }, grepInvert: [/@js\b/, /@http\b/] },
    { name: 'http', grep: /@http\b/ },
  ],
  webServer: servers.map((server) => ({
    command: 'node scripts/start.mjs --no-build',
    url: `${server.baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(server.port),
      // One database per server (per port): workers, and two runs in one checkout, never share one.
      PERSIST_DIR: server.persist,
      FRESH_DB: '1',
      // No demo gate key: tests/e2e/gate.spec.ts makes one per test (scripts/gate.mjs).
      DEMO_GATE: '0',
      UPSTREAM_URL: '',
      DEV_OUTBOX: '1',
      // The reference's own send rules (the organiser's: 60 s apart, 5 an hour per contact and
      // expo), eased: the specs send many codes to the same demo contacts.
      REF_SEND_INTERVAL_S: '0',
      REF_SENDS_PER_HOUR: '100000',
      // The edge's abuse limits are the product's defaults, none set here (issue 29): each test is
      // a visitor with an address of its own (tests/e2e/fixtures.ts `test`, `CF-Connecting-IP`), the
      // extra contexts some specs open come from 127.0.0.1 together, as a crowd behind one address.
      // Only the reference's own send rules above are eased: they stand for the organiser's API.
    },
  })),
});
