/**
 * The demo seed is not a migration (issue 9 §4): `wrangler d1 migrations apply --remote` applies
 * functions/reference/migrations to a production database, so that folder holds schema only, and
 * the seed (functions/reference/seed) is written to run again safely.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../functions/reference/', import.meta.url).pathname;

/** The statements of a SQL file: comments dropped, split on `;` outside quoted strings. */
function statements(sql: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i] ?? '';
    if (!quoted && ch === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end;
      continue;
    }
    if (ch === "'") quoted = !quoted; // '' inside a string toggles twice
    if (!quoted && ch === ';') {
      if (current.trim()) out.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

const sqlFiles = (dir: string) =>
  readdirSync(join(root, dir))
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => ({ name: `${dir}/${f}`, sql: readFileSync(join(root, dir, f), 'utf8') }));

/**
 * A backfill that fills a new column from the same row's own columns (migration 0005: the proven
 * owners of older rows, issue 19 item 1) is schema evolution, not data: no literal value, no
 * other table. Anything else that writes rows belongs in the seed.
 */
const BACKFILL = /^UPDATE\s+(\w+)\s+SET\s+\w+\s*=\s*\w+(\s*,\s*\w+\s*=\s*\w+)*(\s+WHERE\s+[\w\s]+)?$/i;

describe('migrations hold schema only', () => {
  for (const { name, sql } of sqlFiles('migrations')) {
    it(`${name}: no INSERT or DELETE, and an UPDATE only as a same-row backfill`, () => {
      for (const s of statements(sql)) {
        if (/^UPDATE\b/i.test(s)) expect(s.replace(/\s+/g, ' '), name).toMatch(BACKFILL);
        else expect(s, name).toMatch(/^(CREATE|ALTER|DROP)\b/i);
      }
    });
  }
  it('a backfill with a literal value is refused', () => {
    expect("UPDATE registrations SET uname = 'demo'").not.toMatch(BACKFILL);
    expect('UPDATE registrations SET owner_phone = phone, owner_email = email WHERE owner_phone IS NULL AND owner_email IS NULL').toMatch(BACKFILL);
  });
});

describe('the seed runs again safely', () => {
  const files = sqlFiles('seed');
  it('has files, applied in name order', () => {
    expect(files.map((f) => f.name)).toEqual(['seed/0001_demo.sql', 'seed/0002_form_definitions.sql', 'seed/0003_tickets.sql', 'seed/0004_seats.sql', 'seed/0005_sites.sql', 'seed/0006_haisi.sql', 'seed/0007_forms.sql', 'seed/0008_bus.sql', 'seed/0009_pages.sql', 'seed/0010_defines.sql', 'seed/0011_checkin.sql', 'seed/0012_gate_offline.sql', 'seed/0013_visit.sql', 'seed/9000_owners.sql']);
  });
  for (const { name, sql } of files) {
    it(`${name}: every INSERT is ON CONFLICT DO NOTHING, no DDL, no DELETE`, () => {
      const all = statements(sql);
      expect(all.length).toBeGreaterThan(0);
      for (const s of all) {
        expect(s, name).toMatch(/^(INSERT|UPDATE)\b/i);
        if (/^INSERT\b/i.test(s)) expect(s.slice(-40), name).toMatch(/ON CONFLICT DO NOTHING$/);
      }
    });
  }
});
