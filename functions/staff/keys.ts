/**
 * The staff gate keys' port on the edge's own database (binding STAFF, table `gate_keys`,
 * functions/staff/migrations): a thin read and write over src/lib/gate/keys.ts, which holds
 * the rules. A key found valid is believed for at most GATE_KEY_MEMO_MS per isolate (a revoked
 * key stops working within that); an unknown, expired or revoked key asks the database every time.
 */
import {
  createGateKeyMemo,
  gateCookieName,
  gateKeyCheck,
  hashGateKey,
  parseGateKey,
  type GateKeyRow,
  type GateStaff,
} from '../../src/lib/gate/keys';

const memo = createGateKeyMemo();

/** Forgets every memoised key (tests that revoke a key and ask again at once). */
export function forgetGateKeyMemo(): void {
  memo.clear();
}

interface Row {
  id: string;
  expo_id: number;
  gate: string;
  expires_at: number;
  revoked_at: number | null;
  urls_id: number | null;
}

/**
 * The row of a key's hash, or null. A database the Worker was deployed ahead of (STAFF migration
 * 0002, `urls_id`, not applied yet: /healthz says so) still opens its keys, without the show's
 * name: a missing column must not lock every gate out.
 */
async function findKey(db: D1Database, hash: string): Promise<GateKeyRow | null> {
  const read = (columns: string) => db.prepare(`SELECT ${columns} FROM gate_keys WHERE hash = ?`).bind(hash).first<Row>();
  const r = await read('id, expo_id, gate, expires_at, revoked_at, urls_id').catch((e: unknown) => {
    if (!/no such column/i.test(String(e))) throw e;
    return read('id, expo_id, gate, expires_at, revoked_at, NULL AS urls_id');
  });
  return r
    ? {
        id: r.id,
        expoId: Number(r.expo_id),
        gate: r.gate,
        expiresAt: Number(r.expires_at),
        revokedAt: r.revoked_at === null ? null : Number(r.revoked_at),
        urlsId: r.urls_id === null || r.urls_id === undefined ? null : Number(r.urls_id),
      }
    : null;
}

/**
 * What a key (from the staff link or the expo's cookie) opens on `expoId`, or null: malformed,
 * unknown, of another expo, revoked or expired all answer null alike. A database that cannot
 * be read opens nothing (logged).
 */
export async function staffFor(db: D1Database | undefined, key: string | null | undefined, expoId: number, now = Date.now()): Promise<GateStaff | null> {
  const parsed = parseGateKey(key);
  if (!parsed || !db) return null;
  const hash = await hashGateKey(parsed);
  let row = memo.get(hash, now);
  if (!row) {
    row = await findKey(db, hash).catch((e: unknown) => {
      console.error('gate keys: the STAFF database could not be read', e);
      return null;
    });
    const check = gateKeyCheck(row, expoId, now);
    if (check.ok && row) memo.set(hash, row, now);
    return check.ok ? check.staff : null;
  }
  const check = gateKeyCheck(row, expoId, now);
  return check.ok ? check.staff : null;
}

/** What the expo's gate cookie opens (cookies by name, e.g. hono's getCookie(c)). */
export function staffFromCookies(db: D1Database | undefined, cookies: Readonly<Record<string, string | undefined>>, expoId: number, now = Date.now()): Promise<GateStaff | null> {
  return staffFor(db, cookies[gateCookieName(expoId)], expoId, now);
}

/** A new key for a gate (tests, `npm start`'s demo link comes from scripts/gate.mjs): the key, once, and its id. */
export async function createGateKey(db: D1Database, p: { expoId: number; gate: string; expiresAt: number; now?: number; urlsId?: number }): Promise<{ id: string; key: string }> {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const key = btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const id = [...crypto.getRandomValues(new Uint8Array(5))].map((b) => b.toString(16).padStart(2, '0')).join('');
  await db
    .prepare('INSERT INTO gate_keys (id, hash, expo_id, gate, created_at, expires_at, revoked_at, urls_id) VALUES (?, ?, ?, ?, ?, ?, NULL, ?)')
    .bind(id, await hashGateKey(key), p.expoId, p.gate, p.now ?? Date.now(), p.expiresAt, p.urlsId ?? null)
    .run();
  return { id, key };
}

/** Revokes a key by its public id. */
export async function revokeGateKey(db: D1Database, id: string, now = Date.now()): Promise<void> {
  await db.prepare('UPDATE gate_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').bind(now, id).run();
}
