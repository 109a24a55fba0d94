import { defineConfig } from 'vitest/config';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';

/**
 * Two projects, named by runtime (STYLE.md §7):
 * - unit: `tests/unit/**\/*.test.ts`, pure functions in Node;
 * - edge: `tests/edge/**\/*.worker.test.ts`, the API and the reference upstream inside workerd with D1.
 */
export default defineConfig(async () => {
  const migrations = await readD1Migrations('functions/reference/migrations');
  // The demo seed is not a migration (README "Deploy"); read the same way (statements per file,
  // in name order) and applied after the migrations by tests/edge/setup.ts (one batch per database).
  const seed = await readD1Migrations('functions/reference/seed');
  // The edge's own database (staff gate keys, README "The gate"), migrated by tests/edge/setup.ts too.
  const staffMigrations = await readD1Migrations('functions/staff/migrations');
  return {
    test: {
      projects: [
        {
          test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' },
        },
        {
          plugins: [
            cloudflareTest({
              // Durable Object classes come from the entry: functions/worker.ts without Astro (tests/edge/entry.ts).
              main: 'tests/edge/entry.ts',
              miniflare: {
                compatibilityDate: '2026-10-19',
                compatibilityFlags: ['nodejs_compat'],
                // BLANK_D1 is never migrated: the health check's test of a database without its schema (issue 29).
                d1Databases: ['DB', 'STAFF', 'BLANK_D1'],
                // The abuse limits' counter (functions/limits); the limits keep their defaults here.
                durableObjects: { LIMITS: { className: 'Limiter', useSQLite: true } },
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  TEST_SEED: seed,
                  TEST_STAFF_MIGRATIONS: staffMigrations,
                  UPSTREAM_URL: '',
                  SESSION_SECRET: 'test-session-secret-0123456789abcdef',
                  BYPASS_CODE: '2468',
                  DEV_OUTBOX: '1',
                  // The merchant key payment notifications are signed with (required: issue 19 item 13).
                  REF_PAY_SECRET: 'test-pay-secret-0123456789abcdef',
                },
              },
            }),
          ],
          test: {
            name: 'edge',
            include: ['tests/edge/**/*.worker.test.ts'],
            setupFiles: ['tests/edge/setup.ts'],
            // Two files at a time, each in a workerd (and so a D1 and Durable Objects) of its own, even
            // on a 2-core machine (Vitest's default there is 1): most of a file's time is waiting (the
            // runtime starting, the modules crossing to it one request at a time), not computing,
            // so a second file fills that wait (issue 32: 58 files, about 5 s each before a test runs).
            maxWorkers: 2,
            // Two files share the cores, and a busy machine slows the heavy ones (40 parallel scans,
            // 1,000 sends): Vitest's 5 s made one of them time out even with one file at a time. A
            // test's time is never what it asserts; those that assert a duration say so themselves.
            testTimeout: 20_000,
          },
        },
      ],
    },
  };
});
