import { applyD1Migrations, env } from 'cloudflare:test';
import type { D1Migration } from 'cloudflare:test';

// Every test file starts from the migrated, seeded reference database: the schema migrations,
// then the demo seed (functions/reference/seed, not a migration; idempotent like npm start's).
const testEnv = env as unknown as { DB: D1Database; TEST_MIGRATIONS: D1Migration[]; TEST_SEED: D1Migration[] };
await applyD1Migrations(testEnv.DB, testEnv.TEST_MIGRATIONS);
for (const file of testEnv.TEST_SEED) {
  await testEnv.DB.batch(file.queries.map((q) => testEnv.DB.prepare(q)));
}
