/**
 * The demo seed runs again on an existing database without error and without change (issue 9
 * §4): `npm start` applies it on every start, also to a state dir it seeded before.
 */
import { env } from 'cloudflare:test';
import type { D1Migration } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';

const testEnv = env as unknown as { DB: D1Database; TEST_SEED: D1Migration[] };
const TABLES = [
  'expos',
  'customer_urls',
  'customer_wx',
  'activities',
  'tickets',
  'customer_forms',
  'registrations',
  'second_forms',
  'discount_codes',
  'refund_settings',
  'articles',
  'channels',
  'bus_lines',
  'bus_stops',
  'bus_departures',
  'bus_reservations',
];

async function snapshot(): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    out[table] = (await testEnv.DB.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all()).results;
  }
  return out;
}

async function applySeed(): Promise<void> {
  for (const file of testEnv.TEST_SEED) await testEnv.DB.batch(file.queries.map((q) => testEnv.DB.prepare(q)));
}

describe('demo seed (functions/reference/seed)', () => {
  it('is applied (tests/edge/setup.ts) and not empty', async () => {
    expect(testEnv.TEST_SEED.length).toBeGreaterThan(0);
    const before = await snapshot();
    expect(before['expos']?.length).toBeGreaterThan(20);
    expect(before['registrations']?.length).toBeGreaterThan(50);
    // Every demo registration has a proven owner (9000_owners.sql, issue 19 item 1): its stored contacts.
    const ownerless = await testEnv.DB.prepare(
      'SELECT count(*) AS n FROM registrations WHERE (owner_phone IS NULL AND owner_email IS NULL) OR owner_phone IS NOT phone OR owner_email IS NOT email',
    ).first<{ n: number }>();
    expect(ownerless?.n).toBe(0);
  });

  it('applied twice more, every table holds the same rows', async () => {
    const before = await snapshot();
    await applySeed();
    await applySeed();
    expect(await snapshot()).toEqual(before);
  });

  it('keeps rows a visitor changed: a re-run adds, it does not reset', async () => {
    await testEnv.DB.prepare("UPDATE registrations SET used_count = 99 WHERE eu_code = 'LNBZQNKOL2ITQGD4'").run();
    await applySeed();
    const row = await testEnv.DB.prepare(
      "SELECT used_count FROM registrations WHERE eu_code = 'LNBZQNKOL2ITQGD4'",
    ).first<{
      used_count: number;
    }>();
    expect(row?.used_count).toBe(99);
  });
});
