import { applyD1Migrations, env } from 'cloudflare:test';
import type { D1Migration } from 'cloudflare:test';

// Every test file starts from the migrated, seeded reference database: the schema migrations,
// then the demo seed (functions/reference/seed, not a migration; idempotent like npm start's).
const testEnv = env as unknown as { DB: D1Database; STAFF: D1Database; TEST_MIGRATIONS: D1Migration[]; TEST_SEED: D1Migration[]; TEST_STAFF_MIGRATIONS: D1Migration[] };
await applyD1Migrations(testEnv.DB, testEnv.TEST_MIGRATIONS);
// The edge's own database (staff gate keys): its migrations, no seed.
await applyD1Migrations(testEnv.STAFF, testEnv.TEST_STAFF_MIGRATIONS);
for (const file of testEnv.TEST_SEED) {
  await testEnv.DB.batch(file.queries.map((q) => testEnv.DB.prepare(q)));
}

// Without UPSTREAM_URL the upstream client speaks to the reference in-process; the app injects it
// (functions/app.ts), and tests that build an upstream without the app get the same.
const { useLocalUpstream } = await import('../../functions/upstream');
const { createReference } = await import('../../functions/reference');
useLocalUpstream(createReference);
