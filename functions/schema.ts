/**
 * The newest migration each D1 database must have applied for this code to work (the health
 * check, functions/healthz.ts; issue 29): the last file, in name order, of the binding's
 * `migrations_dir` in wrangler.toml. `wrangler d1 migrations apply` records every file it applies
 * by name in the database's `d1_migrations` table, so one indexed read per database says whether
 * the schema is in place.
 *
 * Written here, not read from the folders at run time (a Worker has no file system, and the
 * bundle does not carry the folders): tests/unit/schema-latest.test.ts compares each value with
 * the folder wrangler.toml names, so adding a migration without updating this file fails the
 * unit tests, with the value to write.
 */
/** The table `wrangler d1 migrations apply` writes (wrangler.toml sets no `migrations_table`). */
export const MIGRATIONS_TABLE = 'd1_migrations';

/** The newest migration file of each database's folder. */
export const LATEST_MIGRATIONS: Readonly<Record<'DB' | 'STAFF', string>> = {
  DB: '0016_order_release.sql', // functions/reference/migrations
  STAFF: '0002_gate_key_show.sql', // functions/staff/migrations
};
