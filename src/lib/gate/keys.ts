/**
 * Staff gate keys (README "The gate"): the rules, pure. A key is 32 random bytes in base64url
 * (43 characters), handed to staff in a link; the edge keeps only its SHA-256 (lowercase hex) in
 * its own database (binding STAFF, table `gate_keys`, functions/staff) with the expo and gate it
 * opens, when it ends and whether it was revoked. `scripts/gate.mjs` makes keys in the same
 * format (tests/unit/gate-keys.test.ts checks that the two agree).
 */

/** A key as handed out: 32 bytes, base64url without padding. */
export const GATE_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** A key's public id (list, revoke): 10 lowercase hex characters. */
export const GATE_KEY_ID_PATTERN = /^[0-9a-f]{10}$/;

/**
 * How long a key found valid is believed without asking the database again, per isolate: a
 * revoked key stops working at most this long after `npm run gate -- revoke`.
 */
export const GATE_KEY_MEMO_MS = 5_000;

/** A row of `gate_keys` as the edge reads it (times in epoch ms). */
export interface GateKeyRow {
  id: string;
  expoId: number;
  gate: string;
  expiresAt: number;
  revokedAt: number | null;
  /** the customer url whose organiser config names the show on the gate page (issue 30), or null */
  urlsId?: number | null;
}

/** What a valid key opens: one gate of one expo, until `expiresAt`. */
export interface GateStaff {
  keyId: string;
  expoId: number;
  gate: string;
  expiresAt: number;
  /** the customer url whose config names the show (`npm run gate -- add … --url ID`), or null */
  urlsId?: number | null;
}

/**
 * The key a link or cookie carries, or null when it is not one of ours (trimmed; nothing else changed).
 * @example parseGateKey(' '.repeat(2) + 'a'.repeat(43)) // 'aaaa…' (43)
 */
export function parseGateKey(text: string | null | undefined): string | null {
  const key = (text ?? '').trim();
  return GATE_KEY_PATTERN.test(key) ? key : null;
}

/** SHA-256 of the key's text, lowercase hex: what `gate_keys.hash` holds. */
export async function hashGateKey(key: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Why a key opens nothing (for tests and logs; every reason answers the same "not found"). */
export type GateKeyRefusal = 'malformed' | 'unknown' | 'otherExpo' | 'expired' | 'revoked';

/**
 * Whether a key's row opens the gate pages of `expoId` at `now`: known, of that expo, not
 * revoked, not expired (a key is valid strictly before `expiresAt`).
 * @example gateKeyCheck({ id: 'a', expoId: 1308, gate: 'G', expiresAt: 2, revokedAt: null }, 1308, 1) // { ok: true, staff: … }
 */
export function gateKeyCheck(
  row: GateKeyRow | null,
  expoId: number,
  now: number,
): { ok: true; staff: GateStaff } | { ok: false; why: GateKeyRefusal } {
  if (!row) return { ok: false, why: 'unknown' };
  if (row.revokedAt !== null) return { ok: false, why: 'revoked' };
  if (row.expoId !== expoId) return { ok: false, why: 'otherExpo' };
  if (!(now < row.expiresAt)) return { ok: false, why: 'expired' };
  return { ok: true, staff: { keyId: row.id, expoId: row.expoId, gate: row.gate, expiresAt: row.expiresAt, urlsId: row.urlsId ?? null } };
}

/**
 * The cookie that holds a gate key, one per expo, so a phone may hold the keys of two expos and a
 * key of one expo is never even read for another.
 * @example gateCookieName(1308) // 'gate_1308'
 */
export function gateCookieName(expoId: number): string {
  return `gate_${expoId}`;
}

/** The cookie's Max-Age: whole seconds until the key ends (at least 1). */
export function gateCookieMaxAge(staff: Pick<GateStaff, 'expiresAt'>, now: number): number {
  return Math.max(1, Math.floor((staff.expiresAt - now) / 1000));
}

/** A gate's name as staff give it: 1 to 40 characters, no control characters (docs/upstream.md "Check-in"). */
export function validGateName(name: string): boolean {
  const n = name.trim();
  return n.length >= 1 && [...n].length <= 40 && !/[\u0000-\u001f\u007f]/.test(n);
}

/**
 * A memo of positive key checks for at most `ttlMs` (default {@link GATE_KEY_MEMO_MS}): only rows
 * found valid are kept, so an unknown key always asks the database, and a revoked one is asked
 * again once its entry is older than the TTL. Bounded: past `max` entries the oldest go.
 */
export function createGateKeyMemo(ttlMs = GATE_KEY_MEMO_MS, max = 500) {
  const entries = new Map<string, { row: GateKeyRow; at: number }>();
  return {
    get(hash: string, now: number): GateKeyRow | null {
      const e = entries.get(hash);
      if (!e) return null;
      if (now - e.at >= ttlMs || now < e.at) {
        entries.delete(hash);
        return null;
      }
      return e.row;
    },
    set(hash: string, row: GateKeyRow, now: number): void {
      entries.delete(hash);
      entries.set(hash, { row, at: now });
      while (entries.size > max) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
    },
    clear(): void {
      entries.clear();
    },
  };
}
export type GateKeyMemo = ReturnType<typeof createGateKeyMemo>;
