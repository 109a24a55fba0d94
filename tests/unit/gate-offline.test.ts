import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  batches,
  bump,
  decideLocally,
  entryTime,
  gateStatus,
  isDoubleEntry,
  isRepeat,
  listHash,
  localAnswer,
  localDay,
  mergeAnswer,
  scanTime,
  newScanId,
  normaliseCode,
  readSync,
  scanDay,
  withPending,
  type LocalRow,
} from '../../src/lib/gate/offline';
import type { GateAnswer, GateQueuedScan, GateSyncRefused, GateSynced } from '../../src/lib/gate/types';

const DAY = '2026-11-26';
const row = (over: Partial<LocalRow> = {}): LocalRow => ({
  hash: 'h',
  usedCount: 0,
  maxCount: 1,
  auditStatus: 0,
  useStatus: 0,
  days: null,
  ...over,
});
const answer = (over: Partial<GateAnswer> = {}): GateAnswer => ({
  result: 'admitted',
  code: 'PF4R5MHUHIPEQBHR',
  name: 'Li Lei',
  classLabel: 'Visitor',
  ticketName: null,
  usedCount: 1,
  maxCount: 1,
  lastEntry: { at: `${DAY} 09:10:00`, gate: 'Gate 1' },
  gate: 'Gate 1',
  scannedAt: `${DAY}T01:10:00.000Z`,
  ...over,
});
const scan = (over: Partial<GateQueuedScan> = {}): GateQueuedScan => ({
  scanId: 's1',
  code: 'PF4R5MHUHIPEQBHR',
  scannedAt: '2026-11-26T01:14:00.000Z',
  local: 'admitted',
  ...over,
});

describe('the list key', () => {
  it('is the SHA-256 hex of "{expoId}:{code}", as the edge writes it', async () => {
    const want = createHash('sha256').update('1308:PF4R5MHUHIPEQBHR').digest('hex');
    expect(await listHash(1308, 'PF4R5MHUHIPEQBHR')).toBe(want);
  });
});

describe('reading a code', () => {
  it('trims and drops inner spaces', () => {
    expect(normaliseCode(' PF4R 5MHU HIPE QBHR \n')).toBe('PF4R5MHUHIPEQBHR');
  });
  it('takes the code out of a credential link (base64url segment)', () => {
    expect(normaliseCode('https://x.example/IEAESuccess/MjEzMDg/UEY0UjVNSFVISVBFUUJIUg/MTMwOA/21308/?f=1')).toBe('PF4R5MHUHIPEQBHR');
  });
  it('reads nothing from another link, an empty text or a text with other characters', () => {
    expect(normaliseCode('https://evil.example/pay?x=1')).toBeNull();
    expect(normaliseCode('   ')).toBeNull();
    expect(normaliseCode(null)).toBeNull();
    expect(normaliseCode('a;b')).toBeNull();
    expect(normaliseCode('x'.repeat(65))).toBeNull();
  });
});

describe('deciding offline, case by case', () => {
  it('a code not on the list is unknown (offline another expo cannot be told apart)', () => {
    expect(decideLocally(null, DAY)).toEqual({ result: 'unknown', usedCount: null, maxCount: null });
  });
  it('awaiting review is refused for review; null audit status counts as approved', () => {
    expect(decideLocally(row({ auditStatus: 1 }), DAY).result).toBe('review');
    expect(decideLocally(row({ auditStatus: null }), DAY).result).toBe('admitted');
  });
  it('review comes before void, void before the count', () => {
    expect(decideLocally(row({ auditStatus: 2, useStatus: 2 }), DAY).result).toBe('review');
    expect(decideLocally(row({ useStatus: 2, usedCount: 5 }), DAY).result).toBe('void');
  });
  it('the count at the maximum is used; 0 is unlimited', () => {
    expect(decideLocally(row({ usedCount: 1, maxCount: 1 }), DAY)).toEqual({ result: 'used', usedCount: 1, maxCount: 1 });
    expect(decideLocally(row({ usedCount: 0, maxCount: 1 }), DAY)).toEqual({ result: 'admitted', usedCount: 0, maxCount: 1 });
    expect(decideLocally(row({ usedCount: 99, maxCount: 0 }), DAY).result).toBe('admitted');
    expect(decideLocally(row({ usedCount: 2, maxCount: 3 }), DAY).result).toBe('admitted');
  });
});

describe('day passes', () => {
  const pass = row({
    usedCount: 3,
    maxCount: 1,
    days: [
      { day: '2026-11-25', usedCount: 1 },
      { day: DAY, usedCount: 0 },
    ],
  });
  it('count per day: used yesterday, admitted today', () => {
    expect(decideLocally(pass, '2026-11-25').result).toBe('used');
    expect(decideLocally(pass, DAY)).toEqual({ result: 'admitted', usedCount: 0, maxCount: 1 });
  });
  it('a day not among its days is another day', () => {
    expect(decideLocally(pass, '2026-11-27').result).toBe('otherDay');
  });
  it('the local day of an instant is the device clock’s', () => {
    expect(localDay(new Date(2026, 10, 26, 23, 59))).toBe(DAY);
  });
});

describe('counting an offline admission', () => {
  it('bumps the whole count, so the same code offline twice is refused', () => {
    const after = bump(row(), DAY, { at: `${DAY} 09:14:00`, gate: 'Gate 3' });
    expect(after.usedCount).toBe(1);
    expect(after.lastEntry).toEqual({ at: `${DAY} 09:14:00`, gate: 'Gate 3' });
    expect(decideLocally(after, DAY).result).toBe('used');
  });
  it('bumps only the day’s count of a day pass', () => {
    const pass = row({ days: [{ day: '2026-11-25', usedCount: 0 }, { day: DAY, usedCount: 0 }] });
    const after = bump(pass, DAY, { at: `${DAY} 09:14:00`, gate: 'Gate 3' });
    expect(after.days).toEqual([{ day: '2026-11-25', usedCount: 0 }, { day: DAY, usedCount: 1 }]);
    expect(decideLocally(after, DAY).result).toBe('used');
    expect(decideLocally(after, '2026-11-25').result).toBe('admitted');
  });
  it('a fresh list counts the scans still waiting to be sent', () => {
    const at = new Date(2026, 10, 26, 9, 14).toISOString();
    const fresh = withPending(row({ maxCount: 2 }), [{ scannedAt: at, gate: 'Gate 3' }, { scannedAt: at, gate: 'Gate 3' }]);
    expect(fresh.usedCount).toBe(2);
    expect(decideLocally(fresh, DAY).result).toBe('used');
  });
  it('the answer shown offline counts this admission and says when', () => {
    const scannedAt = new Date(2026, 10, 26, 9, 14, 5).toISOString();
    const a = localAnswer('C', decideLocally(row(), DAY), row(), 'Gate 3', scannedAt);
    expect(a).toMatchObject({ result: 'admitted', usedCount: 1, maxCount: 1, lastEntry: { at: `${DAY} 09:14:05`, gate: 'Gate 3' } });
    const used = bump(row(), DAY, { at: `${DAY} 09:14:05`, gate: 'Gate 3' });
    expect(localAnswer('C', decideLocally(used, DAY), used, 'Gate 3', scannedAt)).toMatchObject({ result: 'used', usedCount: 1, lastEntry: { gate: 'Gate 3' } });
  });
});

describe('merging the server’s answers', () => {
  it('the server’s count wins over ours', () => {
    const ours = bump(row({ maxCount: 1 }), DAY, { at: `${DAY} 09:14:00`, gate: 'Gate 3' });
    const merged = mergeAnswer(ours, answer({ result: 'used', usedCount: 1, lastEntry: { at: `${DAY} 09:10:00`, gate: 'Gate 1' } }), DAY);
    expect(merged.usedCount).toBe(1);
    expect(merged.lastEntry).toEqual({ at: `${DAY} 09:10:00`, gate: 'Gate 1' });
    expect(mergeAnswer(row({ usedCount: 5 }), answer({ usedCount: 2 }), DAY).usedCount).toBe(2);
  });
  it('a day pass takes the server’s count for the scan’s day only', () => {
    const pass = row({ days: [{ day: '2026-11-25', usedCount: 1 }, { day: DAY, usedCount: 0 }] });
    expect(mergeAnswer(pass, answer({ usedCount: 1 }), DAY).days).toEqual([{ day: '2026-11-25', usedCount: 1 }, { day: DAY, usedCount: 1 }]);
  });
  it('void and review answers mark the row; unknown and another expo leave it', () => {
    expect(decideLocally(mergeAnswer(row(), answer({ result: 'void' }), DAY), DAY).result).toBe('void');
    expect(decideLocally(mergeAnswer(row(), answer({ result: 'review', usedCount: 0 }), DAY), DAY).result).toBe('review');
    expect(mergeAnswer(row({ usedCount: 0 }), answer({ result: 'unknown', usedCount: null }), DAY)).toEqual(row({ usedCount: 0 }));
  });
});

describe('a sync: what leaves the queue, and double entries', () => {
  const sent = [scan({ scanId: 'a' }), scan({ scanId: 'b', code: 'OTHER', local: 'used' }), scan({ scanId: 'c' })];
  const results: GateSynced[] = [
    { scanId: 'a', answer: answer({ result: 'used', usedCount: 1, maxCount: 1 }), double: true },
    { scanId: 'b', answer: answer({ result: 'used', code: 'OTHER' }), double: false },
    { scanId: 'zz', answer: answer(), double: false },
  ];
  it('drops the answered scans, keeps the rest, ignores results for scans not sent', () => {
    const out = readSync(sent, results, 'Gate 3');
    expect(out.answered).toEqual(['a', 'b']);
    expect(out.merges.map((m) => m.scan.scanId)).toEqual(['a', 'b']);
  });
  it('a scan the organiser refused leaves the queue as refused, with its message; the answered ones after it leave too (issue 30)', () => {
    const out = readSync(sent, results.slice(1), 'Gate 3', [{ scanId: 'a', code: 400, msg: 'bad input: scannedAt is more than 30 days old' }, { scanId: 'zz', code: 400, msg: 'x' }]);
    expect(out.refused).toEqual([{ scanId: 'a', code: 'PF4R5MHUHIPEQBHR', scannedAt: '2026-11-26T01:14:00.000Z', reply: 400, msg: 'bad input: scannedAt is more than 30 days old' }]);
    expect(out.answered).toEqual(['b']);
    expect(out.doubles).toEqual([]);
    // 'c' has neither: it stays queued
    expect([...out.answered, ...out.refused.map((r) => r.scanId)]).not.toContain('c');
    // a refusal as a server of another version might send it is still read, never thrown on
    const odd = readSync(sent, [], 'Gate 3', [{ scanId: 'c', code: 'x', msg: 7 } as unknown as GateSyncRefused]);
    expect(odd.refused).toEqual([expect.objectContaining({ scanId: 'c', reply: 0, msg: '' })]);
  });
  it('reports a scan admitted offline that the server refused, with the server’s count and first entry', () => {
    const out = readSync(sent, results, 'Gate 3');
    expect(out.doubles).toEqual([
      {
        scanId: 'a',
        code: 'PF4R5MHUHIPEQBHR',
        scannedAt: '2026-11-26T01:14:00.000Z',
        gate: 'Gate 1',
        server: 'used',
        usedCount: 1,
        maxCount: 1,
        lastEntry: { at: `${DAY} 09:10:00`, gate: 'Gate 1' },
      },
    ]);
  });
  it('a refusal offline that the server also refuses is no double entry; the rule holds without the server’s flag', () => {
    expect(isDoubleEntry('used', { double: false, answer: answer({ result: 'used' }) })).toBe(false);
    expect(isDoubleEntry('admitted', { double: false, answer: answer({ result: 'used' }) })).toBe(true);
    expect(isDoubleEntry('admitted', { double: false, answer: answer({ result: 'admitted' }) })).toBe(false);
  });
  it('sends the queue oldest first in posts of at most the maximum', () => {
    const q = Array.from({ length: 250 }, (_, i) => scan({ scanId: `s${i}`, scannedAt: new Date(Date.UTC(2026, 10, 26, 1, 0, 250 - i)).toISOString() }));
    const b = batches(q, 100);
    expect(b.map((x) => x.length)).toEqual([100, 100, 50]);
    expect(b[0]?.[0]?.scanId).toBe('s249');
  });
});

describe('the scanner’s small rules', () => {
  it('the same code within 3 s is the same person', () => {
    expect(isRepeat(null, 'A', 0)).toBe(false);
    expect(isRepeat({ code: 'A', at: 1000 }, 'A', 3999)).toBe(true);
    expect(isRepeat({ code: 'A', at: 1000 }, 'A', 4000)).toBe(false);
    expect(isRepeat({ code: 'A', at: 1000 }, 'B', 1001)).toBe(false);
  });
  it('a scan id fits the upstream’s scanId rule', () => {
    const id = newScanId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(newScanId()).not.toBe(id);
  });
  it('an entry time is the clock on its day, the date too on another', () => {
    expect(entryTime(`${DAY} 09:14:05`, DAY)).toBe('09:14');
    expect(entryTime('2026-11-25 18:02:00', DAY)).toBe('2026-11-25 18:02');
  });
  it('the status line’s facts', () => {
    expect(gateStatus({ online: false, codes: 3, updatedAt: null, waiting: 2, complete: true })).toEqual({ kind: 'offline', codes: 3, updatedAt: null, waiting: 2 });
    expect(gateStatus({ online: true, codes: 3, updatedAt: 'x', waiting: 0, complete: false }).kind).toBe('online');
  });
});

describe('the day a scan counts on', () => {
  const fetchedAt = new Date(2026, 10, 26, 20, 0).toISOString();
  it('is the list’s day while the phone’s day is the one it had when the list was read', () => {
    expect(scanDay({ today: '2026-11-27', fetchedAt }, new Date(2026, 10, 26, 23, 0))).toBe('2026-11-27');
  });
  it('is the phone’s day once its day has turned, or without a list', () => {
    expect(scanDay({ today: '2026-11-27', fetchedAt }, new Date(2026, 10, 27, 1, 0))).toBe('2026-11-27');
    expect(scanDay({ today: '2026-11-27', fetchedAt }, new Date(2026, 10, 28, 9, 0))).toBe('2026-11-28');
    expect(scanDay(null, new Date(2026, 10, 26, 9, 0))).toBe(DAY);
  });
  it('a fresh list counts waiting scans on the day given', () => {
    const pass = row({ days: [{ day: '2026-11-27', usedCount: 0 }] });
    const fresh = withPending(pass, [{ scannedAt: fetchedAt, gate: 'Gate 3' }], () => '2026-11-27');
    expect(fresh.days).toEqual([{ day: '2026-11-27', usedCount: 1 }]);
  });
});

describe('the scanner stays out of the visitor pages’ shared chunk', () => {
  it('imports nothing from src/lib outside src/lib/gate but what visitor islands already share', async () => {
    const { readFileSync, readdirSync } = await import('node:fs');
    const { dirname, relative, resolve } = await import('node:path');
    // astro.config.mjs puts every src/lib module an island imports into one chunk all visitor pages
    // load, src/lib/gate/ excepted: a new import from elsewhere in src/lib grows every visitor page.
    const files = ['src/islands/GateScanner.tsx', 'src/lib/gate/offline.ts', ...readdirSync('src/islands/gate').filter((f) => f.endsWith('.ts')).map((f) => `src/islands/gate/${f}`)];
    const lib = files.flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/^import\s+(?!type\b)[^'"]*['"](\.[^'"]+)['"]/gm)]
        .map((m) => relative(process.cwd(), resolve(dirname(f), m[1] ?? '')).replace(/\\/g, '/'))
        .filter((p) => p.startsWith('src/lib/') && !p.startsWith('src/lib/gate/')),
    );
    expect([...new Set(lib)]).toEqual(['src/lib/util/interpolate']);
  });
});

describe('scanTime: when a refused scan was made, as staff read it', () => {
  it('the time alone on the day, with the date on another day (a clock a month behind shows)', () => {
    const at = new Date(2026, 10, 26, 9, 14).toISOString();
    expect(scanTime(at, '2026-11-26')).toBe('09:14');
    expect(scanTime(at, '2026-12-27')).toBe('2026-11-26 09:14');
    expect(scanTime('not a time', '2026-11-26')).toBe('');
  });
});
