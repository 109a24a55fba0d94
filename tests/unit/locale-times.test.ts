/**
 * Times on the purchase and health pages are the expo's own clock. The upstream writes every
 * time (an order's createTime, expireTime, payTime, a refund's applyTime, a health upload's
 * createTime, a ticket's sale dates) as expo-local text (docs/upstream.md "Records"), which the
 * pages show as they come; the edge computes with them (the hold's time left, what is on sale,
 * the gate's "today") through the expo's UTC offset in src/lib/tickets/money.ts marketOf. So the
 * table must know every expo that is not at UTC+8: here it is held to the reference seed's
 * `utc_offset_minutes`, which the reference writes its times with.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expoLocalTime } from '../../functions/reference/expo';
import { marketOf } from '../../src/lib/tickets/money';
import { holdSecondsLeft, saleState } from '../../src/lib/tickets/tickets';

const SEED = join(__dirname, '../../functions/reference/seed');

/** Every seeded expo's UTC offset: rows of `INSERT INTO expos (…, utc_offset_minutes) VALUES`. */
function seededOffsets(): Map<number, number> {
  const out = new Map<number, number>();
  for (const file of readdirSync(SEED).filter((f) => f.endsWith('.sql'))) {
    const sql = readFileSync(join(SEED, file), 'utf8');
    for (const m of sql.matchAll(/INSERT INTO expos \(([^)]*)\) VALUES([\s\S]*?);\n/g)) {
      if (!(m[1] ?? '').trim().endsWith('utc_offset_minutes')) continue;
      for (const row of (m[2] ?? '').matchAll(/^\s*\((\d+),.*?(-?\d+)\)\s*[,;]?\s*(?:--.*)?$/gm)) out.set(Number(row[1]), Number(row[2]));
    }
  }
  return out;
}

describe('the expo clock of the order and health pages', () => {
  const seeded = seededOffsets();

  it('reads the seed', () => {
    expect(seeded.size).toBeGreaterThan(30);
    expect(seeded.get(1179)).toBe(420);
    expect(seeded.get(1308)).toBe(480);
  });

  it('marketOf knows every seeded expo\'s UTC offset (Jakarta, Ho Chi Minh City, Bangkok at UTC+7)', () => {
    const wrong = [...seeded].filter(([id, offset]) => marketOf(id).utcOffsetMinutes !== offset).map(([id, offset]) => `${id}: seed ${offset}, marketOf ${marketOf(id).utcOffsetMinutes}`);
    expect(wrong).toEqual([]);
  });

  it('a hold the reference writes in Jakarta time has its full 30 minutes left, not 90 or -30', () => {
    const now = Date.UTC(2026, 11, 1, 3, 0, 0);
    for (const expoId of [1313, 1178, 1314, 1179, 1308, 2002]) {
      const offset = seeded.get(expoId) ?? 480;
      const expireTime = expoLocalTime(now + 1800_000, offset);
      expect(holdSecondsLeft({ status: 0, expireTime }, now, marketOf(expoId).utcOffsetMinutes), String(expoId)).toBe(1800);
    }
  });

  it('a sale that opens at 10:00 in Jakarta is open at 10:00 WIB (03:00 UTC)', () => {
    const tk = { saleStart: '2026-12-01 10:00:00', saleEnd: null, stock: 0, soldCount: 0 };
    const at = (h: number, m: number) => Date.UTC(2026, 11, 1, h, m);
    const state = (now: number) => saleState(tk, now, marketOf(1313).utcOffsetMinutes, null);
    expect(state(at(2, 59))).not.toBe('on-sale');
    expect(state(at(3, 0))).toBe('on-sale');
  });
});
