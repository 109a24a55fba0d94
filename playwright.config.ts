import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_FLAGS, RAISED_LIMITS } from './scripts/lib.mjs';

/**
 * Browser specs in Debian's Chromium (STACK.md: a test tool's own browser download fails
 * here) against the built Worker, served by `npm start --no-build` on a free port with a
 * fresh database. `npm test` picks the port (E2E_PORT).
 */
const port = Number(process.env.E2E_PORT ?? 8790);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL,
    viewport: { width: 390, height: 844 },
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_FLAGS },
  },
  projects: [
    { name: 'js', use: { javaScriptEnabled: true } },
    // Tests tagged @js check what only JavaScript can do (e.g. a network failure seen by an island).
    { name: 'nojs', use: { javaScriptEnabled: false }, grepInvert: /@js\b/ },
  ],
  webServer: {
    command: 'node scripts/start.mjs --no-build',
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      // One database per run (per port): two runs in one checkout never wipe each other's.
      PERSIST_DIR: `.wrangler/e2e-state-${port}`,
      FRESH_DB: '1',
      UPSTREAM_URL: '',
      DEV_OUTBOX: '1',
      // Browser specs send many codes to the same demo contacts; the limits have their own edge tests.
      REF_SEND_INTERVAL_S: '0',
      REF_SENDS_PER_HOUR: '100000',
      // tickets.spec.ts lets an unpaid order expire: the hold is 30 s instead of spec §9's 30 minutes.
      REF_ORDER_HOLD_S: '30',
      // The same for the edge's abuse limits (all from 127.0.0.1); tests/edge proves the defaults.
      ...RAISED_LIMITS,
      // Except the seat lookups' per-address limit, at its default: tests/e2e/seats.spec.ts proves
      // that the 31st lookup in a minute is refused (no other spec looks seats up).
      LIMIT_SEAT_LOOKUPS_PER_IP_MIN: '30',
    },
  },
});
