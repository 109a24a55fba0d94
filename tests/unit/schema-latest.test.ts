/**
 * The health check's idea of the newest migrations (functions/schema.ts, issue 29) does not go
 * stale: for each D1 binding of wrangler.toml (the top level and every environment), the value
 * is the last `.sql` file, in name order, of the binding's `migrations_dir`, and the migrations
 * table is wrangler's default, the one the check reads.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseToml } from '../../scripts/check-config.mjs';
import { LATEST_MIGRATIONS, MIGRATIONS_TABLE } from '../../functions/schema';

interface D1Config {
  binding: string;
  migrations_dir?: string;
  migrations_table?: string;
}
interface WranglerConfig {
  d1_databases?: D1Config[];
  env?: Record<string, { d1_databases?: D1Config[] }>;
}

const config = parseToml(readFileSync('wrangler.toml', 'utf8')) as WranglerConfig;
const databases = [...(config.d1_databases ?? []), ...Object.values(config.env ?? {}).flatMap((e) => e.d1_databases ?? [])];

/** The newest migration file of a folder, as wrangler orders them (by name). */
const newest = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.sql')).sort().at(-1);

describe('LATEST_MIGRATIONS', () => {
  it('has a value for each D1 binding, and each binding names its migrations folder', () => {
    expect(new Set(databases.map((d) => d.binding))).toEqual(new Set(Object.keys(LATEST_MIGRATIONS)));
    for (const d of databases) expect(d.migrations_dir, d.binding).toBeTruthy();
  });

  it("is each folder's newest file (a new migration: write its name into functions/schema.ts)", () => {
    const actual = Object.fromEntries(databases.map((d) => [d.binding, newest(d.migrations_dir ?? '')]));
    expect(actual).toEqual(LATEST_MIGRATIONS);
  });

  it('is looked for in the table wrangler writes', () => {
    expect(MIGRATIONS_TABLE).toBe('d1_migrations');
    for (const d of databases) expect(d.migrations_table ?? 'd1_migrations', d.binding).toBe(MIGRATIONS_TABLE);
  });
});
