import { env } from 'cloudflare:test';
import type { D1Migration } from 'cloudflare:test';

// Every test file starts from the migrated, seeded reference database and the migrated staff
// database: each file runs in a workerd of its own (Vitest isolates files), so no file sees
// another's writes. The plugin keeps no persisted state to copy a seeded template from, so the state
// is built here, as fast as D1 allows: one batch (one transaction, one round trip) per database, the
// two at once, instead of one per migration and seed file (33 round trips; issue 32). What lands
// is what `applyD1Migrations` wrote before: the schema, the `d1_migrations` table with every
// migration's name (the health check reads it), then the demo seed (functions/reference/seed).
const testEnv = env as unknown as { DB: D1Database; STAFF: D1Database; TEST_MIGRATIONS: D1Migration[]; TEST_SEED: D1Migration[]; TEST_STAFF_MIGRATIONS: D1Migration[] };

/** `applyD1Migrations`'s statements (cloudflare:test), for a database that has none applied. */
function migrations(db: D1Database, list: D1Migration[]): D1PreparedStatement[] {
  const record = db.prepare('INSERT INTO "d1_migrations" (name) VALUES (?);');
  return [
    db.prepare(`CREATE TABLE IF NOT EXISTS "d1_migrations" (
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
	);`),
    ...list.flatMap((m) => [...m.queries.map((q) => db.prepare(q)), record.bind(m.name)]),
  ];
}

const { DB, STAFF } = testEnv;
await Promise.all([
  DB.batch([...migrations(DB, testEnv.TEST_MIGRATIONS), ...testEnv.TEST_SEED.flatMap((file) => file.queries.map((q) => DB.prepare(q)))]),
  // The edge's own database (staff gate keys): its migrations, no seed.
  STAFF.batch(migrations(STAFF, testEnv.TEST_STAFF_MIGRATIONS)),
]);

// Without UPSTREAM_URL the upstream client speaks to the reference in-process; the app injects it
// (functions/app.ts), and tests that build an upstream without the app get the same.
const { useLocalUpstream } = await import('../../functions/upstream');
const { createReference } = await import('../../functions/reference');
useLocalUpstream(createReference);
