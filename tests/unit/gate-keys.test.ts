/** Staff gate keys (src/lib/gate/keys.ts) and scripts/gate.mjs's keys: the rules, in node. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  GATE_KEY_ID_PATTERN,
  GATE_KEY_MEMO_MS,
  createGateKeyMemo,
  gateCookieMaxAge,
  gateCookieName,
  gateKeyCheck,
  hashGateKey,
  parseGateKey,
  validGateName,
  type GateKeyRow,
} from '../../src/lib/gate/keys';
import { encodeId } from '../../src/lib/util/ids';
import { encodeExpo, newGateKey } from '../../scripts/gate.mjs';

const NOW = Date.UTC(2026, 11, 1, 2, 0);
const row = (more: Partial<GateKeyRow> = {}): GateKeyRow => ({ id: 'abcdef0123', expoId: 1308, gate: 'Gate 3', expiresAt: NOW + 3600_000, revokedAt: null, ...more });

describe('gate keys', () => {
  it('reads only 43-character base64url keys', () => {
    const key = 'A'.repeat(42) + '_';
    expect(parseGateKey(` ${key} `)).toBe(key);
    for (const bad of ['', 'A'.repeat(42), 'A'.repeat(44), 'A'.repeat(42) + '+', 'A'.repeat(42) + '=', null, undefined]) expect(parseGateKey(bad)).toBeNull();
  });

  it('opens the key’s expo until it ends, never another expo, never once revoked', () => {
    expect(gateKeyCheck(row(), 1308, NOW)).toEqual({ ok: true, staff: { keyId: 'abcdef0123', expoId: 1308, gate: 'Gate 3', expiresAt: NOW + 3600_000, urlsId: null } });
    // a key that names the show's customer url (issue 30: the gate's header names the show) hands it on
    expect(gateKeyCheck({ ...row(), urlsId: 21308 }, 1308, NOW)).toMatchObject({ ok: true, staff: { urlsId: 21308 } });
    expect(gateKeyCheck(row(), 1106, NOW)).toEqual({ ok: false, why: 'otherExpo' });
    expect(gateKeyCheck(row({ revokedAt: NOW - 1 }), 1308, NOW)).toEqual({ ok: false, why: 'revoked' });
    expect(gateKeyCheck(row({ expiresAt: NOW }), 1308, NOW)).toEqual({ ok: false, why: 'expired' });
    expect(gateKeyCheck(row({ expiresAt: NOW + 1 }), 1308, NOW).ok).toBe(true);
    expect(gateKeyCheck(null, 1308, NOW)).toEqual({ ok: false, why: 'unknown' });
  });

  it('names a cookie per expo and keeps it until the key ends', () => {
    expect(gateCookieName(1308)).toBe('gate_1308');
    expect(gateCookieMaxAge({ expiresAt: NOW + 3600_000 }, NOW)).toBe(3600);
    expect(gateCookieMaxAge({ expiresAt: NOW + 10 }, NOW)).toBe(1);
  });

  it('takes gate names of 1 to 40 characters without control characters', () => {
    expect(validGateName('Gate 3')).toBe(true);
    expect(validGateName('东门 3')).toBe(true);
    expect(validGateName('x'.repeat(40))).toBe(true);
    for (const bad of ['', '   ', 'x'.repeat(41), 'a\nb', 'a\u0000']) expect(validGateName(bad)).toBe(false);
  });

  it('memoises a valid key for at most GATE_KEY_MEMO_MS, so a revoked key stops within it', () => {
    const memo = createGateKeyMemo();
    memo.set('h', row(), NOW);
    expect(memo.get('h', NOW + GATE_KEY_MEMO_MS - 1)).toEqual(row());
    expect(memo.get('h', NOW + GATE_KEY_MEMO_MS)).toBeNull();
    expect(memo.get('h', NOW + 1)).toBeNull(); // gone once expired
    memo.set('h', row(), NOW);
    expect(memo.get('h', NOW - 1)).toBeNull(); // a clock that went back believes nothing
    const small = createGateKeyMemo(1000, 2);
    small.set('a', row(), NOW);
    small.set('b', row(), NOW);
    small.set('c', row(), NOW);
    expect(small.get('a', NOW)).toBeNull();
    expect(small.get('c', NOW)).not.toBeNull();
  });

  it('agrees with scripts/gate.mjs: its keys parse, its hash is the edge’s, its eid is the route’s', async () => {
    const made = newGateKey();
    expect(parseGateKey(made.key)).toBe(made.key);
    expect(made.id).toMatch(GATE_KEY_ID_PATTERN);
    expect(await hashGateKey(made.key)).toBe(made.hash);
    expect(made.hash).toBe(createHash('sha256').update(made.key).digest('hex'));
    expect(encodeExpo(1308)).toBe(encodeId(1308));
  });
});
